#include "shrt/engine/static_findings.h"

#include "absl/strings/str_cat.h"
#include "shrt/engine/sample_schema.h"
#include "shrt/ops/candidates.h"
#include "shrt/ops/op_args.h"

namespace shrt {
namespace {

// Whether `p` can be built for a tensor of `ndim` dims and `dtype`: as a
// 1-D placement (candidates.h), a _StridedShard as its Shard.
bool Applies(const Placement& p, int64_t ndim, c10::ScalarType dtype) {
  return PlacementApplies(p.is_strided_shard() ? Placement::Shard(p.dim()) : p, ndim, dtype);
}

}  // namespace

std::string NotApplicableHead(absl::string_view sample) {
  return absl::StrCat("not applicable to sample ", sample, ": ");
}

std::string CannotBuildEvidence(absl::string_view sample, absl::string_view placement,
                                absl::string_view side, size_t i, absl::string_view tensor) {
  return absl::StrCat(NotApplicableHead(sample), placement, " cannot be built for ", side, " ", i,
                      " (", tensor, ")");
}

std::string PartialIndexEvidence(absl::string_view sample, size_t i, absl::string_view label,
                                 absl::string_view placement) {
  return absl::StrCat("sample ", sample, ": input ", i, " (", label, ") is an index tensor, and ",
                      placement, " parts of an index are not indices");
}

std::string InPlaceEvidence(absl::string_view sample, size_t k, int i, absl::string_view from,
                            absl::string_view to) {
  return absl::StrCat("sample ", sample, ": output ", k, " is input ", i,
                      " written in place, so its placement ", from, " cannot become ", to);
}

std::optional<NdFinding> NdStaticFinding(const NdRule& rule, const BoundSample& sample,
                                         const std::vector<bool>& index_inputs,
                                         const std::vector<at::Tensor>& outputs) {
  for (size_t i = 0; i < rule.num_inputs(); ++i) {
    const InputSpec& in = sample.inputs()[i];
    for (const Placement& p : rule.Input(i)) {
      if (!Applies(p, static_cast<int64_t>(in.shape.size()), in.dtype)) {
        return NdFinding{Finding::kNotApplicable,
                         CannotBuildEvidence(sample.name(), p.ToString(), "input", i,
                                             TensorMetaToString({in.shape, {}, in.dtype}))};
      }
      if (p.is_partial() && index_inputs[i]) {
        return NdFinding{Finding::kRefuted,
                         PartialIndexEvidence(sample.name(), i, in.label, p.ToString())};
      }
    }
  }
  for (size_t k = 0; k < rule.num_outputs(); ++k) {
    for (const Placement& p : rule.Output(k)) {
      if (!Applies(p, outputs[k].dim(), outputs[k].scalar_type())) {
        const std::string meta = TensorMetaToString(sample_internal::MetaOf(outputs[k]));
        return NdFinding{Finding::kNotApplicable,
                         CannotBuildEvidence(sample.name(), p.ToString(), "output", k, meta)};
      }
    }
  }
  const std::vector<int>& aliases = sample.output_aliases();
  for (size_t k = 0; k < aliases.size() && k < rule.num_outputs(); ++k) {
    const int i = aliases[k];
    if (i >= 0 && rule.Output(k) != rule.Input(i)) {
      return NdFinding{Finding::kRefuted,
                       InPlaceEvidence(sample.name(), k, i, NdPlacementToString(rule.Input(i)),
                                       NdPlacementToString(rule.Output(k)))};
    }
  }
  return std::nullopt;
}

}  // namespace shrt
