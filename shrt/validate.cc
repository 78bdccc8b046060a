#include "shrt/validate.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>

#include "ATen/ops/isnan.h"
#include "c10/util/Logging.h"
#include "ATen/ops/neg.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "shrt/compare.h"
#include "shrt/distribute.h"
#include "shrt/generators.h"
#include "shrt/mesh.h"
#include "shrt/output_check.h"
#include "shrt/overload_name.h"
#include "shrt/rng.h"
#include "shrt/sample.h"
#include "shrt/text_proto.h"

namespace shrt {
namespace {

using Tensors = std::vector<at::Tensor>;

// Why one (input tuple, output, output placement) failed, first time seen.
struct Evidence {
  std::string generator;
  std::string variant;  // "", "redraw 2", "negated, redraw 0"
  int output = -1;      // -1: an exception before any output existed
  int rank = -1;
  double max_abs_diff = 0;
  std::string detail;   // comparison detail or error text
  bool error = false;
};

std::string EvidenceText(const std::string& sample, const Evidence& e) {
  std::string where = absl::StrCat("sample ", sample, ", generator ", e.generator);
  if (!e.variant.empty()) absl::StrAppend(&where, ", ", e.variant);
  if (e.error) return absl::StrCat(where, ": rank ", e.rank, " raised: ", e.detail);
  const std::string rank = e.rank < 0 ? "the reduction over ranks" : absl::StrCat("rank ", e.rank);
  return absl::StrCat(where, ": output ", e.output, " on ", rank, ": max |difference| ",
                      absl::StrFormat("%.6g", e.max_abs_diff), " (", e.detail, ")");
}

bool Informative(const Tensors& outputs) {
  for (const at::Tensor& t : outputs) {
    if (t.numel() == 0) return false;
    const bool all_zero = !t.ne(0).any().item<bool>();
    const bool all_nan = at::isFloatingType(t.scalar_type()) && at::isnan(t).all().item<bool>();
    if (all_zero || all_nan) return false;
  }
  return true;
}

// Inputs for one call on full tensors: the tensors themselves, or, for an
// overload that writes into its inputs, fresh copies in the inputs' layouts.
Tensors CallInputs(const Tensors& ts, const BoundSample& sample) {
  if (!sample.mutates()) return ts;
  Tensors out;
  out.reserve(ts.size());
  for (size_t i = 0; i < ts.size(); ++i) {
    const Layout layout = sample.inputs()[i].layout;
    out.push_back(layout == CONTIGUOUS ? ts[i].clone() : WithLayout(ts[i], layout));
  }
  return out;
}

// Mixed-radix decoding of tuple index t over per-slot candidate lists: the
// candidate index of each slot.
std::vector<int> DecodeIndices(int64_t t, const std::vector<std::vector<Placement>>& cands) {
  std::vector<int> out(cands.size(), 0);
  for (int64_t i = static_cast<int64_t>(cands.size()) - 1; i >= 0; --i) {
    const int64_t n = static_cast<int64_t>(cands[i].size());
    out[i] = static_cast<int>(t % n);
    t /= n;
  }
  return out;
}

// The placements of tuple index t.
std::vector<Placement> Decode(int64_t t, const std::vector<std::vector<Placement>>& cands) {
  const std::vector<int> idx = DecodeIndices(t, cands);
  std::vector<Placement> out;
  out.reserve(idx.size());
  for (size_t i = 0; i < idx.size(); ++i) out.push_back(cands[i][idx[i]]);
  return out;
}

// One input's per-rank locals under one placement, in the input's layout,
// with the largest |part| of a Partial placement (0 otherwise).
struct Locals {
  Tensors ranks;
  double scale = 0;
};

// The locals of input `i` (full tensor `full`, layout `layout`) under
// placement `p`, drawn with a seed that depends on the case, the input, the
// placement and the redraw, never on the rest of the tuple, so that every
// tuple of one case sees the same parts and they can be built once
// (LocalsCache) or per tuple (the reference path) with identical results.
Locals MakeLocals(const at::Tensor& full, const Placement& p, Layout layout, int w,
                  uint64_t case_seed, size_t i, int candidate, int redraw) {
  Locals out;
  if (p.is_replicate()) {
    // Distribute's W copies are not needed: nobody writes these locals
    // (RunTuple copies them for an overload that writes its inputs), and
    // `full` is already in the input's layout.
    out.ranks.assign(w, full);
    return out;
  }
  const uint64_t seed = MixSeed({case_seed, static_cast<uint64_t>(candidate),
                                 static_cast<uint64_t>(redraw), i});
  out.ranks = Distribute(full, p, w, seed, &out.scale);
  for (at::Tensor& t : out.ranks) t = WithLayout(t, layout);
  return out;
}

// Locals built once per case and shared by the tuples that use them. Keyed
// by (input, candidate index, redraw, negated). Sharing is safe because the
// operator does not write its inputs; callers copy them for one that does.
class LocalsCache {
 public:
  const Locals& Get(const at::Tensor& full, const Placement& p, Layout layout, int w,
                    uint64_t case_seed, size_t i, int candidate, int redraw, bool negated) {
    auto key = std::make_tuple(i, candidate, redraw, negated);
    auto it = cache_.find(key);
    if (it == cache_.end()) {
      it = cache_.emplace(key, MakeLocals(full, p, layout, w, case_seed, i, candidate, redraw))
               .first;
    }
    return it->second;
  }

