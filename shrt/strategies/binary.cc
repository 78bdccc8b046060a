// Strategies for binary pointwise overloads (with broadcasting): every
// shard rule, plus the Partial rules each op's algebra justifies.
//
// add/sub/rsub compute a * self + b * other (add: a = 1, b = alpha; sub:
// a = 1, b = -alpha; rsub: a = -alpha, b = 1):
//   linear in both:            P(sum), P(sum) -> P(sum), P(avg), P(avg) -> P(avg)
//   affine in each:            P(avg), R -> P(avg), R, P(avg) -> P(avg)
//                              (the mean over ranks of a * p_r + b * y is a * x + b * y)
//   monotone in each by the sign of its coefficient: P(max), R -> P(max)
//                              (a >= 0) or P(min) (a <= 0), and the mirrors.
// Scalar overloads are one-argument affine maps f(x) = a * x + b:
//   add/sub.Scalar: a = 1, b = +-alpha * other; rsub.Scalar: a = -alpha,
//   b = other; mul.Scalar: a = other, b = 0; div.Scalar: a = 1 / other
//   (no rule for other == 0: x / 0 is +-inf or NaN by x's sign):
//   P(avg) -> P(avg) always, P(sum) -> P(sum) iff b == 0, monotone by the
//   sign of a.
// div with rounding_mode "trunc"/"floor" (and floor_divide) is no longer
// linear; by a scalar c it is monotone by the sign of c; by a tensor it has
// no Partial rule (the divisor's sign is unknown).
// mul is bilinear and multiplicative; div is linear in self (off zero
// divisors, see kDiv) and multiplicative; maximum/minimum/fmax/fmin commute with max/min over ranks;
// logaddexp and logaddexp2 are non-decreasing in both arguments.
// copysign(x, y) = |x| or -|x| by y's sign bit: multiplicative in both
// (|ab| = |a||b|, signbit(cd) = signbit(c) xor signbit(d)) and
// non-decreasing in y for a fixed x; by a scalar c with a clear sign bit it
// is |x| (multiplicative); with c < 0 it is -|x| (multiplicative only at odd
// world sizes, not claimed).
// xlogy(x, c) = x * log(c) is linear for c > 0 (monotone by the sign of
// log c); xlogy(c, y) = c * log(y) is monotone from below (log's domain) by
// the sign of c; xlogy(x, y) has no Partial rule (log(y) is -inf or NaN for
// y <= 0, so a split x gives NaN where the full result is finite).
// pow(x, e): multiplicative for integral e ((ab)^e = a^e b^e, also with
// integer wrapping); non-decreasing for odd positive e; for non-integral
// e > 0 (< 0) non-decreasing (non-increasing) on x >= 0, NaN below, so only
// the P(min) rule of it holds; e == 1 is the identity.
// pow(c, y) is monotone in y: non-decreasing for c >= 1, non-increasing for
// 0 <= c <= 1 (0^y is inf, 1, 0 for y <0, =0, >0); nothing for c < 0.
// remainder, fmod, hypot, atan2, pow(Tensor, Tensor) have no Partial rule.
#include <cmath>
#include <functional>
#include <vector>

#include "absl/strings/string_view.h"
#include "shrt/registry.h"
#include "shrt/strategies/pointwise_rules.h"

