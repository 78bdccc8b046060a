// Strategies for clamp and its relatives: clamp(x, lo, hi) =
// min(max(x, lo), hi), pointwise with broadcasting, plus these Partial
// rules. The registry derives the in-place (clamp_, ...) and out= variants.
//
// clamp / clip with Scalar bounds, clamp_min (max(x, c)) and clamp_max
// (min(x, c)) are non-decreasing in x, so they commute with max and min
// over ranks: P(max) -> P(max), P(min) -> P(min); clamp and clip with
// crossed bounds (min > max) are the constant max (ClampScalarRules).
// clamp_min.Tensor is maximum(x, lo) and clamp_max.Tensor is minimum(x, hi)
// (binary.cc's kMaximum/kMinimum): non-decreasing in each input, and
// max_r max(p_r, q_r) = max(max_r p_r, max_r q_r), so max(., .) keeps
// P(max) on both inputs (and min(., .) P(min) on both).
// clamp.Tensor / clip.Tensor with Tensor? bounds: min(max(x, lo), hi) is
// non-decreasing in each of x, lo and hi whatever their order, so P(max)
// or P(min) on any one input with the others R carries over. Jointly,
// max(x, lo) keeps P(max) on both x and lo, and the outer min(., hi) is
// non-decreasing: P(max), P(max), R -> P(max); likewise max(x, lo) keeps
// P(min) of x, and min(., hi) keeps P(min) on both of its inputs:
// P(min), R, P(min) -> P(min); and min_r min(max(x, l_r), h_r) =
// min(max(x, min_r l_r), min_r h_r) (max(x, .) is non-decreasing):
// R, P(min), P(min) -> P(min). With one bound absent the op is maximum or
// minimum (the rules of clamp_min/max.Tensor). Which bound is present
// decides the rules, since both give two tensor inputs.
#include <variant>

#include "shrt/strategies/pointwise_rules.h"

namespace shrt {
namespace {

const Rules& kMaximum = MaximumRules();
const Rules& kMinimum = MinimumRules();
const Rules kClampBoth = ParseRules(
    {"P(max), R, R -> P(max)", "R, P(max), R -> P(max)", "R, R, P(max) -> P(max)",
     "P(min), R, R -> P(min)", "R, P(min), R -> P(min)", "R, R, P(min) -> P(min)",
     "P(max), P(max), R -> P(max)", "P(min), R, P(min) -> P(min)",
     "R, P(min), P(min) -> P(min)"});

bool IsTensor(const OpArgs& args, const char* name) {
  const ArgValue* v = args.Find(name);
  return v != nullptr && std::holds_alternative<TensorMeta>(*v);
}

Rules ClampScalar(const OpArgs& args) {
  return ClampScalarRules(args.GetDouble("min"), args.GetDouble("max"), NanFree(args));
}

Rules ClampTensor(const OpArgs& args) {
  const bool lo = IsTensor(args, "min"), hi = IsTensor(args, "max");
  if (lo && hi) return kClampBoth;
  if (lo) return kMaximum;
  if (hi) return kMinimum;
  return IncreasingRules();
}

const bool kRegistered = RegisterPointwiseOps({
    {"aten::clamp", ClampScalar},
    {"aten::clip", ClampScalar},
    {"aten::clamp_min", IncreasingRules()},
    {"aten::clamp_max", IncreasingRules()},
    {"aten::clamp_min.Tensor", kMaximum},
    {"aten::clamp_max.Tensor", kMinimum},
    {"aten::clamp.Tensor", ClampTensor},
    {"aten::clip.Tensor", ClampTensor},
});

}  // namespace
}  // namespace shrt
