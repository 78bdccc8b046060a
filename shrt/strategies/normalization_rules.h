// What the normalization family's sources share (normalization.cc: the
// forwards; normalization_backward.cc: their gradients). Internal to the
// family.
#ifndef SHRT_STRATEGIES_NORMALIZATION_RULES_H_
#define SHRT_STRATEGIES_NORMALIZATION_RULES_H_

#include <variant>
#include <vector>

#include "shrt/ops/op_args.h"
#include "shrt/vocab/placement.h"

namespace shrt::normalization {

// The placements the rules use.
inline const Placement kR = Placement::Replicate();
inline const Placement kSum = Placement::Partial(ReduceOp::kSum);
inline const Placement kAvg = Placement::Partial(ReduceOp::kAvg);
inline const Placement kMax = Placement::Partial(ReduceOp::kMax);
inline const Placement kMin = Placement::Partial(ReduceOp::kMin);

// True when argument `name` (an optional weight, bias or statistic) is a
// tensor, not None.
inline bool Present(const OpArgs& args, const char* name) {
  const ArgValue* v = args.Find(name);
  return v != nullptr && std::holds_alternative<TensorMeta>(*v);
}

// The placements of an output whose value is identical on every rank: R,
// P(avg), P(max), P(min) (the mean, max and min of W equal values are that
// value).
inline const std::vector<Placement>& Identical() {
  static const auto* p = new std::vector<Placement>{kR, kAvg, kMax, kMin};
  return *p;
}

}  // namespace shrt::normalization

#endif  // SHRT_STRATEGIES_NORMALIZATION_RULES_H_