 private:
  absl::flat_hash_map<std::tuple<size_t, int, int, bool>, Locals> cache_;
};

int64_t Product(const std::vector<std::vector<Placement>>& cands) {
  int64_t n = 1;
  for (const auto& c : cands) n *= static_cast<int64_t>(c.size());
  return n;
}

// True if every generator of `recipe` draws indices (recipe.proto
// IndexGen): the input is an index tensor.
bool IndexOnly(const Recipe& recipe) {
  for (const Generator& g : recipe.generator()) {
    if (g.kind_case() != Generator::kIndex) return false;
  }
  return recipe.generator_size() > 0;
}

bool IsExtreme(const Placement& p) {
  return p.is_partial() && (p.reduce_op() == ReduceOp::kMax || p.reduce_op() == ReduceOp::kMin);
}

// Ground truth of one sample: which (input tuple, output, placement)
// combinations some case refuted, and how many informative cases each input
// tuple had.
class SampleTruth {
 public:
  SampleTruth(std::vector<std::vector<Placement>> in, std::vector<std::vector<Placement>> out)
      : in_(std::move(in)), out_(std::move(out)), tuples_(Product(in_)) {
    for (const auto& c : out_) width_ = std::max(width_, c.size());
    failure_.assign(static_cast<size_t>(tuples_) * out_.size() * width_, -1);
    informative_.assign(tuples_, 0);
  }
  const std::vector<std::vector<Placement>>& in() const { return in_; }
  const std::vector<std::vector<Placement>>& out() const { return out_; }
  int64_t tuples() const { return tuples_; }
  int64_t out_tuples() const { return Product(out_); }

  int& failure(int64_t t, size_t k, size_t c) {
    return failure_[(static_cast<size_t>(t) * out_.size() + k) * width_ + c];
  }
  int failure(int64_t t, size_t k, size_t c) const {
    return failure_[(static_cast<size_t>(t) * out_.size() + k) * width_ + c];
  }
  // True once some output has no surviving placement: no rule with this
  // input tuple can hold, so later cases need not run it.
  bool Dead(int64_t t) const {
    for (size_t k = 0; k < out_.size(); ++k) {
      bool all = true;
      for (size_t c = 0; c < out_[k].size(); ++c) all = all && failure(t, k, c) >= 0;
      if (all) return true;
    }
    return false;
  }
  void Fail(int64_t t, size_t k, size_t c, Evidence e) {
    int& slot = failure(t, k, c);
    if (slot >= 0) return;
    slot = static_cast<int>(evidence_.size());
    evidence_.push_back(std::move(e));
  }
  void FailAll(int64_t t, const Evidence& e) {
    for (size_t k = 0; k < out_.size(); ++k) {
      for (size_t c = 0; c < out_[k].size(); ++c) Fail(t, k, c, e);
    }
  }
  int& informative(int64_t t) { return informative_[t]; }
  int informative(int64_t t) const { return informative_[t]; }
  const Evidence& evidence(int id) const { return evidence_[id]; }

