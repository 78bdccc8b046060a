#include "shrt/engine/ground_truth.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <optional>

#include "ATen/core/ivalue.h"  // the recorded stacks (sample.h Stack)
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "c10/util/Logging.h"
#include "shrt/engine/compare.h"
#include "shrt/engine/distribute.h"
#include "shrt/engine/full_case.h"
#include "shrt/engine/isolation.h"
#include "shrt/engine/list_elements.h"
#include "shrt/engine/output_check.h"
#include "shrt/engine/rank_locals.h"
#include "shrt/engine/sample.h"
#include "shrt/ops/candidates.h"
#include "shrt/ops/overload_name.h"
#include "shrt/spec/generators.h"
#include "shrt/spec/recipes.h"
#include "shrt/spec/rng.h"
#include "shrt/vocab/limits.h"
#include "shrt/vocab/mesh.h"
#include "shrt/vocab/text_proto.h"

namespace shrt {

// Runs the cases of one bound sample into a SampleTruth.
class TruthBuilder {
 public:
  TruthBuilder(const LoadedSpec& spec, int s, const BoundSample& sample,
               const TruthOptions& options)
      : spec_(spec), sample_(sample), options_(options), w_(options.world_size),
        cases_(spec, s, sample, options) {
    if (auto it = options.named_placements.find(sample.name());
        it != options.named_placements.end()) {
      named_ = &it->second;
    }
  }

  // `not_split`: ElementSplit::not_split, kept by the truth.
  absl::StatusOr<SampleTruth> Run(const std::string& not_split = "") {
    if (absl::Status st = cases_.Init(); !st.ok()) return st;
    std::vector<std::vector<Placement>> in_cands;
    for (size_t i = 0; i < sample_.inputs().size(); ++i) {
      const InputSpec& in = sample_.inputs()[i];
      in_cands.push_back(InputCandidates(static_cast<int64_t>(in.shape.size()), in.dtype,
                                         cases_.index_inputs()[i]));
      AddNamed(named_ ? &named_->inputs : nullptr, i, static_cast<int64_t>(in.shape.size()),
               in.dtype, in_cands.back());
    }
    std::vector<bool> informative_generators(cases_.cases(), false);
    for (size_t g = 0; g < cases_.cases(); ++g) {
      if (cases_.Repeats(g)) continue;
      absl::StatusOr<FullCase> made = cases_.Make(g);
      if (!made.ok()) return made.status();
      FullCase& full = *made;
      if (full.special_inputs && !spec_.proto().special_values_undefined().empty()) continue;
      if (!full.call.ok() && IsCrash(full.call.status())) continue;
      // Special values outside the operator's domain (an inf value for
      // masked_fill of an int64 self): no case, and no fault of the spec.
      if (!full.call.ok() && full.special_inputs) continue;
      if (!full.call.ok() && spec_.is_variant()) {
        // The variant's real behaviour differs from its functional overload's
        // (e.g. an int self cannot take a float result in place): a finding
        // about this overload on this sample, not a bad spec.
        SampleTruth rejected(TupleSpace(in_cands), {});
        Describe(rejected, Tensors());
        rejected.rejection_ =
            absl::StrCat("sample ", sample_.name(), ": ", OverloadToString(spec_.op()),
                         " rejects the full inputs (generator ", full.generator,
                         "): ", full.call.status().message());
        return rejected;
      }
      if (!full.call.ok()) {
        return cases_.Bad(absl::StrCat("the operator rejects the full inputs (generator ",
                                       full.generator, "): ", full.call.status().message()));
      }
      full.outputs = *full.call;
      if (!truth_.has_value()) {
        std::vector<std::vector<Placement>> out_cands;
        std::vector<size_t> counts;
        for (const at::Tensor& t : full.outputs) {
          out_cands.push_back(CandidatePlacements(t.dim(), t.scalar_type()));
          AddNamed(named_ ? &named_->outputs : nullptr, out_cands.size() - 1, t.dim(),
                   t.scalar_type(), out_cands.back());
          counts.push_back(out_cands.back().size());
          cases_.PickPrecision(t.scalar_type());
        }
        if (PlacementTuples(counts) > kMaxPlacementTuples) {
          // Only a call can tell (split into many chunks): a limit on the
          // enumeration, as BoundSample::Bind has for the inputs.
          return cases_.Bad(absl::StrCat("its ", full.outputs.size(),
                                         " outputs have more than ", kMaxPlacementTuples,
                                         " tuples of candidate placements, the most a sample "
                                         "may have (shrt/vocab/limits.h)"));
        }
        truth_.emplace(SampleTruth(TupleSpace(in_cands), std::move(out_cands)));
        Describe(*truth_, full.outputs);
      } else if (full.outputs.size() != truth_->out_.size()) {
        return cases_.Bad("the number of outputs differs between generators");
      }
      // A case of special values only refutes (full_case.h Informative).
      const bool informative = !full.special_inputs && Informative(full.outputs);
      informative_generators[g] = informative;
      LocalsCache cache;
      for (int64_t t = 0; t < truth_->in_.size(); ++t) {
        if (truth_->Dead(t)) continue;
        RunTuple(t, full, cache);
        truth_->combination_checks_ += truth_->out_tuples_.size();
        if (informative) ++truth_->informative_[t];
      }
    }
    if (!truth_.has_value() && cases_.crashed()) {
      SampleTruth crashed(TupleSpace(in_cands), {});
      Describe(crashed, Tensors());
      crashed.rejection_ = absl::StrCat("sample ", sample_.name(), ": every call of ",
                                        OverloadToString(spec_.op()),
                                        " on the full inputs crashed (see its crashes)");
      crashed.crashes_ = cases_.TakeCrashes();
      return crashed;
    }
    if (!truth_.has_value()) return cases_.Bad("the sample produced no case");
    truth_->crashes_ = cases_.TakeCrashes();
    truth_->informative_generators_ = std::move(informative_generators);
    truth_->not_split_ = not_split;
    return *std::move(truth_);
  }

