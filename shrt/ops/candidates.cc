#include "shrt/ops/candidates.h"

#include <algorithm>

namespace shrt {
namespace {

bool IsNarrowInt(c10::ScalarType t) {
  return c10::isIntegralType(t, /*includeBool=*/false) && c10::elementSize(t) < 4;
}

}  // namespace

std::vector<Placement> CandidatePlacements(int64_t ndim, c10::ScalarType dtype) {
  std::vector<Placement> out = {Placement::Replicate()};
  for (int64_t d = 0; d < ndim; ++d) out.push_back(Placement::Shard(d));
  if (dtype == c10::ScalarType::Bool) return out;
  for (ReduceOp op : kAllReduceOps) {
    if (op == ReduceOp::kAvg && IsNarrowInt(dtype)) continue;
    // Complex numbers have no order, and DTensor's Partial of a complex
    // tensor is a sum (or mean) of complex parts.
    if (c10::isComplexType(dtype) && op != ReduceOp::kSum && op != ReduceOp::kAvg) continue;
    out.push_back(Placement::Partial(op));
  }
  return out;
}

bool PlacementApplies(const Placement& p, int64_t ndim, c10::ScalarType dtype) {
  // _NormP(p) raises parts to a real power: real floating tensors only.
  // _MaskP masks an index input and the outputs it gathers: anything but
  // Bool, which has no Partial (DESIGN.md §3).
  if (p.is_mask_partial()) return dtype != c10::ScalarType::Bool;
  if (p.is_named_only()) return c10::isFloatingType(dtype);
  const std::vector<Placement> c = CandidatePlacements(ndim, dtype);
  return std::find(c.begin(), c.end(), p) != c.end();
}

}  // namespace shrt