 private:
  std::vector<std::vector<Placement>> in_, out_;
  int64_t tuples_;
  size_t width_ = 1;
  std::vector<int> failure_;
  std::vector<int> informative_;
  std::vector<Evidence> evidence_;
};

// Per-rule verdict material gathered over samples.
struct RuleState {
  std::string claimed_invalid;    // evidence, first refuting sample
  std::string claimed_valid;      // first sample claimed and valid
  std::string unclaimed_valid;    // first sample valid but not claimed
  std::string claimed_uninformative;
};

// Counts the c10 warnings raised while installed and keeps the first.
class WarningCollector : public c10::WarningHandler {
 public:
  explicit WarningCollector(OpReport& report) : report_(report) {}
  void process(const c10::SourceLocation& source_location, const std::string& msg,
               const bool verbatim) override {
    if (report_.warning_count++ == 0) report_.first_warning = msg;
  }

 private:
  OpReport& report_;
};

class OpValidator {
 public:
  OpValidator(const LoadedSpec& spec, const ClaimSource& claimed, int num_origins,
              const ValidateOptions& options)
      : spec_(spec), claimed_(claimed), options_(options), origin_states_(num_origins) {}

  absl::StatusOr<OpReport> Run() {
    const auto start = std::chrono::steady_clock::now();
    report_.op = OverloadToString(spec_.op());
    // The operator's TORCH_WARN messages go to the report (the handler is
    // per thread in c10, so parallel validations keep theirs apart).
    WarningCollector warnings(report_);
    c10::Warning::WarningHandlerGuard guard(&warnings);
    report_.spec_path = spec_.path();
    report_.world_size = options_.world_size;
    for (int s = 0; s < spec_.proto().sample_size(); ++s) {
      const std::string& name = spec_.proto().sample(s).name();
      if (!options_.samples.empty() &&
          std::find(options_.samples.begin(), options_.samples.end(), name) ==
              options_.samples.end()) {
        continue;
      }
      absl::Status st = RunSample(s);
      if (!st.ok()) return st;
      if (!report_.error.empty()) break;
    }
    if (options_.samples.empty() && report_.error.empty()) {
      report_.error = RejectsEverySample(report_);
    }
    Finish();
    report_.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return std::move(report_);
  }

 private:
  absl::Status RunSample(int s) {
    absl::StatusOr<std::vector<BoundSample>> bound = BoundSample::BindAll(spec_, s);
    if (!bound.ok()) return bound.status();
    for (const BoundSample& sample : *bound) {
      if (absl::Status st = RunExpansion(s, sample); !st.ok()) return st;
      if (!report_.error.empty()) break;
    }
    return absl::OkStatus();
  }