  // The truth of `sample` judged per list element (list_elements.h): each
  // element's cases run alone, the whole sample's rules answered from
  // theirs (SampleTruth::TestElements).
  static absl::StatusOr<SampleTruth> Compose(const LoadedSpec& spec, int s,
                                             const BoundSample& sample, const ElementSplit& split,
                                             const TruthOptions& options) {
    SampleTruth truth(TupleSpace({}), {});
    std::vector<std::vector<Placement>> in(sample.inputs().size());
    std::vector<std::vector<Placement>> out(split.whole_outputs.size());
    for (size_t e = 0; e < split.elements.size(); ++e) {
      absl::StatusOr<SampleTruth> part =
          TruthBuilder(spec, s, *split.elements[e].sample, ElementOptions(options, sample, split, e))
              .Run();
      if (!part.ok()) return part.status();
      const std::vector<int>& inputs = split.elements[e].inputs;
      for (size_t j = 0; j < inputs.size(); ++j) in[inputs[j]] = part->in_.candidates()[j];
      for (size_t j = 0; j < split.outputs[e].size() && j < part->out_.size(); ++j) {
        out[split.outputs[e][j]] = part->out_[j];
      }
      truth.combination_checks_ += part->combination_checks_;
      truth.crashes_.insert(truth.crashes_.end(), part->crashes_.begin(), part->crashes_.end());
      if (truth.rejection_.empty()) truth.rejection_ = part->rejection_;
      truth.element_inputs_.push_back(inputs);
      truth.element_outputs_.push_back(split.outputs[e]);
      truth.elements_.push_back(*std::move(part));
    }
    truth.in_ = TupleSpace(in);
    truth.out_ = out;
    truth.out_tuples_ = TupleSpace(std::move(out));
    truth.name_ = sample.name();
    truth.description_ = sample.Describe();
    truth.args_ = sample.MakeOpArgs(split.whole_outputs);
    truth.output_aliases_ = sample.output_aliases();
    for (const InputSpec& i : sample.inputs()) truth.input_labels_.push_back(i.label);
    return truth;
  }

