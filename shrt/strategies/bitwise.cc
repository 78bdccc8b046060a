// Strategies for bitwise overloads (integer and bool tensors): every shard
// rule, plus the Partial rules the integer algebra justifies. Bool tensors
// have no Partial placement, so only integer samples use them.
//
// bitwise_and/or/xor mix bits of both operands: no reduction over ranks
// (sum, max, min, product) commutes with them, so no Partial rule.
// bitwise_not(x) = -x - 1 (two's complement): non-increasing, and affine,
// so the mean of the parts maps to the mean: P(avg) -> P(avg).
// bitwise_right_shift(x, s) is an arithmetic shift, floor(x / 2^k) for the
// shift count k the kernel derives from s (s itself, s mod the width, or
// the sign for negative s): non-decreasing in x whatever s is, so P(max)
// and P(min) of x carry over with s replicated. It is not monotone in s.
// bitwise_left_shift(x, s) multiplies by 2^k modulo 2^bits for s >= 0 (a
// ring homomorphism, exact with wrapping): P(sum) -> P(sum) for a scalar
// s >= 0. A negative s yields the constant INT_MIN, so a tensor of shift
// counts (values unseen) gets no linearity rule; overflow breaks
// monotonicity and the integer mean, so no P(max)/P(min)/P(avg) rule.
#include "shrt/strategies/pointwise_rules.h"

namespace shrt {
namespace {

const Rules kNone = {};
const Rules kNot = Concat({DecreasingRules(), ParseRules({"P(avg) -> P(avg)"})});
const Rules kRightShiftTensor = ParseRules({"P(max), R -> P(max)", "P(min), R -> P(min)"});
const Rules kLeftShiftScalar = ParseRules({"P(sum) -> P(sum)"});

// A shift by 0 is the identity, which keeps every Partial.
Rules LeftShiftScalar(const OpArgs& args) {
  const double s = args.GetDouble("other").value_or(-1);
  if (s == 0) return IdentityRules();
  return s > 0 ? kLeftShiftScalar : kNone;
}

Rules RightShiftScalar(const OpArgs& args) {
  return args.GetDouble("other").value_or(-1) == 0 ? IdentityRules() : IncreasingRules();
}

const bool kRegistered = RegisterPointwiseOps({
    {"aten::bitwise_and.Tensor", kNone},
    {"aten::bitwise_and.Scalar", kNone},
    {"aten::bitwise_and.Scalar_Tensor", kNone},
    {"aten::bitwise_or.Tensor", kNone},
    {"aten::bitwise_or.Scalar", kNone},
    {"aten::bitwise_or.Scalar_Tensor", kNone},
    {"aten::bitwise_xor.Tensor", kNone},
    {"aten::bitwise_xor.Scalar", kNone},
    {"aten::bitwise_xor.Scalar_Tensor", kNone},
    {"aten::bitwise_not", kNot},
    {"aten::bitwise_right_shift.Tensor", kRightShiftTensor},
    {"aten::bitwise_right_shift.Tensor_Scalar", RightShiftScalar},
    {"aten::bitwise_right_shift.Scalar_Tensor", kNone},
    {"aten::bitwise_left_shift.Tensor", kNone},
    {"aten::bitwise_left_shift.Tensor_Scalar", LeftShiftScalar},
    {"aten::bitwise_left_shift.Scalar_Tensor", kNone},
});

}  // namespace
}  // namespace shrt
