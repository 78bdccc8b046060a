// Which placements a tensor can take, by rank and dtype. Shared by the
// enumeration (every candidate is tried) and by strategies (which must not
// claim a placement that never applies).
#ifndef SHRT_OPS_CANDIDATES_H_
#define SHRT_OPS_CANDIDATES_H_

#include <cstdint>
#include <vector>

#include "c10/core/ScalarType.h"
#include "shrt/vocab/placement.h"

namespace shrt {

// The placements enumerated for a tensor of rank `ndim` and `dtype`: R,
// S(0) .. S(ndim-1), then every Partial. Bool tensors get no Partial
// (DESIGN.md §3). Integer dtypes narrower than 32 bits get no P(avg), whose
// parts (summing to W * x) would overflow them.
std::vector<Placement> CandidatePlacements(int64_t ndim, c10::ScalarType dtype);

// True if `p` is among CandidatePlacements(ndim, dtype), or is a placement
// ShRT builds only when a rule names it (Placement::is_named_only) and can
// build for the dtype: _NormP(p) on a real floating tensor, _MaskP on any
// but Bool.
bool PlacementApplies(const Placement& p, int64_t ndim, c10::ScalarType dtype);

}  // namespace shrt

#endif  // SHRT_OPS_CANDIDATES_H_