 private:
  // Appends to `cands` the named-only placements `named[i]` that can be
  // built for the tensor and are not there yet (TruthOptions).
  static void AddNamed(const std::vector<std::vector<Placement>>* named, size_t i, int64_t ndim,
                       c10::ScalarType dtype, std::vector<Placement>& cands) {
    if (named == nullptr || i >= named->size()) return;
    for (const Placement& p : (*named)[i]) {
      if (p.is_named_only() && PlacementApplies(p, ndim, dtype) &&
          std::find(cands.begin(), cands.end(), p) == cands.end()) {
        cands.push_back(p);
      }
    }
  }

  void Describe(SampleTruth& truth, const Tensors& outputs) const {
    truth.name_ = sample_.name();
    truth.description_ = sample_.Describe();
    truth.args_ = sample_.MakeOpArgs(outputs);
    truth.output_aliases_ = sample_.output_aliases();
    for (const InputSpec& in : sample_.inputs()) truth.input_labels_.push_back(in.label);
  }

  void RunTuple(int64_t t, FullCase& full, LocalsCache& cache) {
    SampleTruth& truth = *truth_;
    const std::vector<int> idx = truth.in_.Indices(t);
    const std::vector<Placement> placements = truth.in_.Placements(t);
    for (const PartialVariant& run :
         PartialVariants(placements, cases_.input_dtypes(), cases_.input_numels(),
                         options_.partial_redraws)) {
      // A dead tuple holds no rule whatever its later runs find: its
      // remaining redraws and negations would be calls and checks for
      // nothing (most tuples with a Partial input die in their first run).
      if (truth.Dead(t)) return;
      const std::optional<CaseMaker::RunTensors> tensors = cases_.ForRun(full, run.negated);
      if (!tensors) continue;
      const Tensors* inputs = tensors->inputs;
      const Tensors* want = tensors->want;
      // locals[r][i]: rank r's local for input i.
      std::vector<Tensors> locals(w_, Tensors(placements.size()));
      double input_scale = 0, full_input_scale = 0;
      for (size_t i = 0; i < placements.size(); ++i) {
        if (placements[i].is_partial()) {
          full_input_scale = std::max(full_input_scale, full.scales[i]);
        }
        const Layout layout = sample_.inputs()[i].layout;
        const int seed_index = sample_.inputs()[i].seed_index;
        // Only Partial parts are drawn: R and S locals are the same in every
        // redraw.
        const int redraw = placements[i].is_partial() ? run.redraw : 0;
        Locals fresh;
        const Locals* in = &fresh;
        if (options_.reference_paths) {
          fresh = MakeLocals((*inputs)[i], placements[i], layout, w_, full.seed, seed_index, idx[i],
                             redraw);
        } else {
          in = &cache.Get((*inputs)[i], placements[i], layout, w_, full.seed, seed_index, idx[i], redraw,
                          run.negated[i]);
        }
        input_scale = std::max(input_scale, in->scale);
        for (int r = 0; r < w_; ++r) {
          const at::Tensor& x = in->ranks[r];
          // An overload that writes its inputs gets private copies: cached
          // locals stay intact for the next tuple, and Partial rows share a
          // buffer (distribute.h).
          locals[r][i] = sample_.mutates() ? PrivateWithLayout(x, layout) : x;
        }
      }
      const SampleTruth::Evidence where{full.generator, run.label};
      if (sample_.has_local_shape()) {
        RunLocalShapeCalls(t, full, run.negated, *inputs, *want, locals, where, input_scale,
                           full_input_scale);
        continue;
      }
      std::vector<Tensors> outs(truth.out_.size(), Tensors(w_));
      for (int r = 0; r < w_; ++r) {
        if (options_.recorder != nullptr) {
          options_.recorder->Record(sample_.handle(), sample_.Stack(locals[r]));
        }
        absl::StatusOr<Tensors> got = sample_.Call(locals[r]);
        std::string error;
        if (!got.ok()) {
          if (IsCrash(got.status())) {
            cases_.Crashed(got.status(), full.generator, run.label, PlacementsToString(placements),
                           absl::StrCat(r));
          }
          error = std::string(got.status().message());
        } else if (got->size() != truth.out_.size()) {
          error = absl::StrCat("returned ", got->size(), " outputs instead of ", truth.out_.size());
        } else {
          error = NotWrittenInPlace(*got, locals[r]);
        }
        if (!error.empty()) {
          SampleTruth::Evidence e = where;
          e.rank = r;
          e.detail = std::move(error);
          e.error = true;
          truth.FailAll(t, e);
          return;
        }
        for (size_t k = 0; k < got->size(); ++k) outs[k][r] = (*got)[k];
      }
      for (size_t k = 0; k < truth.out_.size() && !truth.Dead(t); ++k) {
        double magnitude = -1;
        for (size_t c = 0; c < truth.out_[k].size(); ++c) {
          if (truth.failure(t, k, c) >= 0) continue;
          const Placement& p = truth.out_[k][c];
          if (p.is_mask_partial()) {
            CheckMasked(t, k, c, full, run.negated, *inputs, *want, outs[k], placements, where,
                        input_scale, full_input_scale);
            continue;
          }
          const OutputCheck check = cases_.Check(full, run.negated, *inputs, *want, outs[k], k, p,
                                                 input_scale, full_input_scale, magnitude);
          if (!check.ok) truth.Fail(t, k, c, Refuted(where, k, check));
        }
      }
    }
  }

