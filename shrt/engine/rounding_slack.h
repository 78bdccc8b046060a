// The rounding of a Partial reduction: how far the reduction over W ranks
// of a Partial output may fall from the full output by floating-point
// rounding alone, element by element. Its one home: output_check.cc (the
// ATen path and the float64-reference check) and fused_partial.cc's loops
// all call it, so all allow the same.
#ifndef SHRT_ENGINE_ROUNDING_SLACK_H_
#define SHRT_ENGINE_ROUNDING_SLACK_H_

#include "shrt/vocab/placement.h"

namespace shrt {

// What the rounding of the reduction by one op is relative to: the one
// table of it, read by PartialRoundingScale and by
// RoundingScaleReadsInputScale. A sum of w terms rounds by at most
// (w - 1) * eps times the sum of their magnitudes, a product of w factors
// by about w * eps of its value (Higham, "Accuracy and Stability of
// Numerical Algorithms", 2nd ed., §4.2 and §3.1); a norm is a sum of
// non-negative terms, which rounds relative to its value.
enum class RoundingBasis {
  kMagnitudes,  // the parts' magnitudes and the inputs' scale: P(sum), P(avg)
  kValue,       // the reduced value: P(product), _NormP
  kExact,       // none, it reduces exactly: P(max), P(min)
};

inline RoundingBasis RoundingBasisOf(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum:
    case ReduceOp::kAvg: return RoundingBasis::kMagnitudes;
    case ReduceOp::kProduct:
    case ReduceOp::kNorm: return RoundingBasis::kValue;
    case ReduceOp::kMax:
    case ReduceOp::kMin: return RoundingBasis::kExact;
  }
  return RoundingBasis::kExact;
}

// The magnitude at which the reduction by `op` of one element over `w`
// ranks rounds, in the units of the output's values, by RoundingBasisOf:
//   kMagnitudes abs_sum + w * input_scale (P(avg): divided by w)
//   kValue      w * reduced_abs
//   kExact      0
// where `abs_sum` is sum_r |local_r| (a complex part's modulus),
// `reduced_abs` the reduction's |value| and `input_scale` the largest
// |value| among the parts of Partial inputs (output_check.h CheckContext):
// an operator that cancels large parts rounds relative to them, not to its
// small local result.
inline double PartialRoundingScale(ReduceOp op, double abs_sum, double reduced_abs, int w,
                                   double input_scale) {
  switch (RoundingBasisOf(op)) {
    case RoundingBasis::kMagnitudes: {
      const double scale = abs_sum + w * input_scale;
      return op == ReduceOp::kAvg ? scale / w : scale;
    }
    case RoundingBasis::kValue: return w * reduced_abs;
    case RoundingBasis::kExact: return 0;
  }
  return 0;
}

// Whether PartialRoundingScale of `op` reads its `input_scale`.
inline bool RoundingScaleReadsInputScale(ReduceOp op) {
  return RoundingBasisOf(op) == RoundingBasis::kMagnitudes;
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
