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
// The Python operators __and__, __or__, __xor__, __lshift__ and __rshift__
// (.Tensor and .Scalar) run the same kernels as bitwise_and/or/xor and
// bitwise_left/right_shift (.Tensor and .Tensor_Scalar) and share their
// rows. Their in-place forms __iand__, __ior__, __ixor__, __ilshift__ and
// __irshift__ are not in-place variants of them for op_group.h (the
// in-place name of __and__ would be __and___): each is a group of one
// whose only overload writes self, registered here with the row of its
// operator. Every rule those rows give keeps self's placement on the
// output (P(op) of self to P(op), shard rules with self holding the full
// broadcast shape), as an in-place strategy must.
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
    {"aten::__and__.Tensor", kNone},
    {"aten::__and__.Scalar", kNone},
    {"aten::__or__.Tensor", kNone},
    {"aten::__or__.Scalar", kNone},
    {"aten::__xor__.Tensor", kNone},
    {"aten::__xor__.Scalar", kNone},
    {"aten::__lshift__.Tensor", kNone},
    {"aten::__lshift__.Scalar", LeftShiftScalar},
    {"aten::__rshift__.Tensor", kRightShiftTensor},
    {"aten::__rshift__.Scalar", RightShiftScalar},
    {"aten::__iand__.Tensor", kNone},
    {"aten::__iand__.Scalar", kNone},
    {"aten::__ior__.Tensor", kNone},
    {"aten::__ior__.Scalar", kNone},
    {"aten::__ixor__.Tensor", kNone},
    {"aten::__ixor__.Scalar", kNone},
    {"aten::__ilshift__.Tensor", kNone},
    {"aten::__ilshift__.Scalar", LeftShiftScalar},
    {"aten::__irshift__.Tensor", kRightShiftTensor},
    {"aten::__irshift__.Scalar", RightShiftScalar},
});

}  // namespace
}  // namespace shrt
