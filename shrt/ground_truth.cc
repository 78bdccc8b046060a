#include "shrt/ground_truth.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <optional>

#include "ATen/ops/isnan.h"
#include "ATen/ops/neg.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "c10/util/Logging.h"
#include "shrt/candidates.h"
#include "shrt/compare.h"
#include "shrt/distribute.h"
#include "shrt/generators.h"
#include "shrt/isolation.h"
#include "shrt/limits.h"
#include "shrt/mesh.h"
#include "shrt/output_check.h"
#include "shrt/overload_name.h"
#include "shrt/recipes.h"
#include "shrt/rank_locals.h"
#include "shrt/rng.h"
#include "shrt/sample.h"
#include "shrt/text_proto.h"

namespace shrt {
namespace {

using Tensors = std::vector<at::Tensor>;

// A case is informative when no full output is empty, all zero or all NaN.
bool Informative(const Tensors& outputs) {
  for (const at::Tensor& t : outputs) {
    if (t.numel() == 0) return false;
    const bool all_zero = !t.ne(0).any().item<bool>();
    const bool all_nan = (at::isFloatingType(t.scalar_type()) || at::isComplexType(t.scalar_type())) &&
                         at::isnan(t).all().item<bool>();
    if (all_zero || all_nan) return false;
  }
  return true;
}

// Inputs for one call on full tensors: the tensors themselves, or, for an
// overload that writes into its inputs (or when `copy`), fresh copies in the
// inputs' layouts.
Tensors CallInputs(const Tensors& ts, const BoundSample& sample, bool copy = false) {
  if (!sample.mutates() && !copy) return ts;
  Tensors out;
  out.reserve(ts.size());
  for (size_t i = 0; i < ts.size(); ++i) {
    const Layout layout = sample.inputs()[i].layout;
    out.push_back(layout == CONTIGUOUS ? ts[i].clone() : WithLayout(ts[i], layout));
  }
  return out;
}

// The full inputs and outputs of one generator's case, with its negated
// variants and float64 references made on first use.
struct FullCase {
  std::string generator;  // "randn", or "arange/index" when inputs differ
  Tensors inputs;
  // Per input: its largest finite |value| (negation keeps it).
  std::vector<double> scales;
  Tensors outputs;
  // By mask of negated inputs.
  std::map<std::vector<bool>, std::pair<Tensors, absl::StatusOr<Tensors>>> negated;
  // By mask of negated inputs: per output, its float64 reference (nullopt
  // when the reference call fails or the output needs none).
  std::map<std::vector<bool>, std::vector<std::optional<RoundingReference>>> references;
};

}  // namespace

// Runs the cases of one bound sample into a SampleTruth.
class TruthBuilder {
 public:
  TruthBuilder(const LoadedSpec& spec, int s, const BoundSample& sample,
               const TruthOptions& options)
      : spec_(spec), s_(s), sample_(sample), options_(options), w_(options.world_size) {}