namespace shrt {
namespace {

using Rules = std::vector<absl::string_view>;

const Rules kIncreasing = {"P(max) -> P(max)", "P(min) -> P(min)"};
const Rules kDecreasing = {"P(max) -> P(min)", "P(min) -> P(max)"};

void Append(Rules& out, const Rules& more) { out.insert(out.end(), more.begin(), more.end()); }

// The Partial rules of a * self + b * other.
Rules TwoTensorAffineRules(double a, double b) {
  Rules out = {"P(sum), P(sum) -> P(sum)", "P(avg), P(avg) -> P(avg)", "P(avg), R -> P(avg)",
               "R, P(avg) -> P(avg)"};
  if (a >= 0) Append(out, {"P(max), R -> P(max)", "P(min), R -> P(min)"});
  if (a <= 0) Append(out, {"P(max), R -> P(min)", "P(min), R -> P(max)"});
  if (b >= 0) Append(out, {"R, P(max) -> P(max)", "R, P(min) -> P(min)"});
  if (b <= 0) Append(out, {"R, P(max) -> P(min)", "R, P(min) -> P(max)"});
  return out;
}

// The Partial rules of the one-tensor affine map a * x + b.
Rules ScalarAffineRules(double a, double b) {
  Rules out = {"P(avg) -> P(avg)"};
  if (b == 0) out.push_back("P(sum) -> P(sum)");
  if (a == 1 && b == 0) out.push_back("P(product) -> P(product)");  // the identity
  if (a >= 0) Append(out, kIncreasing);
  if (a <= 0) Append(out, kDecreasing);
  return out;
}

// The Partial rules of a one-tensor map that is monotone by the sign of c.
Rules MonotoneBySign(double c) {
  if (c > 0) return kIncreasing;
  if (c < 0) return kDecreasing;
  return {};
}

double Alpha(const OpArgs& args) { return args.GetDouble("alpha").value_or(1.0); }
double Other(const OpArgs& args) { return args.GetDouble("other").value_or(0.0); }
bool HasMode(const OpArgs& args) {
  const ArgValue* mode = args.Find("rounding_mode");
  return mode != nullptr && std::holds_alternative<std::string>(*mode);
}

Rules AddTensor(const OpArgs& args) { return TwoTensorAffineRules(1, Alpha(args)); }
Rules SubTensor(const OpArgs& args) { return TwoTensorAffineRules(1, -Alpha(args)); }
Rules RsubTensor(const OpArgs& args) { return TwoTensorAffineRules(-Alpha(args), 1); }
Rules AddScalar(const OpArgs& args) { return ScalarAffineRules(1, Alpha(args) * Other(args)); }
Rules SubScalar(const OpArgs& args) { return ScalarAffineRules(1, -Alpha(args) * Other(args)); }
Rules RsubScalar(const OpArgs& args) { return ScalarAffineRules(-Alpha(args), Other(args)); }
Rules MulScalar(const OpArgs& args) { return ScalarAffineRules(Other(args), 0); }
Rules DivScalar(const OpArgs& args) {
  const double c = Other(args);
  if (c == 0) return {};
  if (HasMode(args)) return MonotoneBySign(c);  // trunc(x / c), floor(x / c)
  return ScalarAffineRules(1 / c, 0);
}
Rules FloorDivideScalar(const OpArgs& args) { return MonotoneBySign(Other(args)); }

// DTensor's linearity rule P(sum), R -> P(sum) holds off zero divisors
// only (the parts of x / 0 are +-inf and sum to NaN); like DTensor, it is
// claimed, and the specs draw divisors from the "nonzero" recipe.
const Rules kDiv = {"P(sum), R -> P(sum)", "P(avg), R -> P(avg)",
                    "P(product), P(product) -> P(product)"};
Rules DivTensorMode(const OpArgs& args) { return HasMode(args) ? Rules{} : kDiv; }

Rules CopysignScalar(const OpArgs& args) {
  return std::signbit(Other(args)) ? Rules{} : Rules{"P(product) -> P(product)"};
}

Rules XlogyScalarOther(const OpArgs& args) {
  const double c = Other(args);
  if (!(c > 0)) return {};
  Rules out = {"P(sum) -> P(sum)", "P(avg) -> P(avg)"};
  if (c >= 1) Append(out, kIncreasing);
  if (c <= 1) Append(out, kDecreasing);
  return out;
}

Rules XlogyScalarSelf(const OpArgs& args) {
  const double c = args.GetDouble("self").value_or(0.0);
  if (c > 0) return {"P(min) -> P(min)"};
  if (c < 0) return {"P(min) -> P(max)"};
  return {};
}

Rules PowTensorScalar(const OpArgs& args) {
  const double e = args.GetDouble("exponent").value_or(1.0);
  Rules out;
  if (e == 1) return {"P(sum) -> P(sum)", "P(avg) -> P(avg)", "P(max) -> P(max)",
                      "P(min) -> P(min)", "P(product) -> P(product)"};
  if (e == std::floor(e)) {
    out.push_back("P(product) -> P(product)");
    if (e > 0 && std::fmod(e, 2.0) == 1) Append(out, kIncreasing);
  } else if (e > 0) {
    out.push_back("P(min) -> P(min)");
  } else {
    out.push_back("P(min) -> P(max)");
  }
  return out;
}

Rules PowScalar(const OpArgs& args) {
  const double c = args.GetDouble("self").value_or(0.0);
  Rules out;
  if (c >= 1) Append(out, kIncreasing);
  if (c >= 0 && c <= 1) Append(out, kDecreasing);
  return out;
}

const Rules kMul = {"P(sum), R -> P(sum)", "R, P(sum) -> P(sum)", "P(avg), R -> P(avg)",
                    "R, P(avg) -> P(avg)", "P(product), P(product) -> P(product)"};
const Rules kMaximum = {"P(max), P(max) -> P(max)", "P(max), R -> P(max)",
                        "R, P(max) -> P(max)", "P(min), R -> P(min)", "R, P(min) -> P(min)"};
const Rules kMinimum = {"P(min), P(min) -> P(min)", "P(min), R -> P(min)",
                        "R, P(min) -> P(min)", "P(max), R -> P(max)", "R, P(max) -> P(max)"};
const Rules kIncreasingBoth = {"P(max), R -> P(max)", "R, P(max) -> P(max)",
                               "P(min), R -> P(min)", "R, P(min) -> P(min)"};
const Rules kCopysign = {"P(product), P(product) -> P(product)", "R, P(max) -> P(max)",
                         "R, P(min) -> P(min)"};
const Rules kNone = {};

const std::vector<PointwiseOp>& BinaryOps() {
  static const auto* ops = new std::vector<PointwiseOp>{
      {"aten::atan2", kNone, false},
      {"aten::atan2_", kNone, true},
      {"aten::atan2.out", kNone, false},
      {"aten::div.Tensor", kDiv, false},
      {"aten::div_.Tensor", kDiv, true},
      {"aten::div.out", kDiv, false},
      {"aten::logaddexp", kIncreasingBoth, false},
      {"aten::logaddexp.out", kIncreasingBoth, false},
      {"aten::logaddexp2", kIncreasingBoth, false},
      {"aten::logaddexp2.out", kIncreasingBoth, false},
      {"aten::maximum", kMaximum, false},
      {"aten::maximum.out", kMaximum, false},
      {"aten::fmax", kMaximum, false},
      {"aten::fmax.out", kMaximum, false},
      {"aten::minimum", kMinimum, false},
      {"aten::minimum.out", kMinimum, false},
      {"aten::fmin", kMinimum, false},
      {"aten::fmin.out", kMinimum, false},
      {"aten::mul.Tensor", kMul, false},
      {"aten::mul_.Tensor", kMul, true},
      {"aten::mul.out", kMul, false},
      {"aten::pow.Tensor_Tensor", kNone, false},
      {"aten::pow_.Tensor", kNone, true},
      {"aten::pow.Tensor_Tensor_out", kNone, false},
      {"aten::copysign.Tensor", kCopysign, false},
      {"aten::copysign_.Tensor", kCopysign, true},
      {"aten::copysign.out", kCopysign, false},
      {"aten::hypot", kNone, false},
      {"aten::hypot_", kNone, true},
      {"aten::hypot.out", kNone, false},
      {"aten::xlogy.Tensor", kNone, false},
      {"aten::xlogy_.Tensor", kNone, true},
      {"aten::xlogy.OutTensor", kNone, false},
      {"aten::remainder.Tensor", kNone, false},
      {"aten::remainder_.Tensor", kNone, true},
      {"aten::remainder.Tensor_out", kNone, false},
      {"aten::remainder.Scalar", kNone, false},
      {"aten::remainder_.Scalar", kNone, true},
      {"aten::remainder.Scalar_out", kNone, false},
      {"aten::remainder.Scalar_Tensor", kNone, false},
      {"aten::fmod.Tensor", kNone, false},
      {"aten::fmod_.Tensor", kNone, true},
      {"aten::fmod.Tensor_out", kNone, false},
      {"aten::fmod.Scalar", kNone, false},
      {"aten::fmod_.Scalar", kNone, true},
      {"aten::fmod.Scalar_out", kNone, false},
      {"aten::floor_divide", kNone, false},
      {"aten::floor_divide_.Tensor", kNone, true},
      {"aten::floor_divide.out", kNone, false},
  };
  return *ops;
}

// Binary ops whose Partial rules depend on their Scalar arguments.
struct ArgDependentOp {
  const char* overload;
  std::function<Rules(const OpArgs&)> partial_rules;
  bool in_place;
};

const std::vector<ArgDependentOp>& ArgDependentOps() {
  static const auto* ops = new std::vector<ArgDependentOp>{
      {"aten::add.Tensor", AddTensor, false},
      {"aten::add_.Tensor", AddTensor, true},
      {"aten::add.out", AddTensor, false},
      {"aten::sub.Tensor", SubTensor, false},
      {"aten::sub_.Tensor", SubTensor, true},
      {"aten::sub.out", SubTensor, false},
      {"aten::rsub.Tensor", RsubTensor, false},
      {"aten::rsub.Tensor_out", RsubTensor, false},
      {"aten::add.Scalar", AddScalar, false},
      {"aten::add_.Scalar", AddScalar, true},
      {"aten::add.Scalar_out", AddScalar, false},
      {"aten::sub.Scalar", SubScalar, false},
      {"aten::sub_.Scalar", SubScalar, true},
      {"aten::sub.Scalar_out", SubScalar, false},
      {"aten::rsub.Scalar", RsubScalar, false},
      {"aten::rsub.Scalar_out", RsubScalar, false},
      {"aten::mul.Scalar", MulScalar, false},
      {"aten::mul_.Scalar", MulScalar, true},
      {"aten::mul.Scalar_out", MulScalar, false},
      {"aten::div.Scalar", DivScalar, false},
      {"aten::div_.Scalar", DivScalar, true},
      {"aten::div.Scalar_out", DivScalar, false},
      {"aten::div.Scalar_mode", DivScalar, false},
      {"aten::div_.Scalar_mode", DivScalar, true},
      {"aten::div.Scalar_mode_out", DivScalar, false},
      {"aten::div.Tensor_mode", DivTensorMode, false},
      {"aten::div_.Tensor_mode", DivTensorMode, true},
      {"aten::div.out_mode", DivTensorMode, false},
      {"aten::floor_divide.Scalar", FloorDivideScalar, false},
      {"aten::floor_divide_.Scalar", FloorDivideScalar, true},
      {"aten::copysign.Scalar", CopysignScalar, false},
      {"aten::copysign_.Scalar", CopysignScalar, true},
      {"aten::copysign.Scalar_out", CopysignScalar, false},
      {"aten::xlogy.Scalar_Other", XlogyScalarOther, false},
      {"aten::xlogy_.Scalar_Other", XlogyScalarOther, true},
      {"aten::xlogy.OutScalar_Other", XlogyScalarOther, false},
      {"aten::xlogy.Scalar_Self", XlogyScalarSelf, false},
      {"aten::xlogy.OutScalar_Self", XlogyScalarSelf, false},
      {"aten::pow.Tensor_Scalar", PowTensorScalar, false},
      {"aten::pow_.Scalar", PowTensorScalar, true},
      {"aten::pow.Tensor_Scalar_out", PowTensorScalar, false},
      {"aten::pow.Scalar", PowScalar, false},
      {"aten::pow.Scalar_out", PowScalar, false},
  };
  return *ops;
}

const bool kRegistered = [] {
  for (const ArgDependentOp& op : ArgDependentOps()) {
    StrategyRegistrar(op.overload, [&op](const OpArgs& args) {
      return PointwiseRules(args, op.partial_rules(args), op.in_place);
    });
  }
  return RegisterPointwiseOps(BinaryOps());
}();

}  // namespace
}  // namespace shrt
