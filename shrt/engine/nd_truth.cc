#include "shrt/engine/nd_truth.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>
#include <unordered_map>

#include "absl/container/node_hash_map.h"
#include "absl/functional/function_ref.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "c10/util/Logging.h"
#include "shrt/engine/cases.h"
#include "shrt/engine/distribute.h"
#include "shrt/engine/full_case.h"
#include "shrt/engine/isolation.h"
#include "shrt/engine/nd_case_caches.h"
#include "shrt/engine/nd_layout.h"
#include "shrt/engine/nd_transpose.h"
#include "shrt/engine/rank_locals.h"
#include "shrt/engine/sample.h"
#include "shrt/engine/static_findings.h"
#include "shrt/engine/tensor_bytes.h"
#include "shrt/engine/torch_runtime.h"
#include "shrt/ops/overload_name.h"
#include "shrt/spec/recipes.h"
#include "shrt/spec/rng.h"
#include "shrt/vocab/limits.h"

namespace shrt {
namespace {

// One input's locals on every rank, with the key of each rank's content
// (nd_layout.h DistributeNd: equal keys, equal locals).
struct NdLocals {
  std::vector<at::Tensor> ranks;
  std::vector<uint64_t> keys;
  double scale = 0;
};
// Locals of one case by (input, N-D placements, redraw, negated), and
// what DistributeNd made for them by (input, negated).
struct NdLocalsCache {
  absl::node_hash_map<std::tuple<size_t, NdPlacements, int, bool>, NdLocals> locals;
  std::map<std::pair<size_t, bool>, NdPieceCache> pieces;
};

// The seed of input i's Partial parts in one case and redraw: the same for
// every N-D placement, so that one base split one way gets the same parts
// in every rule (nd_layout.h DistributeNd), and the rules' verdicts agree.
uint64_t LocalsSeed(uint64_t case_seed, size_t i, int redraw) {
  return MixSeed({case_seed, i, static_cast<uint64_t>(redraw)});
}

// The Partial placement of an N-D placement list, if any, else its first:
// what PartialVariants needs to know of an input.
Placement Representative(const NdPlacements& ps) {
  for (const Placement& p : ps) {
    if (p.is_partial()) return p;
  }
  return ps.front();
}

class NdTruthBuilder {
 public:
  NdTruthBuilder(const LoadedSpec& spec, int s, const BoundSample& sample, const MeshShape& mesh,
                 const NdRuleSource& source, const TruthOptions& options)
      : spec_(spec),
        sample_(sample),
        mesh_(mesh),
        source_(source),
        options_(options),
        cases_(spec, s, sample, options) {}

  absl::StatusOr<NdSampleTruth> Run() {
    if (absl::Status st = cases_.Init(); !st.ok()) return st;
    truth_.name = sample_.name();
    truth_.description = sample_.Describe();
    bool started = false;
    // One round, one case per generator: a tiny sample's later rounds
    // (full_case.h kMinCaseElements) are the 1-D engine's. No N-D verdict
    // has depended on the draws (RELIABILITY.md "Verdicts that depend on
    // the draws"), and a 0-d sample keeps most of its (K + 1)^n N-D rules
    // alive through every round.
    for (size_t g = 0; g < cases_.generators(); ++g) {
      absl::StatusOr<FullCase> made = cases_.Make(g);
      if (!made.ok()) return made.status();
      FullCase& full = *made;
      if (full.special_inputs && !spec_.proto().special_values_undefined().empty()) continue;
      if (!full.call.ok() && IsCrash(full.call.status())) continue;
      // Special values outside the operator's domain (an inf value for
      // masked_fill of an int64 self): no case, and no fault of the spec.
      if (!full.call.ok() && full.special_inputs) continue;
      if (!full.call.ok() && spec_.is_variant()) {
        truth_.rejection =
            absl::StrCat("sample ", sample_.name(), ": ", OverloadToString(spec_.op()),
                         " rejects the full inputs (generator ", full.generator,
                         "): ", full.call.status().message());
        return Finish();
      }
      if (!full.call.ok()) {
        return cases_.Bad(absl::StrCat("the operator rejects the full inputs (generator ",
                                       full.generator, "): ", full.call.status().message()));
      }
      full.outputs = *full.call;
      if (!started) {
        started = true;
        absl::StatusOr<bool> go = Start(full.outputs);
        if (!go.ok()) return go.status();
        if (!*go) return Finish();
      } else if (full.outputs.size() != outputs_.size()) {
        return cases_.Bad("the number of outputs differs between generators");
      }
      // A case of special values only refutes (full_case.h Informative).
      const bool informative = !full.special_inputs && Informative(full.outputs);
      NdLocalsCache cache;
      NdCallMemo memo;
      NdExpectedCache expected;
      NdCheckCache checks;
      for (const auto& [inputs, rules] : tuples_) {
        if (std::none_of(rules.begin(), rules.end(), [&](size_t r) { return Open(r); })) continue;
        RunTuple(inputs, rules, full, cache, memo, expected, checks);
        if (!informative) continue;
        for (size_t r : rules) ++informative_[r];
      }
    }
    if (!started && cases_.crashed()) {
      truth_.rejection =
          absl::StrCat("sample ", sample_.name(), ": every call of ", OverloadToString(spec_.op()),
                       " on the full inputs crashed (see its crashes)");
      return Finish();
    }
    if (!started) return cases_.Bad("the sample produced no case");
    for (size_t r = 0; r < followers_.size(); ++r) {
      for (size_t f : followers_[r]) informative_[f] = informative_[r];
    }
    for (size_t r = 0; r < truth_.rules.size(); ++r) {
      NdFinding& f = truth_.findings[r];
      if (f.finding != Finding::kValid) continue;
      if (informative_[r] == 0) {
        f = {Finding::kUninformative,
             absl::StrCat("sample ", truth_.name,
                          ": every case was uninformative (all-zero or all-NaN full output)")};
      }
    }
    return Finish();
  }