  absl::StatusOr<SampleTruth> Run() {
    std::vector<const Recipe*> recipes;
    size_t generators = 1;
    std::vector<std::vector<Placement>> in_cands;
    for (const InputSpec& in : sample_.inputs()) {
      absl::StatusOr<const Recipe*> r = spec_.recipes().Find(in.recipe);
      if (!r.ok()) return Bad(absl::StrCat("input '", in.label, "': ", r.status().message()));
      generators = std::max<size_t>(generators, (*r)->generator_size());
      recipes.push_back(*r);
      in_cands.push_back(
          InputCandidates(static_cast<int64_t>(in.shape.size()), in.dtype, IsIndexRecipe(**r)));
      input_dtypes_.push_back(in.dtype);
      int64_t numel = 1;
      for (int64_t d : in.shape) numel *= d;
      input_numels_.push_back(numel);
    }
    const GenContext context = sample_.MakeGenContext();
    for (size_t g = 0; g < generators; ++g) {
      const uint64_t case_seed = MixSeed({options_.seed, static_cast<uint64_t>(s_), g});
      FullCase full;
      std::vector<std::string> names;
      for (size_t i = 0; i < sample_.inputs().size(); ++i) {
        const InputSpec& in = sample_.inputs()[i];
        const Generator& gen =
            recipes[i]->generator(static_cast<int>(g % recipes[i]->generator_size()));
        names.push_back(gen.name());
        absl::StatusOr<at::Tensor> t =
            Generate(gen, in.shape, in.dtype, static_cast<int>(i), case_seed, context);
        if (!t.ok()) {
          return Bad(absl::StrCat("input '", in.label, "', recipe '", in.recipe, "', generator '",
                                  gen.name(), "': ", t.status().message()));
        }
        full.inputs.push_back(WithLayout(*t, in.layout));
        full.scales.push_back(FiniteMaxAbs(*t));
      }
      full.generator = names.empty() ? "none" : names.front();
      if (std::any_of(names.begin(), names.end(), [&](const auto& n) { return n != names[0]; })) {
        full.generator = absl::StrJoin(names, "/");
      }
      // The full call runs on copies: an overload that writes an input its
      // schema does not mark as written (batch_norm's running stats) must
      // not share that input with other calls, so a changed copy marks the
      // sample as mutating before any rank runs.
      const Tensors copies = CallInputs(full.inputs, sample_, /*copy=*/true);
      absl::StatusOr<Tensors> outputs = sample_.Call(copies);
      for (size_t i = 0; !sample_.mutates() && i < copies.size(); ++i) {
        if (!copies[i].equal(full.inputs[i])) sample_.MarkWritesInputs();
      }
      if (!outputs.ok() && IsCrash(outputs.status())) {
        Crashed(outputs.status(), full.generator, "", "", -1);
        continue;
      }
      if (!outputs.ok() && spec_.is_variant()) {
        // The variant's real behaviour differs from its functional overload's
        // (e.g. an int self cannot take a float result in place): a finding
        // about this overload on this sample, not a bad spec.
        SampleTruth rejected(TupleSpace(in_cands), {});
        Describe(rejected, Tensors());
        rejected.rejection_ =
            absl::StrCat("sample ", sample_.name(), ": ", OverloadToString(spec_.op()),
                         " rejects the full inputs (generator ", full.generator,
                         "): ", outputs.status().message());
        return rejected;
      }
      if (!outputs.ok()) {
        return Bad(absl::StrCat("the operator rejects the full inputs (generator ",
                                full.generator, "): ", outputs.status().message()));
      }
      full.outputs = *std::move(outputs);
      if (!truth_.has_value()) {
        std::vector<std::vector<Placement>> out_cands;
        std::vector<size_t> counts;
        for (const at::Tensor& t : full.outputs) {
          out_cands.push_back(CandidatePlacements(t.dim(), t.scalar_type()));
          counts.push_back(out_cands.back().size());
          PickPrecision(t.scalar_type());
        }
        if (PlacementTuples(counts) > kMaxPlacementTuples) {
          // Only a call can tell (split into many chunks): a limit on the
          // enumeration, as BoundSample::Bind has for the inputs.
          return Bad(absl::StrCat("its ", full.outputs.size(), " outputs have more than ",
                                  kMaxPlacementTuples,
                                  " tuples of candidate placements, the most a sample may have "
                                  "(shrt/limits.h)"));
        }
        truth_.emplace(SampleTruth(TupleSpace(in_cands), std::move(out_cands)));
        Describe(*truth_, full.outputs);
      } else if (full.outputs.size() != truth_->out_.size()) {
        return Bad("the number of outputs differs between generators");
      }
      const bool informative = Informative(full.outputs);
      LocalsCache cache;
      for (int64_t t = 0; t < truth_->in_.size(); ++t) {
        if (truth_->Dead(t)) continue;
        RunTuple(t, full, case_seed, cache);
        truth_->combination_checks_ += truth_->out_tuples_.size();
        if (informative) ++truth_->informative_[t];
      }
    }
    if (!truth_.has_value() && !crashes_.empty()) {
      SampleTruth crashed(TupleSpace(in_cands), {});
      Describe(crashed, Tensors());
      crashed.rejection_ = absl::StrCat("sample ", sample_.name(), ": every call of ",
                                        OverloadToString(spec_.op()),
                                        " on the full inputs crashed (see its crashes)");
      crashed.crashes_ = std::move(crashes_);
      return crashed;
    }
    if (!truth_.has_value()) return Bad("the sample produced no case");
    truth_->crashes_ = std::move(crashes_);
    return *std::move(truth_);
  }