  absl::Status RunExpansion(int s, const BoundSample& sample) {
    report_.samples.push_back({sample.name(), sample.Describe()});
    auto bad = [&](absl::string_view what) {
      return FieldError(spec_.WhereSample(s),
                        absl::StrCat("sample[", s, "] (sample '", sample.name(), "')"), what);
    };

    // Generators per input; a case uses generator g % n of each input's recipe.
    std::vector<const Recipe*> recipes;
    size_t cases = 1;
    for (const InputSpec& in : sample.inputs()) {
      absl::StatusOr<const Recipe*> r = spec_.recipes().Find(in.recipe);
      if (!r.ok()) return bad(absl::StrCat("input '", in.label, "': ", r.status().message()));
      cases = std::max<size_t>(cases, (*r)->generator_size());
      recipes.push_back(*r);
      if (std::find(report_.recipes.begin(), report_.recipes.end(), in.recipe) ==
          report_.recipes.end()) {
        report_.recipes.push_back(in.recipe);
      }
    }
    const GenContext context = sample.MakeGenContext();

    std::vector<std::vector<Placement>> in_cands;
    for (size_t i = 0; i < sample.inputs().size(); ++i) {
      const InputSpec& in = sample.inputs()[i];
      std::vector<Placement> cands =
          CandidatePlacements(static_cast<int64_t>(in.shape.size()), in.dtype);
      // Index tensors take no Partial placement, as bool tensors take none:
      // a part of an index is not an index, and some kernels (e.g.
      // embedding_dense_backward with scale_grad_by_freq) write out of
      // bounds on one instead of raising.
      if (IndexOnly(*recipes[i])) {
        cands.erase(std::remove_if(cands.begin(), cands.end(),
                                   [](const Placement& p) { return p.is_partial(); }),
                    cands.end());
      }
      in_cands.push_back(std::move(cands));
    }
    std::unique_ptr<SampleTruth> truth;
    Tensors first_outputs;
    const int w = options_.world_size;

    for (size_t g = 0; g < cases; ++g) {
      const uint64_t case_seed = MixSeed({options_.seed, static_cast<uint64_t>(s), g});
      Tensors full;
      std::vector<std::string> names;
      for (size_t i = 0; i < sample.inputs().size(); ++i) {
        const InputSpec& in = sample.inputs()[i];
        const Generator& gen = recipes[i]->generator(static_cast<int>(g % recipes[i]->generator_size()));
        names.push_back(gen.name());
        absl::StatusOr<at::Tensor> t =
            Generate(gen, in.shape, in.dtype, static_cast<int>(i), case_seed, context);
        if (!t.ok()) {
          return bad(absl::StrCat("input '", in.label, "', recipe '", in.recipe, "', generator '",
                                  gen.name(), "': ", t.status().message()));
        }
        full.push_back(WithLayout(*t, in.layout));
      }
      std::string label = names.empty() ? "none" : names.front();
      if (std::any_of(names.begin(), names.end(), [&](const auto& n) { return n != names[0]; })) {
        label = absl::StrJoin(names, "/");
      }
      absl::StatusOr<Tensors> expected = sample.Call(CallInputs(full, sample));
      if (!expected.ok() && spec_.is_variant()) {
        // The variant's real behaviour differs from its functional overload's
        // (e.g. an int self cannot take a float result in place): a finding
        // about this overload on this sample, not a bad spec.
        report_.notes.push_back(absl::StrCat("sample ", sample.name(), ": ", report_.op,
                                             " rejects the full inputs (generator ", label,
                                             "): ", expected.status().message()));
        return absl::OkStatus();
      }
      if (!expected.ok()) {
        return bad(absl::StrCat("the operator rejects the full inputs (generator ", label,
                                "): ", expected.status().message()));
      }
      if (!truth) {
        std::vector<std::vector<Placement>> out_cands;
        for (const at::Tensor& t : *expected) {
          out_cands.push_back(CandidatePlacements(t.dim(), t.scalar_type()));
        }
        truth = std::make_unique<SampleTruth>(in_cands, std::move(out_cands));
        first_outputs = *expected;
      } else if (expected->size() != truth->out().size()) {
        return bad("the number of outputs differs between generators");
      }
      const bool informative = Informative(*expected);
      // Full outputs for negated inputs, by mask of negated inputs.
      std::map<std::vector<bool>, absl::StatusOr<Tensors>> negated;

      LocalsCache cache;
      for (int64_t t = 0; t < truth->tuples(); ++t) {
        if (truth->Dead(t)) continue;
        RunTuple(sample, *truth, t, full, *expected, label, case_seed, negated, cache, w);
        report_.combination_checks += truth->out_tuples();
        if (informative) ++truth->informative(t);
      }
    }
    if (!truth) return bad("the sample produced no case");
    return Judge(sample, *truth, first_outputs);
  }