 private:
  NdSampleTruth Finish() {
    truth_.crashes = cases_.TakeCrashes();
    return std::move(truth_);
  }

  bool Open(size_t r) const { return truth_.findings[r].finding == Finding::kValid; }

  // Queries the rules for the sample's metadata and judges what needs no
  // call. False when the source failed (recorded in the truth).
  absl::StatusOr<bool> Start(const Tensors& outputs) {
    outputs_ = outputs;
    for (const at::Tensor& t : outputs) cases_.PickPrecision(t.scalar_type());
    absl::StatusOr<std::vector<NdRule>> rules = source_(sample_.MakeOpArgs(outputs));
    if (!rules.ok()) {
      truth_.source_status = rules.status();
      return false;
    }
    truth_.rules = *std::move(rules);
    truth_.findings.assign(truth_.rules.size(), {Finding::kValid, ""});
    informative_.assign(truth_.rules.size(), 0);
    followers_.assign(truth_.rules.size(), {});
    // Per rule: whether it needs calls (no static finding).
    std::vector<bool> needs_calls(truth_.rules.size(), true);
    for (size_t r = 0; r < truth_.rules.size(); ++r) {
      const NdRule& rule = truth_.rules[r];
      if (rule.ndim() != mesh_.ndim() || rule.num_inputs() != sample_.inputs().size() ||
          rule.num_outputs() != outputs.size()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "N-D rule '", NdRuleToString(rule), "' has ", rule.num_inputs(), " inputs, ",
            rule.num_outputs(), " outputs and ", rule.ndim(), " mesh dims; sample ", sample_.name(),
            " has ", sample_.inputs().size(), ", ", outputs.size(), " and the mesh ",
            mesh_.ToString(), " ", mesh_.ndim()));
      }
      std::optional<NdFinding> f = NdStaticFinding(rule, sample_, cases_.index_inputs(), outputs);
      if (f.has_value()) {
        truth_.findings[r] = *std::move(f);
        needs_calls[r] = false;
      }
    }
    const std::vector<std::optional<size_t>> leaders =
        TransposeLeaders(truth_.rules, needs_calls, mesh_);
    for (size_t r = 0; r < truth_.rules.size(); ++r) {
      if (!needs_calls[r]) continue;
      if (leaders[r].has_value()) {
        followers_[*leaders[r]].push_back(r);
        ++truth_.transposed;
        continue;
      }
      std::vector<NdPlacements> inputs;
      for (size_t i = 0; i < truth_.rules[r].num_inputs(); ++i) {
        inputs.push_back(truth_.rules[r].Input(i));
      }
      tuples_[inputs].push_back(r);
    }
    rule_outputs_.resize(truth_.rules.size());
    std::map<NdPlacements, size_t> groups;  // output 0's placements, in order
    for (size_t r = 0; r < truth_.rules.size(); ++r) {
      for (size_t k = 0; k < outputs.size(); ++k) {
        rule_outputs_[r].push_back(truth_.rules[r].Output(k));
      }
      if (sample_.has_local_shape()) groups.emplace(rule_outputs_[r][0], 0);
    }
    for (auto& [placements, g] : groups) {
      g = shape_groups_.size();
      shape_groups_.push_back({placements, {}});
    }
    shape_group_.assign(truth_.rules.size(), 0);
    if (sample_.has_local_shape()) {
      for (size_t r = 0; r < truth_.rules.size(); ++r) {
        shape_group_[r] = groups.at(rule_outputs_[r][0]);
      }
    }
    return true;
  }

