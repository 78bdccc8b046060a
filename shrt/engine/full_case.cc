#include "shrt/engine/full_case.h"

#include <algorithm>
#include <cmath>
#include <mutex>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "c10/util/Logging.h"
#include "shrt/engine/compare.h"
#include "shrt/engine/distribute.h"
#include "shrt/engine/isolation.h"
#include "shrt/engine/tensor_bytes.h"
#include "shrt/spec/generators.h"
#include "shrt/spec/rng.h"
#include "shrt/spec/tensor_args.h"
#include "shrt/vocab/text_proto.h"

namespace shrt {

void DisableC10Backtraces() {
  static std::once_flag once;
  std::call_once(once, [] { c10::SetStackTraceFetcher([] { return std::string(); }); });
}

bool Informative(const Tensors& outputs) {
  for (const at::Tensor& t : outputs) {
    if (!t.isfinite().logical_and(t.ne(0)).any().item<bool>()) return false;
  }
  return true;
}

absl::Status CaseMaker::Bad(absl::string_view what) const {
  return FieldError(spec_.WhereSample(s_),
                    absl::StrCat("sample[", s_, "] (sample '", sample_.name(), "')"), what);
}

absl::Status CaseMaker::Init() {
  for (const InputSpec& in : sample_.inputs()) {
    absl::StatusOr<const Recipe*> r = spec_.recipes().Find(in.recipe);
    if (!r.ok()) return Bad(absl::StrCat("input '", in.label, "': ", r.status().message()));
    generators_ = std::max<size_t>(generators_, (*r)->generator_size());
    recipes_.push_back(*r);
    index_inputs_.push_back(IsIndexRecipe(**r));
    input_dtypes_.push_back(in.dtype);
    int64_t numel = 1;
    for (int64_t d : in.shape) numel *= d;
    input_numels_.push_back(numel);
  }
  draws_.assign(generators_, false);
  for (size_t g = 0; g < generators_; ++g) {
    for (const Recipe* r : recipes_) {
      const Generator& gen = r->generator(static_cast<int>(g % r->generator_size()));
      draws_[g] = draws_[g] || DrawsFromSeed(gen);
    }
  }
  // The largest tensor of the spec's sample, so that a list sample and its
  // elements (list_elements.h) run the same cases.
  int64_t largest = 1;
  for (const Arg& a : spec_.proto().sample(s_).arg()) {
    for (const TensorArg* t : TensorArgsOf(a)) {
      int64_t numel = 1;
      for (int64_t d : t->shape()) numel *= d;
      largest = std::max(largest, numel);
    }
  }
  rounds_ = static_cast<size_t>((kMinCaseElements + largest - 1) / largest);
  return absl::OkStatus();
}

absl::StatusOr<FullCase> CaseMaker::Make(size_t g) {
  const GenContext context = sample_.MakeGenContext();
  const size_t round = g / generators_;
  FullCase full;
  // Named by the spec's sample: every expansion of a sweep and every list
  // element of it draws from the same case seed.
  full.seed = CaseSeed(options_.seed, spec_.proto().sample(s_).name(), g);
  std::vector<std::string> names;
  for (size_t i = 0; i < sample_.inputs().size(); ++i) {
    const InputSpec& in = sample_.inputs()[i];
    const Generator& gen =
        recipes_[i]->generator(static_cast<int>(g % recipes_[i]->generator_size()));
    names.push_back(gen.name());
    absl::StatusOr<at::Tensor> t =
        Generate(gen, in.shape, in.dtype, in.seed_index, full.seed, context);
    if (!t.ok()) {
      return Bad(absl::StrCat("input '", in.label, "', recipe '", in.recipe, "', generator '",
                              gen.name(), "': ", t.status().message()));
    }
    full.inputs.push_back(WithLayout(*t, in.layout));
    full.scales.push_back(FiniteMaxAbs(*t));
    full.special_inputs = full.special_inputs || DrawsSpecialValues(gen, in.dtype);
  }
  full.generator = names.empty() ? "none" : names.front();
  if (std::any_of(names.begin(), names.end(), [&](const auto& n) { return n != names[0]; })) {
    full.generator = absl::StrJoin(names, "/");
  }
  if (round > 0) absl::StrAppend(&full.generator, ", round ", round + 1);
  // A spec that says its op's result on special values is undefined never
  // calls the op on them: the call itself may crash (an index computed from
  // a nan), and the engines skip the case (ground_truth.cc, nd_truth.cc).
  if (full.special_inputs && !spec_.proto().special_values_undefined().empty()) {
    full.call = absl::FailedPreconditionError("special values: not called (special_values_undefined)");
    return full;
  }
  // The full call runs on copies: an overload that writes an input its
  // schema does not mark as written (batch_norm's running stats) must not
  // share that input with other calls, so a changed copy marks the sample
  // as mutating before any rank runs.
  const Tensors copies = CallInputs(full.inputs, /*copy=*/true);
  full.call = sample_.Call(copies);
  for (size_t i = 0; !sample_.mutates() && i < copies.size(); ++i) {
    // Bytes first: a NaN equals no value, itself included.
    if (!SameBytes(copies[i], full.inputs[i]) && !copies[i].equal(full.inputs[i])) {
      sample_.MarkWritesInputs();
    }
  }
  if (!full.call.ok() && IsCrash(full.call.status())) {
    Crashed(full.call.status(), full.generator, "", "", "");
  }
  return full;
}

void CaseMaker::PickPrecision(c10::ScalarType output) {
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

Tensors CaseMaker::CallInputs(const Tensors& ts, bool copy) const {
  if (!sample_.mutates() && !copy) return ts;
  Tensors out;
  out.reserve(ts.size());
  for (size_t i = 0; i < ts.size(); ++i) {
    const Layout layout = sample_.inputs()[i].layout;
    out.push_back(PrivateWithLayout(ts[i], layout));
  }
  return out;
}

std::optional<CaseMaker::RunTensors> CaseMaker::ForRun(FullCase& full,
                                                       const std::vector<bool>& mask) {
  if (std::none_of(mask.begin(), mask.end(), [](bool b) { return b; })) {
    return RunTensors{&full.inputs, &full.outputs};
  }
  const auto& [inputs, outputs] = Negated(full, mask);
  if (!outputs.ok()) return std::nullopt;
  return RunTensors{&inputs, &*outputs};
}

const std::pair<Tensors, absl::StatusOr<Tensors>>& CaseMaker::Negated(
    FullCase& full, const std::vector<bool>& mask) {
  auto it = full.negated.find(mask);
  if (it == full.negated.end()) {
    Tensors inputs;
    for (size_t i = 0; i < full.inputs.size(); ++i) {
      inputs.push_back(mask[i] ? WithLayout(full.inputs[i].neg(), sample_.inputs()[i].layout)
                               : full.inputs[i]);
    }
    absl::StatusOr<Tensors> outputs = sample_.Call(CallInputs(inputs));
    if (!outputs.ok() && IsCrash(outputs.status())) {
      Crashed(outputs.status(), full.generator, "negated inputs", "", "");
    }
    it = full.negated.emplace(mask, std::make_pair(std::move(inputs), std::move(outputs))).first;
  }
  return it->second;
}

const RoundingReference* CaseMaker::Reference(FullCase& full, const std::vector<bool>& mask,
                                              const Tensors& inputs, const Tensors& want,
                                              size_t k) {
  if (!needs_reference_[k]) return nullptr;
  auto it = full.references.find(mask);
  if (it == full.references.end()) {
    std::vector<std::optional<RoundingReference>> refs(want.size());
    absl::StatusOr<Tensors> ref = sample_.CallInFloat64(CallInputs(inputs));
    if (!ref.ok() && IsCrash(ref.status())) {
      Crashed(ref.status(), full.generator, "float64 reference", "", "");
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
        // Where the reference lies past the output dtype's largest finite
        // value it is another computation (output_check.cc), not rounding.
        const double limit = SpecialValueOf(LARGEST_FINITE, want[j].scalar_type());
        for (int64_t i = 0; i < f.numel(); ++i) {
          if (std::isfinite(a[i]) && std::abs(b[i]) <= limit) {
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

CheckContext CaseMaker::Context(size_t k, double input_scale, double full_input_scale,
                                bool special_inputs) const {
  CheckContext context = contexts_[k];
  context.special_inputs = special_inputs;
  context.input_scale = input_scale;
  context.full_input_scale = full_input_scale;
  return context;
}

OutputCheck CaseMaker::Check(FullCase& full, const std::vector<bool>& mask, const Tensors& inputs,
                             const Tensors& want, const Tensors& locals, size_t k,
                             const Placement& p, double input_scale, double full_input_scale,
                             double& magnitude) {
  const CheckContext context = Context(k, input_scale, full_input_scale, full.special_inputs);
  OutputCheck check = CheckOutput(want[k], locals, p, context);
  if (check.ok || !std::isfinite(check.max_abs_diff) || !needs_reference_[k]) return check;
  // A cheap gate before the float64 call: the re-judgement allows at most
  // kMaxRelativeRounding of the magnitudes involved (output_check.h), so a
  // difference ten times that (wrong values, not rounding) fails there
  // too, unless the low-precision call were itself that far from float64;
  // then this gate keeps a false "refuted", never a false "valid".
  if (magnitude < 0) {
    magnitude = FiniteMaxAbs(want[k]) + static_cast<double>(locals.size()) * input_scale;
    for (const at::Tensor& l : locals) magnitude += FiniteMaxAbs(l);
  }
  if (check.max_abs_diff > context.tol.atol + 10 * kMaxRelativeRounding * magnitude) return check;
  const RoundingReference* ref = Reference(full, mask, inputs, want, k);
  return ref == nullptr ? check : CheckAgainstReference(want[k], locals, p, context, *ref, check);
}

void CaseMaker::Crashed(const absl::Status& status, const std::string& generator,
                        const std::string& run, const std::string& inputs,
                        const std::string& rank) {
  std::string what =
      absl::StrCat(status.message(), " in sample ", sample_.name(), ", generator ", generator);
  if (!run.empty()) absl::StrAppend(&what, ", run ", run);
  if (inputs.empty()) {
    absl::StrAppend(&what, ", the call on the full inputs");
  } else {
    absl::StrAppend(&what, ", inputs ", inputs, ", rank ", rank);
  }
  crashes_.push_back({inputs, std::move(what)});
}

}  // namespace shrt