 private:
  absl::Status Bad(absl::string_view what) const {
    return FieldError(spec_.WhereSample(s_),
                      absl::StrCat("sample[", s_, "] (sample '", sample_.name(), "')"), what);
  }

  // Records a call that crashed (`status`: IsCrash) in generator
  // `generator`, run `run`, on local inputs placed `inputs` of rank `rank`
  // ("" and -1: on the full inputs).
  void Crashed(const absl::Status& status, const std::string& generator, const std::string& run,
               const std::string& inputs, int rank) {
    std::string what = absl::StrCat(status.message(), " in sample ", sample_.name(),
                                    ", generator ", generator);
    if (!run.empty()) absl::StrAppend(&what, ", run ", run);
    if (inputs.empty()) {
      absl::StrAppend(&what, ", the call on the full inputs");
    } else {
      absl::StrAppend(&what, ", inputs ", inputs, ", rank ", rank);
    }
    crashes_.push_back({inputs, std::move(what)});
  }

  void Describe(SampleTruth& truth, const Tensors& outputs) const {
    truth.name_ = sample_.name();
    truth.description_ = sample_.Describe();
    truth.args_ = sample_.MakeOpArgs(outputs);
    truth.output_aliases_ = sample_.output_aliases();
    for (const InputSpec& in : sample_.inputs()) truth.input_labels_.push_back(in.label);
  }

  // The one tolerance choice (DESIGN.md §3): the spec's, else
  // torch.testing's default for the computation's dtype (compare.h
  // ComputationDtype); float64 references for low-precision floating
  // computations.
  void PickPrecision(c10::ScalarType output) {
    const c10::ScalarType dtype = ComputationDtype(input_dtypes_, output);
    CheckContext c;
    c.tol = spec_.proto().has_tolerance()
                ? Tolerance{spec_.proto().tolerance().rtol(), spec_.proto().tolerance().atol()}
                : DefaultTolerance(dtype);
    c.eps = Epsilon(dtype);
    c.reference_paths = options_.reference_paths;
    contexts_.push_back(c);
    needs_reference_.push_back(Epsilon(dtype) > Epsilon(at::kDouble));
  }

  // The full outputs for the inputs negated by `mask`, or an error when the
  // operator rejects them.
  const std::pair<Tensors, absl::StatusOr<Tensors>>& Negated(FullCase& full,
                                                              const std::vector<bool>& mask) {
    auto it = full.negated.find(mask);
    if (it == full.negated.end()) {
      Tensors inputs;
      for (size_t i = 0; i < full.inputs.size(); ++i) {
        inputs.push_back(mask[i] ? WithLayout(at::neg(full.inputs[i]), sample_.inputs()[i].layout)
                                 : full.inputs[i]);
      }
      absl::StatusOr<Tensors> outputs = sample_.Call(CallInputs(inputs, sample_));
      if (!outputs.ok() && IsCrash(outputs.status())) {
        Crashed(outputs.status(), full.generator, "negated inputs", "", -1);
      }
      it = full.negated.emplace(mask, std::make_pair(std::move(inputs), std::move(outputs))).first;
    }
    return it->second;
  }