  // Rank `rank`'s local shape of output 0 of shape `full` under shape
  // group g's placements, and its mix into the call memo's key; computed
  // once per full shape.
  const std::pair<std::vector<int64_t>, uint64_t>& LocalShape(size_t g, int rank,
                                                               at::IntArrayRef full) {
    ShapeGroup& group = shape_groups_[g];
    if (group.ranks.empty() || group.full != full) {
      group.full = full.vec();
      group.ranks.clear();
      for (int r = 0; r < mesh_.size(); ++r) {
        std::vector<int64_t> local = NdLocalShape(group.full, group.placements, mesh_, r);
        uint64_t key = MixSeed({local.size()});
        for (int64_t d : local) key = MixSeed({key, static_cast<uint64_t>(d)});
        group.ranks.emplace_back(std::move(local), key);
      }
    }
    return group.ranks[rank];
  }

  // What one rank's call gets for its cached locals (one per input, as
  // DistributeNd made them): each in its input's layout, and, for an
  // overload that writes its inputs, a private copy, so that the cached
  // locals stay intact for the next tuple. Made only for a call the memo
  // does not answer.
  Tensors RankCallInputs(const Tensors& locals) const {
    const UnfilledScope unfilled;  // copies, written in full
    Tensors out;
    out.reserve(locals.size());
    for (size_t i = 0; i < locals.size(); ++i) {
      const Layout layout = sample_.inputs()[i].layout;
      out.push_back(sample_.mutates() ? PrivateWithLayout(locals[i], layout)
                                      : WithLayout(locals[i], layout));
    }
    return out;
  }

  // Every rank's outputs for one run of a tuple, for the rules of shape
  // group g: each from the memo (keyed by content[r], with the local output
  // shape when the call takes it) or from one call on rank r's locals,
  // kept in the memo while it fits. Stops at the first rank that raises
  // (`crashed` is told of a crash) or returns the wrong number of outputs.
  struct RankOutputs {
    std::vector<Tensors> outs;    // [output][rank]
    std::vector<BytesKeys> keys;  // [output][rank]
    int error_rank = -1;          // the rank that failed, if any
    std::string error;            // what it did: "raised: ..."
  };
  RankOutputs CallRanks(size_t g, const std::vector<Tensors>& locals,
                        const std::vector<uint64_t>& content, const at::Tensor& want0,
                        NdCallMemo& memo,
                        absl::FunctionRef<void(const absl::Status&, int)> crashed) {
    const int n = mesh_.size();
    RankOutputs o{std::vector<Tensors>(outputs_.size(), Tensors(n)),
                  std::vector<BytesKeys>(outputs_.size(), BytesKeys(n))};
    for (int r = 0; r < n && o.error_rank < 0; ++r) {
      const std::pair<std::vector<int64_t>, uint64_t>* local_shape =
          sample_.has_local_shape() ? &LocalShape(g, r, want0.sizes()) : nullptr;
      const uint64_t key =  // the memo's
          local_shape == nullptr ? content[r] : MixSeed({content[r], local_shape->second});
      if (auto made = memo.outputs.find(key); made != memo.outputs.end()) {
        for (size_t k = 0; k < outputs_.size(); ++k) {
          o.outs[k][r] = made->second.first[k];
          o.keys[k][r] = made->second.second[k];
        }
        continue;
      }
      const Tensors call_inputs = RankCallInputs(locals[r]);
      absl::StatusOr<Tensors> got = local_shape != nullptr
                                        ? sample_.Call(call_inputs, local_shape->first)
                                        : sample_.Call(call_inputs);
      if (!got.ok()) {
        if (IsCrash(got.status())) crashed(got.status(), r);
        o.error_rank = r;
        o.error = absl::StrCat("raised: ", got.status().message());
      } else if (got->size() != outputs_.size()) {
        o.error_rank = r;
        o.error = absl::StrCat("returned ", got->size(), " outputs instead of ", outputs_.size());
      } else {
        BytesKeys keys;
        for (size_t k = 0; k < got->size(); ++k) {
          o.outs[k][r] = (*got)[k];
          keys.push_back(o.keys[k][r] = BytesKey((*got)[k]));
        }
        int64_t elements = 0;
        for (const at::Tensor& t : *got) elements += t.numel();
        if (memo.elements + elements <= kMaxMemoElements) {
          memo.elements += elements;
          memo.outputs.emplace(key, std::make_pair(*std::move(got), std::move(keys)));
        }
      }
    }
    return o;
  }