  void RunTuple(const BoundSample& sample, SampleTruth& truth, int64_t t, const Tensors& full,
                const Tensors& expected, const std::string& label, uint64_t case_seed,
                std::map<std::vector<bool>, absl::StatusOr<Tensors>>& negated, LocalsCache& cache,
                int w) {
    const std::vector<int> idx = DecodeIndices(t, truth.in());
    std::vector<Placement> placements;
    for (size_t i = 0; i < idx.size(); ++i) placements.push_back(truth.in()[i][idx[i]]);
    const bool partial = std::any_of(placements.begin(), placements.end(),
                                     [](const Placement& p) { return p.is_partial(); });
    std::vector<bool> mask(placements.size(), false);
    bool any_negated = false;
    for (size_t i = 0; i < placements.size(); ++i) {
      const c10::ScalarType dt = full[i].scalar_type();
      mask[i] = IsExtreme(placements[i]) && dt != at::kBool && dt != at::kByte;
      any_negated = any_negated || mask[i];
    }
    const int redraws = partial ? options_.partial_redraws : 1;
    const int variants = redraws + (any_negated ? 1 : 0);
    for (int v = 0; v < variants; ++v) {
      const bool neg = v >= redraws;
      std::string variant = partial ? absl::StrCat("redraw ", neg ? 0 : v) : "";
      const Tensors* inputs = &full;
      const Tensors* want = &expected;
      Tensors negated_inputs;
      if (neg) {
        variant = absl::StrCat("negated inputs, ", variant);
        for (size_t i = 0; i < full.size(); ++i) {
          negated_inputs.push_back(
              mask[i] ? WithLayout(at::neg(full[i]), sample.inputs()[i].layout) : full[i]);
        }
        auto it = negated.find(mask);
        if (it == negated.end()) {
          it = negated.emplace(mask, sample.Call(CallInputs(negated_inputs, sample))).first;
        }
        // An operator that rejects negated values (e.g. index inputs) has no
        // Partial rule on them to test this way.
        if (!it->second.ok()) continue;
        inputs = &negated_inputs;
        want = &*it->second;
      }
      // locals[r][i]: rank r's local for input i.
      std::vector<Tensors> locals(w, Tensors(placements.size()));
      double input_scale = 0;
      for (size_t i = 0; i < placements.size(); ++i) {
        const Layout layout = sample.inputs()[i].layout;
        // Only Partial parts are drawn: R and S locals are the same in every
        // redraw.
        const int redraw = neg || !placements[i].is_partial() ? 0 : v;
        Locals fresh;
        const Locals* in = &fresh;
        if (options_.reference_paths) {
          fresh = MakeLocals((*inputs)[i], placements[i], layout, w, case_seed, i, idx[i], redraw);
        } else {
          in = &cache.Get((*inputs)[i], placements[i], layout, w, case_seed, i, idx[i], redraw,
                          neg && mask[i]);
        }
        input_scale = std::max(input_scale, in->scale);
        for (int r = 0; r < w; ++r) {
          const at::Tensor& x = in->ranks[r];
          // An overload that writes its inputs gets private copies: cached
          // locals stay intact for the next tuple, and Partial rows share a
          // buffer (distribute.h).
          locals[r][i] = !sample.mutates()     ? x
                         : layout == CONTIGUOUS ? x.clone(at::MemoryFormat::Contiguous)
                                                : WithLayout(x, layout);
        }
      }
      if (sample.has_local_shape()) {
        RunLocalShapeCalls(sample, truth, t, locals, (*want)[0], label, variant, input_scale, w);
        continue;
      }
      std::vector<Tensors> outs(truth.out().size(), Tensors(w));
      for (int r = 0; r < w; ++r) {
        if (options_.recorder != nullptr) {
          options_.recorder->Record(sample.handle(), sample.Stack(locals[r]));
        }
        absl::StatusOr<Tensors> got = sample.Call(locals[r]);
        std::string error;
        if (!got.ok()) {
          error = std::string(got.status().message());
        } else if (got->size() != truth.out().size()) {
          error = absl::StrCat("returned ", got->size(), " outputs instead of ",
                               truth.out().size());
        } else {
          error = NotWrittenInPlace(*got, locals[r], sample.output_aliases());
        }
        if (!error.empty()) {
          truth.FailAll(t, {label, variant, -1, r, 0, std::move(error), true});
          return;
        }
        for (size_t k = 0; k < got->size(); ++k) outs[k][r] = (*got)[k];
      }
      for (size_t k = 0; k < truth.out().size(); ++k) {
        const Tolerance tk = spec_.proto().has_tolerance()
                                 ? Tolerance{spec_.proto().tolerance().rtol(),
                                             spec_.proto().tolerance().atol()}
                                 : DefaultTolerance((*want)[k].scalar_type());
        for (size_t c = 0; c < truth.out()[k].size(); ++c) {
          if (truth.failure(t, k, c) >= 0) continue;
          const OutputCheck check =
              CheckOutput((*want)[k], outs[k], truth.out()[k][c], tk, input_scale,
                          options_.reference_paths);
          if (!check.ok) {
            truth.Fail(t, k, c,
                       {label, variant, static_cast<int>(k), check.rank, check.max_abs_diff,
                        check.detail, false});
          }
        }
      }
    }
  }

