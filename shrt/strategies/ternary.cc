// Strategies for ternary pointwise overloads (with broadcasting): every
// shard rule, plus the Partial rules each op's algebra justifies.
//
// addcmul(s, a, b, value) = s + value * a * b: linear in (s, a) jointly and
// in (s, b) jointly (P(sum) on s and one factor); affine in each argument
// alone (P(avg) on any one input, the others R); non-decreasing in s.
// addcdiv(s, a, b, value) = s + value * a / b: the same, except that b is
// not linear (only a is); like div, the rules on a hold off zero divisors
// b, which the specs draw from the "nonzero" recipe.
// lerp(s, e, w) = (1 - w) * s + w * e: for a Scalar w it is
// TwoTensorAffineRules(1 - w, w) (pointwise_rules.h): linear in (s, e)
// jointly, affine in each, and monotone in s by the sign of 1 - w and in e
// by the sign of w; for a Tensor w it is linear in (s, e) jointly and
// affine in each of s, e, w alone.
// where.ScalarSelf(c, x, y) / where.ScalarOther(c, x, y) select between a
// tensor and a constant: max/min/mean over ranks commute with the
// selection (the constant is the same on every rank), sum and product do
// not (W copies of the constant).
#include "shrt/strategies/pointwise_rules.h"

namespace shrt {
namespace {

const Rules& kAddcmul = AddcmulRules();
const Rules& kAddcdiv = AddcdivRules();
const Rules kLerpTensor = ParseRules({"P(sum), P(sum), R -> P(sum)", "P(avg), P(avg), R -> P(avg)",
                                      "P(avg), R, R -> P(avg)", "R, P(avg), R -> P(avg)",
                                      "R, R, P(avg) -> P(avg)"});
const Rules kWhereScalar =
    ParseRules({"R, P(max) -> P(max)", "R, P(min) -> P(min)", "R, P(avg) -> P(avg)"});

Rules LerpScalar(const OpArgs& args) {
  const double w = args.GetDouble("weight").value_or(0.5);
  return TwoTensorAffineRules(1 - w, w);
}

const bool kRegistered = RegisterPointwiseOps({
    {"aten::addcmul", kAddcmul},
    {"aten::addcdiv", kAddcdiv},
    {"aten::lerp.Tensor", kLerpTensor},
    {"aten::lerp.Scalar", LerpScalar},
    {"aten::where.ScalarSelf", kWhereScalar},
    {"aten::where.ScalarOther", kWhereScalar},
});

}  // namespace
}  // namespace shrt