  // Output k's float64 reference for the inputs `inputs` (negated by
  // `mask`), computed once per case and mask; nullptr when none applies.
  const RoundingReference* Reference(FullCase& full, const std::vector<bool>& mask,
                                     const Tensors& inputs, const Tensors& want, size_t k) {
    if (!needs_reference_[k]) return nullptr;
    auto it = full.references.find(mask);
    if (it == full.references.end()) {
      std::vector<std::optional<RoundingReference>> refs(want.size());
      absl::StatusOr<Tensors> ref = sample_.CallInFloat64(CallInputs(inputs, sample_));
      if (!ref.ok() && IsCrash(ref.status())) {
        Crashed(ref.status(), full.generator, "float64 reference", "", -1);
      }
      if (ref.ok() && ref->size() == want.size()) {
        for (size_t j = 0; j < want.size(); ++j) {
          const at::Tensor& r = (*ref)[j];
          const bool complex = at::isComplexType(r.scalar_type());
          if (!needs_reference_[j] || r.sizes() != want[j].sizes() ||
              !(at::isFloatingType(r.scalar_type()) || complex)) {
            continue;
          }
          RoundingReference rr;
          rr.value = r.to(complex ? at::kComplexDouble : at::kDouble).contiguous();
          // Complex values as their real views (RealView).
          const at::Tensor f = RealView(want[j].to(rr.value.scalar_type())).contiguous();
          const at::Tensor v = RealView(rr.value).contiguous();
          const double* a = f.data_ptr<double>();
          const double* b = v.data_ptr<double>();
          for (int64_t i = 0; i < f.numel(); ++i) {
            if (std::isfinite(a[i]) && std::isfinite(b[i])) {
              rr.own_error = std::max(rr.own_error, std::abs(a[i] - b[i]));
            }
          }
          refs[j] = std::move(rr);
        }
      }
      it = full.references.emplace(mask, std::move(refs)).first;
    }
    return it->second[k].has_value() ? &*it->second[k] : nullptr;
  }

  // Checks output k's locals against `want` under candidate c, re-judging a
  // numeric failure of a low-precision computation against its float64
  // reference (output_check.h).
  // `magnitude` caches, per run and output, the gate's magnitude (< 0: not
  // computed yet).
  OutputCheck Check(FullCase& full, const std::vector<bool>& mask, const Tensors& inputs,
                    const Tensors& want, const Tensors& locals, size_t k, const Placement& p,
                    double input_scale, double full_input_scale, double& magnitude) {
    CheckContext context = contexts_[k];
    context.input_scale = input_scale;
    context.full_input_scale = full_input_scale;
    OutputCheck check = CheckOutput(want[k], locals, p, context);
    if (check.ok || !std::isfinite(check.max_abs_diff) || !needs_reference_[k]) return check;
    // A cheap gate before the float64 call: the re-judgement allows at most
    // kMaxRelativeRounding of the magnitudes involved (output_check.h), so
    // a difference ten times that (wrong values, not rounding) fails there
    // too, unless the low-precision call were itself that far from float64;
    // then this gate keeps a false "refuted", never a false "valid".
    if (magnitude < 0) {
      magnitude = FiniteMaxAbs(want[k]) + static_cast<double>(locals.size()) * input_scale;
      for (const at::Tensor& l : locals) magnitude += FiniteMaxAbs(l);
    }
    if (check.max_abs_diff > context.tol.atol + 10 * kMaxRelativeRounding * magnitude) return check;
    const RoundingReference* ref = Reference(full, mask, inputs, want, k);
    return ref == nullptr ? check
                          : CheckAgainstReference(want[k], locals, p, context, *ref, check);
  }