  // For an overload with a local_shape_arg (spec.proto): the call depends on
  // the output placement, so each candidate placement of the one output gets
  // its own W calls, each rank with the shape of its part of `want`.
  void RunLocalShapeCalls(const BoundSample& sample, SampleTruth& truth, int64_t t,
                          const std::vector<Tensors>& locals, const at::Tensor& want,
                          const std::string& label, const std::string& variant,
                          double input_scale, int w) {
    const Tolerance tol = spec_.proto().has_tolerance()
                              ? Tolerance{spec_.proto().tolerance().rtol(),
                                          spec_.proto().tolerance().atol()}
                              : DefaultTolerance(want.scalar_type());
    for (size_t c = 0; c < truth.out()[0].size(); ++c) {
      if (truth.failure(t, 0, c) >= 0) continue;
      const Placement& p = truth.out()[0][c];
      Tensors outs(w);
      bool failed = false;
      for (int r = 0; r < w && !failed; ++r) {
        std::vector<int64_t> shape = want.sizes().vec();
        if (p.is_shard()) shape[p.dim()] = ChunkOf(shape[p.dim()], w, r).length();
        if (options_.recorder != nullptr) {
          options_.recorder->Record(sample.handle(), sample.Stack(locals[r], &shape));
        }
        absl::StatusOr<Tensors> got = sample.Call(locals[r], shape);
        if (!got.ok() || got->size() != 1) {
          const std::string error = got.ok() ? absl::StrCat("returned ", got->size(), " outputs")
                                             : std::string(got.status().message());
          truth.Fail(t, 0, c, {label, variant, -1, r, 0, error, true});
          failed = true;
          break;
        }
        outs[r] = (*got)[0];
      }
      if (failed) continue;
      const OutputCheck check =
          CheckOutput(want, outs, p, tol, input_scale, options_.reference_paths);
      if (!check.ok) {
        truth.Fail(t, 0, c, {label, variant, 0, check.rank, check.max_abs_diff, check.detail, false});
      }
    }
  }