  // The evidence of a failed check of output k against `out`.
  std::string CheckEvidence(const std::string& where, size_t k, const NdPlacements& out,
                            const OutputCheck& check) const {
    const std::string rank = check.rank < 0 ? std::string("the reduction over ranks")
                                            : absl::StrCat("rank ", mesh_.RankName(check.rank));
    return absl::StrCat(where, ": output ", k, " ", NdPlacementToString(out), " on ", rank,
                        ": max |difference| ", absl::StrFormat("%.6g", check.max_abs_diff), " (",
                        check.detail, ")");
  }

  void Refute(size_t r, std::string evidence) {
    if (Open(r)) truth_.findings[r] = {Finding::kRefuted, std::move(evidence)};
  }

  void RunTuple(const std::vector<NdPlacements>& placements, const std::vector<size_t>& rules,
                FullCase& full, NdLocalsCache& cache, NdCallMemo& memo,
                NdExpectedCache& expected, NdCheckCache& checks) {
    std::vector<Placement> rep;
    for (const NdPlacements& ps : placements) rep.push_back(Representative(ps));
    const int n = mesh_.size();
    // Text for evidence and crash records, made only when one is written.
    auto tuple_text = [&]() {
      std::string text;
      for (size_t i = 0; i < placements.size(); ++i) {
        absl::StrAppend(&text, i == 0 ? "" : ", ", NdPlacementToString(placements[i]));
      }
      return text;
    };
    for (const PartialVariant& run : PartialVariants(
             rep, cases_.input_dtypes(), cases_.input_numels(), options_.partial_redraws)) {
      // Every rule of the tuple refuted: its later redraws and negations
      // would distribute locals for no call.
      if (std::none_of(rules.begin(), rules.end(), [&](size_t r) { return Open(r); })) return;
      const std::optional<CaseMaker::RunTensors> tensors = cases_.ForRun(full, run.negated);
      if (!tensors) continue;
      const Tensors* inputs = tensors->inputs;
      const Tensors* want = tensors->want;
      // locals[r][i]: rank r's local for input i; content[r]: the key of
      // what rank r's locals hold (the memo's key).
      std::vector<Tensors> locals(n, Tensors(placements.size()));
      std::vector<uint64_t> content(n, 0);
      double input_scale = 0, full_input_scale = 0;
      for (size_t i = 0; i < placements.size(); ++i) {
        const bool partial = rep[i].is_partial();
        if (partial) full_input_scale = std::max(full_input_scale, full.scales[i]);
        const int redraw = partial ? run.redraw : 0;
        auto key = std::make_tuple(i, placements[i], redraw, static_cast<bool>(run.negated[i]));
        auto it = cache.locals.find(key);
        if (it == cache.locals.end()) {
          NdLocals made;
          made.ranks = DistributeNd(
              (*inputs)[i], placements[i], mesh_,
              LocalsSeed(full.seed, sample_.inputs()[i].seed_index, redraw), &made.scale,
              &made.keys, &cache.pieces[{i, static_cast<bool>(run.negated[i])}]);
          it = cache.locals.emplace(std::move(key), std::move(made)).first;
        }
        input_scale = std::max(input_scale, it->second.scale);
        for (int r = 0; r < n; ++r) {
          content[r] = MixSeed(
              {content[r], it->second.keys[r], static_cast<uint64_t>(run.negated[i])});
          locals[r][i] = it->second.ranks[r];
        }
      }
      auto where = [&]() {
        return absl::StrCat("sample ", sample_.name(), ", generator ", full.generator,
                            run.label.empty() ? "" : ", ", run.label);
      };
      // Per output placement of output 0 when every rank's call takes its
      // local output shape (spec.proto local_shape_arg), else one set.
      std::vector<std::vector<size_t>> by_shape(sample_.has_local_shape() ? shape_groups_.size()
                                                                          : 1);
      for (size_t r : rules) {
        if (Open(r)) by_shape[shape_group_[r]].push_back(r);
      }
      for (size_t g = 0; g < by_shape.size(); ++g) {
        const std::vector<size_t>& group = by_shape[g];
        if (group.empty()) continue;
        const RankOutputs called = CallRanks(
            g, locals, content, (*want)[0], memo, [&](const absl::Status& crash, int rank) {
              cases_.Crashed(crash, full.generator, run.label, tuple_text(),
                             mesh_.RankName(rank));
            });
        const std::vector<Tensors>& outs = called.outs;
        const std::vector<BytesKeys>& out_keys = called.keys;
        auto error_at = [&](int rank) {
          return absl::StrCat(where(), ": rank ", mesh_.RankName(rank), " ", called.error);
        };
        // A follower's checks are its leader's, on the transposed ranks:
        // counted as made, since each is decided.
        for (size_t r : group) {
          truth_.combination_checks += 1 + static_cast<int64_t>(followers_[r].size());
        }
        if (called.error_rank >= 0) {  // the group's rules refuted there
          for (size_t r : group) {
            Refute(r, error_at(called.error_rank));
            for (size_t f : followers_[r]) {
              Refute(f, error_at(TransposedRank(mesh_, called.error_rank)));
            }
          }
          continue;
        }
        for (size_t r : group) {
          for (size_t k = 0; k < outputs_.size() && Open(r); ++k) {
            const NdPlacements& out = rule_outputs_[r][k];
            const CheckContext context =
                cases_.Context(k, input_scale, full_input_scale, full.special_inputs);
            const OutputCheck check = checks.Get(
                run.negated, k, out, context, outs[k], out_keys[k],
                [&]() {
                  auto reference = [&]() {
                    return cases_.Reference(full, run.negated, *inputs, *want, k);
                  };
                  return CheckNdOutput((*want)[k], outs[k], out, mesh_, context, reference,
                                       expected.Find({run.negated, k, out}, (*want)[k], n, memo));
                },
                memo);
            if (check.ok) continue;
            const std::string evidence = CheckEvidence(where(), k, out, check);
            Refute(r, evidence);
            // Each follower fails here too; its own check of the transposed
            // rank outputs names its own ranks.
            for (size_t f : followers_[r]) {
              const Tensors transposed = TransposeRanks(outs[k], mesh_);
              const NdPlacements& mirror = rule_outputs_[f][k];
              const OutputCheck own = CheckNdOutput(
                  (*want)[k], transposed, mirror, mesh_, context,
                  [&]() { return cases_.Reference(full, run.negated, *inputs, *want, k); });
              Refute(f, own.ok ? absl::StrCat(evidence, " (the same calls as rule '",
                                              NdRuleToString(truth_.rules[r]),
                                              "', on the transposed ranks)")
                               : CheckEvidence(where(), k, mirror, own));
            }
          }
        }
      }
    }
  }