  // Output k's check under candidate c, a _MaskP(op, n) (placement.h): the
  // mask comes from the input the rule places the same way (DTensor shares
  // one MaskBuffer between them); each rank's output is masked with its
  // mask (distribute.h ApplyMask), then checked as P(op).
  void CheckMasked(int64_t t, size_t k, size_t c, FullCase& full, const std::vector<bool>& negated,
                   const Tensors& inputs, const Tensors& want, const Tensors& outs,
                   const std::vector<Placement>& placements, const SampleTruth::Evidence& where,
                   double input_scale, double full_input_scale) {
    SampleTruth& truth = *truth_;
    const Placement& p = truth.out_[k][c];
    const auto source = std::find(placements.begin(), placements.end(), p);
    if (source == placements.end()) {
      SampleTruth::Evidence e = where;
      e.output = static_cast<int>(k);
      e.detail = absl::StrCat("no input is ", p.ToString(), ", whose mask the output's needs");
      truth.Fail(t, k, c, std::move(e));
      return;
    }
    const at::Tensor& index = inputs[source - placements.begin()];
    Tensors masked(w_);
    for (int r = 0; r < w_; ++r) masked[r] = ApplyMask(outs[r], MaskOf(index, p, w_, r));
    double magnitude = -1;  // of the masked locals
    const OutputCheck check =
        cases_.Check(full, negated, inputs, want, masked, k, Placement::Partial(p.reduce_op()),
                     input_scale, full_input_scale, magnitude);
    if (!check.ok) truth.Fail(t, k, c, Refuted(where, k, check));
  }

  static SampleTruth::Evidence Refuted(const SampleTruth::Evidence& where, size_t k,
                                       const OutputCheck& check) {
    SampleTruth::Evidence e = where;
    e.output = static_cast<int>(k);
    e.rank = check.rank;
    e.max_abs_diff = check.max_abs_diff;
    e.detail = check.detail;
    return e;
  }