  absl::Status Judge(const BoundSample& sample, const SampleTruth& truth, const Tensors& outputs) {
    const OpArgs args = sample.MakeOpArgs(outputs);
    absl::StatusOr<std::vector<ClaimedRule>> claimed = claimed_(args, options_.world_size);
    if (!claimed.ok()) {
      report_.error = absl::StrCat("sample ", sample.name(), ": ", claimed.status().message());
      return absl::OkStatus();
    }
    // Claimed rule -> (judged yet, origins).
    absl::flat_hash_map<Rule, std::pair<bool, std::vector<int>>> claimed_set;
    for (const ClaimedRule& c : *claimed) {
      std::vector<int>& origins = claimed_set[c.rule].second;
      origins.insert(origins.end(), c.origins.begin(), c.origins.end());
    }
    // Records an outcome of claimed `rule` for each of its origins.
    auto judge_origins = [&](const Rule& rule, const std::vector<int>& origins,
                             const std::string* invalid, bool valid) {
      for (int o : origins) {
        if (o < 0 || o >= static_cast<int>(origin_states_.size())) continue;
        RuleState& st = origin_states_[o];
        if (invalid != nullptr && st.claimed_invalid.empty()) {
          st.claimed_invalid = absl::StrCat("instance '", RuleToString(rule), "': ", *invalid);
        } else if (invalid == nullptr && valid && st.claimed_valid.empty()) {
          st.claimed_valid = absl::StrCat(sample.name(), " (instance '", RuleToString(rule), "')");
        } else if (invalid == nullptr && !valid && st.claimed_uninformative.empty()) {
          st.claimed_uninformative = absl::StrCat("sample ", sample.name(), ", instance '",
                                                  RuleToString(rule),
                                                  "': every case was uninformative");
        }
      }
    };

    SampleRules kept{sample.name(), args, {}, {}};
    const int64_t out_tuples = truth.out_tuples();
    for (int64_t t = 0; t < truth.tuples(); ++t) {
      const std::vector<Placement> in = Decode(t, truth.in());
      for (int64_t o = 0; o < out_tuples; ++o) {
        Rule rule{in, Decode(o, truth.out())};
        auto claim = claimed_set.find(rule);
        const bool is_claimed = claim != claimed_set.end();
        if (is_claimed) claim->second.first = true;
        // The first output whose placement some case refuted.
        int fail = -1;
        int64_t rest = o;
        for (int64_t k = static_cast<int64_t>(truth.out().size()) - 1; k >= 0 && fail < 0; --k) {
          const int64_t n = static_cast<int64_t>(truth.out()[k].size());
          const int id = truth.failure(t, k, rest % n);
          rest /= n;
          if (id >= 0) fail = id;
        }
        const bool valid = fail < 0 && truth.informative(t) > 0;
        const std::string moved = InPlaceChange(rule, sample.output_aliases());
        if (options_.keep_truth && fail < 0 && moved.empty()) {
          kept.holds.push_back(rule);
          if (valid && !IsDegenerate(rule) && !IsAllReplicate(rule)) kept.valid.push_back(rule);
        }
        if (!is_claimed) {
          if (valid && moved.empty() && !IsDegenerate(rule) && !IsAllReplicate(rule)) {
            RuleState& st = states_[rule];
            if (st.unclaimed_valid.empty()) {
              st.unclaimed_valid = absl::StrCat("holds on sample ", sample.name(), " (",
                                                sample.Describe(), ") but is not claimed there");
            }
          }
          continue;
        }
        RuleState& st = states_[rule];
        if (!moved.empty()) {
          const std::string why = absl::StrCat("sample ", sample.name(), ": ", moved);
          if (st.claimed_invalid.empty()) st.claimed_invalid = why;
          judge_origins(rule, claim->second.second, &why, false);
        }
        if (fail >= 0) {
          const std::string why = EvidenceText(sample.name(), truth.evidence(fail));
          if (st.claimed_invalid.empty()) st.claimed_invalid = why;
          judge_origins(rule, claim->second.second, &why, false);
          continue;
        }
        if (moved.empty()) judge_origins(rule, claim->second.second, nullptr, valid);
        if (valid) {
          if (st.claimed_valid.empty()) st.claimed_valid = sample.name();
        } else if (st.claimed_uninformative.empty()) {
          st.claimed_uninformative = absl::StrCat(
              "sample ", sample.name(), ": every case was uninformative (all-zero or all-NaN "
              "full output)");
        }
      }
    }
    if (options_.keep_truth) report_.truths.push_back(std::move(kept));
    // Claimed rules outside the enumeration: placements that never apply.
    for (const auto& [rule, claim] : claimed_set) {
      if (claim.first) continue;
      const std::string why = absl::StrCat("sample ", sample.name(), ": ", Inapplicable(rule, args));
      RuleState& st = states_[rule];
      if (st.claimed_invalid.empty()) st.claimed_invalid = why;
      judge_origins(rule, claim.second, &why, false);
    }
    return absl::OkStatus();
  }

  // Why a rank's call did not write in place what its schema says it
  // writes (`Tensor(a!) self -> Tensor(a!)`: the output must be the rank's
  // own self, so that checking the output checks self), or "".
  static std::string NotWrittenInPlace(const Tensors& outputs, const Tensors& inputs,
                                       const std::vector<int>& aliases) {
    for (size_t k = 0; k < aliases.size() && k < outputs.size(); ++k) {
      const int i = aliases[k];
      if (i >= 0 && static_cast<size_t>(i) < inputs.size() && !outputs[k].is_same(inputs[i])) {
        return absl::StrCat("output ", k, " is not input ", i,
                            " written in place: the overload returned another tensor");
      }
    }
    return "";
  }