  const LoadedSpec& spec_;
  const BoundSample& sample_;
  const MeshShape& mesh_;
  const NdRuleSource& source_;
  const TruthOptions& options_;
  CaseMaker cases_;
  NdSampleTruth truth_;
  Tensors outputs_;               // the first case's full outputs
  std::vector<int> informative_;  // per rule: informative cases run
  // The open rules by their tuple of N-D input placements.
  std::map<std::vector<NdPlacements>, std::vector<size_t>> tuples_;
  // Per rule: the rules that follow it (nd_transpose.h TransposeLeaders),
  // judged with it.
  std::vector<std::vector<size_t>> followers_;
  // Per rule, its outputs' N-D placements.
  std::vector<std::vector<NdPlacements>> rule_outputs_;
  // When each rank's call takes its local output shape, the distinct N-D
  // placements of output 0 in order (one group of rules each), with the
  // ranks' local shapes (LocalShape); else none.
  struct ShapeGroup {
    NdPlacements placements;
    std::vector<int64_t> full;  // the full shape `ranks` is for
    std::vector<std::pair<std::vector<int64_t>, uint64_t>> ranks;
  };
  std::vector<ShapeGroup> shape_groups_;
  std::vector<size_t> shape_group_;  // per rule: its group (0 if none)
};

}  // namespace

absl::StatusOr<NdSampleTruth> NdGroundTruth(const LoadedSpec& spec, int s,
                                            const BoundSample& sample, const MeshShape& mesh,
                                            const NdRuleSource& source,
                                            const TruthOptions& options) {
  DisableC10Backtraces();
  if (options.partial_redraws < 1) {
    return absl::InvalidArgumentError("partial_redraws must be at least 1");
  }
  return NdTruthBuilder(spec, s, sample, mesh, source, options).Run();
}

}  // namespace shrt
