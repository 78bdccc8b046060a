// The rounding of a Partial reduction: how far the reduction over W ranks
// of a Partial output may fall from the full output by floating-point
// rounding alone, element by element. Its one home: output_check.cc (the
// ATen path and the float64-reference check) and fused_partial.cc's loops
// all call it, so all allow the same.
#ifndef SHRT_ENGINE_ROUNDING_SLACK_H_
#define SHRT_ENGINE_ROUNDING_SLACK_H_

#include "shrt/vocab/placement.h"

namespace shrt {

// The magnitude at which the reduction by `op` of one element over `w`
// ranks rounds, in the units of the output's values:
//   P(sum)      abs_sum + w * input_scale
//   P(avg)      the same, divided by w
//   P(product), _NormP
//               w * reduced_abs
//   P(max), P(min)
//               0 (they reduce exactly)
// where `abs_sum` is sum_r |local_r| (a complex part's modulus),
// `reduced_abs` the reduction's |value| and `input_scale` the largest
// |value| among the parts of Partial inputs (output_check.h CheckContext):
// an operator that cancels large parts rounds relative to them, not to its
// small local result. A sum of w terms rounds by at most (w - 1) * eps times
// the sum of their magnitudes, a product of w factors by about w * eps of
// its value (Higham, "Accuracy and Stability of Numerical Algorithms", 2nd
// ed., §4.2 and §3.1); a norm is a sum of non-negative terms, which rounds
// relative to its value.
inline double PartialRoundingScale(ReduceOp op, double abs_sum, double reduced_abs, int w,
                                   double input_scale) {
  switch (op) {
    case ReduceOp::kSum: return abs_sum + w * input_scale;
    case ReduceOp::kAvg: return (abs_sum + w * input_scale) / w;
    case ReduceOp::kProduct:
    case ReduceOp::kNorm: return w * reduced_abs;
    case ReduceOp::kMax:
    case ReduceOp::kMin: return 0;
  }
  return 0;
}

// Whether PartialRoundingScale of `op` reads its `input_scale` (P(sum) and
// P(avg) do).
inline bool RoundingScaleReadsInputScale(ReduceOp op) {
  return op == ReduceOp::kSum || op == ReduceOp::kAvg;
}

// The slack CheckOutput allows one element of P(op) besides the tolerance:
// 4 * eps * PartialRoundingScale, `eps` the unit roundoff of the
// computation's dtype (compare.h Epsilon).
inline double PartialRoundingSlack(ReduceOp op, double abs_sum, double reduced_abs, int w,
                                   double eps, double input_scale) {
  return 4 * eps * PartialRoundingScale(op, abs_sum, reduced_abs, w, input_scale);
}

}  // namespace shrt

#endif  // SHRT_ENGINE_ROUNDING_SLACK_H_