  // Why `rule` changes the placement of an input written in place, or "".
  static std::string InPlaceChange(const Rule& rule, const std::vector<int>& aliases) {
    for (size_t k = 0; k < aliases.size() && k < rule.outputs.size(); ++k) {
      const int i = aliases[k];
      if (i >= 0 && rule.outputs[k] != rule.inputs[i]) {
        return absl::StrCat("output ", k, " is input ", i, " written in place, so its placement ",
                            rule.inputs[i].ToString(), " cannot become ",
                            rule.outputs[k].ToString());
      }
    }
    return "";
  }

  static std::string Inapplicable(const Rule& rule, const OpArgs& args) {
    for (auto [side, metas, name] : {std::tuple(&rule.inputs, &args.inputs(), "input"),
                                     std::tuple(&rule.outputs, &args.outputs(), "output")}) {
      for (size_t i = 0; i < side->size() && i < metas->size(); ++i) {
        const TensorMeta& m = (*metas)[i];
        if (!PlacementApplies((*side)[i], m.ndim(), m.dtype)) {
          return absl::StrCat((*side)[i].ToString(), " never applies to ", name, " ", i, " (",
                              TensorMetaToString(m), ")");
        }
      }
    }
    return "the rule's placements do not apply to this sample";
  }

  void Finish() {
    for (auto& [rule, st] : states_) {
      RuleVerdict v{rule, Verdict::kUnverified, st.claimed_uninformative};
      if (!st.claimed_invalid.empty()) {
        v = {rule, Verdict::kIncorrect, st.claimed_invalid};
      } else if (!st.unclaimed_valid.empty()) {
        v = {rule, Verdict::kMissing, st.unclaimed_valid};
      } else if (!st.claimed_valid.empty()) {
        v = {rule, Verdict::kCorrect, absl::StrCat("holds on sample ", st.claimed_valid)};
      }
      report_.rules.push_back(std::move(v));
    }
    std::sort(report_.rules.begin(), report_.rules.end(),
              [](const RuleVerdict& a, const RuleVerdict& b) {
                return std::tie(a.verdict, a.rule) < std::tie(b.verdict, b.rule);
              });
    for (const RuleState& st : origin_states_) {
      OpReport::OriginVerdict v{Verdict::kUnverified,
                                st.claimed_uninformative.empty()
                                    ? "applies to no case of any sample"
                                    : st.claimed_uninformative};
      if (!st.claimed_invalid.empty()) {
        v = {Verdict::kIncorrect, st.claimed_invalid};
      } else if (!st.claimed_valid.empty()) {
        v = {Verdict::kCorrect, absl::StrCat("holds on sample ", st.claimed_valid)};
      }
      report_.origins.push_back(std::move(v));
    }
  }

  const LoadedSpec& spec_;
  const ClaimSource& claimed_;
  const ValidateOptions& options_;
  OpReport report_;
  std::map<Rule, RuleState> states_;
  std::vector<RuleState> origin_states_;
};

}  // namespace

absl::StatusOr<OpReport> ValidateOp(const LoadedSpec& spec, const RuleSource& claimed,
                                    const ValidateOptions& options) {
  ClaimSource claims = [&](const OpArgs& args, int) -> absl::StatusOr<std::vector<ClaimedRule>> {
    absl::StatusOr<std::vector<Rule>> rules = claimed(args);
    if (!rules.ok()) return rules.status();
    std::vector<ClaimedRule> out;
    for (Rule& r : *rules) out.push_back({std::move(r), {}});
    return out;
  };
  return ValidateClaims(spec, claims, 0, options);
}

absl::StatusOr<OpReport> ValidateClaims(const LoadedSpec& spec, const ClaimSource& claimed,
                                        int num_origins, const ValidateOptions& options) {
  static std::once_flag no_backtraces;
  std::call_once(no_backtraces, [] { c10::SetStackTraceFetcher([] { return std::string(); }); });
  if (absl::StatusOr<Mesh> mesh = Mesh::Create(options.world_size); !mesh.ok()) {
    return mesh.status();
  }
  if (options.partial_redraws < 1) {
    return absl::InvalidArgumentError("partial_redraws must be at least 1");
  }
  return OpValidator(spec, claimed, num_origins, options).Run();
}

}  // namespace shrt