  // For an overload with a local_shape_arg (spec.proto): the call depends on
  // the output placement, so each candidate placement of the one output gets
  // its own W calls, each rank with the shape of its part of the output.
  void RunLocalShapeCalls(int64_t t, FullCase& full, const std::vector<bool>& mask,
                          const Tensors& inputs, const Tensors& want,
                          const std::vector<Tensors>& locals, const SampleTruth::Evidence& where,
                          double input_scale, double full_input_scale) {
    SampleTruth& truth = *truth_;
    for (size_t c = 0; c < truth.out_[0].size(); ++c) {
      if (truth.failure(t, 0, c) >= 0) continue;
      const Placement& p = truth.out_[0][c];
      Tensors outs(w_);
      bool failed = false;
      for (int r = 0; r < w_ && !failed; ++r) {
        std::vector<int64_t> shape = want[0].sizes().vec();
        if (p.is_shard()) shape[p.dim()] = ChunkOf(shape[p.dim()], w_, r).length();
        if (options_.recorder != nullptr) {
          options_.recorder->Record(sample_.handle(), sample_.Stack(locals[r], &shape));
        }
        absl::StatusOr<Tensors> got = sample_.Call(locals[r], shape);
        if (!got.ok() && IsCrash(got.status())) {
          cases_.Crashed(got.status(), full.generator, where.run,
                         PlacementsToString(truth.in_.Placements(t)), absl::StrCat(r));
        }
        if (!got.ok() || got->size() != 1) {
          SampleTruth::Evidence e = where;
          e.rank = r;
          e.detail = got.ok() ? absl::StrCat("returned ", got->size(), " outputs")
                              : std::string(got.status().message());
          e.error = true;
          truth.Fail(t, 0, c, std::move(e));
          failed = true;
          break;
        }
        outs[r] = (*got)[0];
      }
      if (failed) continue;
      double magnitude = -1;  // the locals differ per output placement here
      const OutputCheck check =
          cases_.Check(full, mask, inputs, want, outs, 0, p, input_scale, full_input_scale,
                       magnitude);
      if (!check.ok) truth.Fail(t, 0, c, Refuted(where, 0, check));
    }
  }

  // Why a rank's call did not write in place what its schema says it
  // writes (`Tensor(a!) self -> Tensor(a!)`: the output must be the rank's
  // own self, so that checking the output checks self), or "".
  std::string NotWrittenInPlace(const Tensors& outputs, const Tensors& inputs) const {
    const std::vector<int>& aliases = sample_.output_aliases();
    for (size_t k = 0; k < aliases.size() && k < outputs.size(); ++k) {
      const int i = aliases[k];
      if (i >= 0 && static_cast<size_t>(i) < inputs.size() && !outputs[k].is_same(inputs[i])) {
        return absl::StrCat("output ", k, " is not input ", i,
                            " written in place: the overload returned another tensor");
      }
    }
    return "";
  }

  const LoadedSpec& spec_;
  const BoundSample& sample_;
  const TruthOptions& options_;
  const int w_;
  CaseMaker cases_;
  const NamedPlacements* named_ = nullptr;
  std::optional<SampleTruth> truth_;
};

absl::StatusOr<SampleTruth> GroundTruth(const LoadedSpec& spec, int s, const BoundSample& sample,
                                        const TruthOptions& options) {
  DisableC10Backtraces();
  if (absl::StatusOr<Mesh> mesh = Mesh::Create(options.world_size); !mesh.ok()) {
    return mesh.status();
  }
  if (options.partial_redraws < 1) {
    return absl::InvalidArgumentError("partial_redraws must be at least 1");
  }
  absl::StatusOr<ElementSplit> split = SplitListElements(spec, s, sample, options);
  if (!split.ok()) return split.status();
  if (!split->elements.empty()) return TruthBuilder::Compose(spec, s, sample, *split, options);
  return TruthBuilder(spec, s, sample, options).Run(split->not_split);
}

absl::StatusOr<std::vector<SampleTruth>> SpecTruth(const LoadedSpec& spec,
                                                   const TruthOptions& options,
                                                   const std::vector<std::string>& only) {
  std::vector<SampleTruth> out;
  for (int s = 0; s < spec.proto().sample_size(); ++s) {
    const std::string& name = spec.proto().sample(s).name();
    if (!only.empty() && std::find(only.begin(), only.end(), name) == only.end()) continue;
    absl::StatusOr<std::vector<BoundSample>> bound = BoundSample::BindAll(spec, s);
    if (!bound.ok()) return bound.status();
    for (const BoundSample& sample : *bound) {
      absl::StatusOr<SampleTruth> truth = GroundTruth(spec, s, sample, options);
      if (!truth.ok()) return truth.status();
      out.push_back(*std::move(truth));
    }
  }
  return out;
}

}  // namespace shrt