  void RunTuple(int64_t t, FullCase& full, uint64_t case_seed, LocalsCache& cache) {
    SampleTruth& truth = *truth_;
    const std::vector<int> idx = truth.in_.Indices(t);
    const std::vector<Placement> placements = truth.in_.Placements(t);
    for (const PartialVariant& run :
         PartialVariants(placements, input_dtypes_, input_numels_, options_.partial_redraws)) {
      const bool neg = std::any_of(run.negated.begin(), run.negated.end(), [](bool b) { return b; });
      const Tensors* inputs = &full.inputs;
      const Tensors* want = &full.outputs;
      if (neg) {
        const auto& [negated_inputs, negated_outputs] = Negated(full, run.negated);
        // An operator that rejects negated values (e.g. index inputs) has no
        // Partial rule on them to test this way.
        if (!negated_outputs.ok()) continue;
        inputs = &negated_inputs;
        want = &*negated_outputs;
      }
      // locals[r][i]: rank r's local for input i.
      std::vector<Tensors> locals(w_, Tensors(placements.size()));
      double input_scale = 0, full_input_scale = 0;
      for (size_t i = 0; i < placements.size(); ++i) {
        if (placements[i].is_partial()) {
          full_input_scale = std::max(full_input_scale, full.scales[i]);
        }
        const Layout layout = sample_.inputs()[i].layout;
        // Only Partial parts are drawn: R and S locals are the same in every
        // redraw.
        const int redraw = placements[i].is_partial() ? run.redraw : 0;
        Locals fresh;
        const Locals* in = &fresh;
        if (options_.reference_paths) {
          fresh = MakeLocals((*inputs)[i], placements[i], layout, w_, case_seed, i, idx[i], redraw);
        } else {
          in = &cache.Get((*inputs)[i], placements[i], layout, w_, case_seed, i, idx[i], redraw,
                          run.negated[i]);
        }
        input_scale = std::max(input_scale, in->scale);
        for (int r = 0; r < w_; ++r) {
          const at::Tensor& x = in->ranks[r];
          // An overload that writes its inputs gets private copies: cached
          // locals stay intact for the next tuple, and Partial rows share a
          // buffer (distribute.h).
          locals[r][i] = !sample_.mutates()    ? x
                         : layout == CONTIGUOUS ? x.clone(at::MemoryFormat::Contiguous)
                                                : WithLayout(x, layout);
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
            Crashed(got.status(), full.generator, run.label, PlacementsToString(placements), r);
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
      for (size_t k = 0; k < truth.out_.size(); ++k) {
        double magnitude = -1;
        for (size_t c = 0; c < truth.out_[k].size(); ++c) {
          if (truth.failure(t, k, c) >= 0) continue;
          const OutputCheck check =
              Check(full, run.negated, *inputs, *want, outs[k], k, truth.out_[k][c], input_scale,
                    full_input_scale, magnitude);
          if (!check.ok) truth.Fail(t, k, c, Refuted(where, k, check));
        }
      }
    }
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
          Crashed(got.status(), full.generator, where.run, PlacementsToString(truth.in_.Placements(t)),
                  r);
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
          Check(full, mask, inputs, want, outs, 0, p, input_scale, full_input_scale, magnitude);
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
  const int s_;
  const BoundSample& sample_;
  const TruthOptions& options_;
  const int w_;
  std::vector<c10::ScalarType> input_dtypes_;
  std::vector<int64_t> input_numels_;
  std::vector<CheckContext> contexts_;  // per output
  std::vector<bool> needs_reference_;   // per output
  std::optional<SampleTruth> truth_;
  std::vector<CaseCrash> crashes_;
};

absl::StatusOr<SampleTruth> GroundTruth(const LoadedSpec& spec, int s, const BoundSample& sample,
                                        const TruthOptions& options) {
  static std::once_flag no_backtraces;
  std::call_once(no_backtraces, [] { c10::SetStackTraceFetcher([] { return std::string(); }); });
  if (absl::StatusOr<Mesh> mesh = Mesh::Create(options.world_size); !mesh.ok()) {
    return mesh.status();
  }
  if (options.partial_redraws < 1) {
    return absl::InvalidArgumentError("partial_redraws must be at least 1");
  }
  return TruthBuilder(spec, s, sample, options).Run();
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
