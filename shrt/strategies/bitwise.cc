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
#include <vector>

#include "absl/strings/string_view.h"
#include "shrt/registry.h"
#include "shrt/strategies/pointwise_rules.h"

namespace shrt {
namespace {

using Rules = std::vector<absl::string_view>;

const Rules kNone = {};
const Rules kNot = {"P(max) -> P(min)", "P(min) -> P(max)", "P(avg) -> P(avg)"};
const Rules kRightShiftTensor = {"P(max), R -> P(max)", "P(min), R -> P(min)"};
const Rules kRightShiftScalar = {"P(max) -> P(max)", "P(min) -> P(min)"};

const std::vector<PointwiseOp>& BitwiseOps() {
  static const auto* ops = new std::vector<PointwiseOp>{
      {"aten::bitwise_and.Tensor", kNone, false},
      {"aten::bitwise_and.Scalar", kNone, false},
      {"aten::bitwise_and.Scalar_Tensor", kNone, false},
      {"aten::bitwise_and.Tensor_out", kNone, false},
      {"aten::bitwise_and.Scalar_out", kNone, false},
      {"aten::bitwise_and_.Tensor", kNone, true},
      {"aten::bitwise_and_.Scalar", kNone, true},
      {"aten::bitwise_or.Tensor", kNone, false},
      {"aten::bitwise_or.Scalar", kNone, false},
      {"aten::bitwise_or.Scalar_Tensor", kNone, false},
      {"aten::bitwise_or.Tensor_out", kNone, false},
      {"aten::bitwise_or.Scalar_out", kNone, false},
      {"aten::bitwise_or_.Tensor", kNone, true},
      {"aten::bitwise_or_.Scalar", kNone, true},
      {"aten::bitwise_xor.Tensor", kNone, false},
      {"aten::bitwise_xor.Scalar", kNone, false},
      {"aten::bitwise_xor.Scalar_Tensor", kNone, false},
      {"aten::bitwise_xor.Tensor_out", kNone, false},
      {"aten::bitwise_xor.Scalar_out", kNone, false},
      {"aten::bitwise_xor_.Tensor", kNone, true},
      {"aten::bitwise_xor_.Scalar", kNone, true},
      {"aten::bitwise_not", kNot, false},
      {"aten::bitwise_not_", kNot, true},
      {"aten::bitwise_not.out", kNot, false},
      {"aten::bitwise_right_shift.Tensor", kRightShiftTensor, false},
      {"aten::bitwise_right_shift_.Tensor", kRightShiftTensor, true},
      {"aten::bitwise_right_shift.Tensor_out", kRightShiftTensor, false},
      {"aten::bitwise_right_shift.Scalar_Tensor", kNone, false},
      {"aten::bitwise_left_shift.Tensor", kNone, false},
      {"aten::bitwise_left_shift_.Tensor", kNone, true},
      {"aten::bitwise_left_shift.Tensor_out", kNone, false},
      {"aten::bitwise_left_shift.Scalar_Tensor", kNone, false},
  };
  return *ops;
}

const bool kRegistered = RegisterPointwiseOps(BitwiseOps());

// A shift by 0 is the identity, which keeps every Partial.
const Rules kIdentity = {"P(sum) -> P(sum)", "P(avg) -> P(avg)", "P(max) -> P(max)",
                         "P(min) -> P(min)", "P(product) -> P(product)"};

Rules LeftShiftScalar(const OpArgs& args) {
  const double s = args.GetDouble("other").value_or(-1);
  if (s == 0) return kIdentity;
  return s > 0 ? Rules{"P(sum) -> P(sum)"} : kNone;
}

Rules RightShiftScalar(const OpArgs& args) {
  return args.GetDouble("other").value_or(-1) == 0 ? kIdentity : kRightShiftScalar;
}

struct ArgDependentOp {
  const char* overload;
  Rules (*partial_rules)(const OpArgs&);
  bool in_place;
};

constexpr ArgDependentOp kShiftScalarOps[] = {
    {"aten::bitwise_left_shift.Tensor_Scalar", LeftShiftScalar, false},
    {"aten::bitwise_left_shift_.Tensor_Scalar", LeftShiftScalar, true},
    {"aten::bitwise_left_shift.Tensor_Scalar_out", LeftShiftScalar, false},
    {"aten::bitwise_right_shift.Tensor_Scalar", RightShiftScalar, false},
    {"aten::bitwise_right_shift_.Tensor_Scalar", RightShiftScalar, true},
    {"aten::bitwise_right_shift.Tensor_Scalar_out", RightShiftScalar, false},
};

const bool kShiftRegistered = [] {
  for (const ArgDependentOp& op : kShiftScalarOps) {
    StrategyRegistrar(op.overload, [&op](const OpArgs& args) {
      return PointwiseRules(args, op.partial_rules(args), op.in_place);
    });
  }
  return true;
}();

}  // namespace
}  // namespace shrt
