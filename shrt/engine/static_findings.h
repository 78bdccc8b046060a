// Rules judged without a call. A placement that cannot be built for its
// tensor (candidates.h PlacementApplies: a Shard dim past the tensor's
// rank, Partial on bool) makes a rule not applicable to the sample; a
// Partial index input (a part of an index is not an index) and an output
// written in place into an input whose placement it does not keep make it
// refuted. The evidence texts are made here for the 1-D engine
// (sample_truth.cc) and the N-D engine (nd_truth.cc) alike, and the N-D
// engine's whole judgement is NdStaticFinding. Engine-internal.
#ifndef SHRT_ENGINE_STATIC_FINDINGS_H_
#define SHRT_ENGINE_STATIC_FINDINGS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "ATen/core/Tensor.h"
#include "shrt/engine/nd_truth.h"
#include "shrt/engine/sample.h"
#include "shrt/vocab/nd_rule.h"

namespace shrt {

// "not applicable to sample <sample>: ": the head of every kNotApplicable
// evidence.
std::string NotApplicableHead(absl::string_view sample);

// "not applicable to sample <sample>: <placement> cannot be built for
// <side> <i> (<tensor>)", side "input" or "output", tensor what names it
// ("self", "Bool[5, 3]").
std::string CannotBuildEvidence(absl::string_view sample, absl::string_view placement,
                                absl::string_view side, size_t i, absl::string_view tensor);

// The refutation of placement `placement` for index input i (`label`).
std::string PartialIndexEvidence(absl::string_view sample, size_t i, absl::string_view label,
                                 absl::string_view placement);

// The refutation of output k, input i written in place, placed `to` where
// the input is placed `from`.
std::string InPlaceEvidence(absl::string_view sample, size_t k, int i, absl::string_view from,
                            absl::string_view to);

// What ground truth says of N-D rule `rule` on `sample` without a call, if
// anything: kNotApplicable when a placement (a _StridedShard as its Shard)
// cannot be built for an input or for one of `outputs` (the first case's
// full outputs), kRefuted for a Partial input where `index_inputs` says an
// index, or for an in-place output whose placements are not its input's
// (BoundSample::output_aliases). The rule has the sample's numbers of
// tensors (the caller checks).
std::optional<NdFinding> NdStaticFinding(const NdRule& rule, const BoundSample& sample,
                                         const std::vector<bool>& index_inputs,
                                         const std::vector<at::Tensor>& outputs);

}  // namespace shrt

#endif  // SHRT_ENGINE_STATIC_FINDINGS_H_
