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
#include <string>
#include <variant>

#include "shrt/strategies/pointwise_rules.h"

namespace shrt {
namespace {

const Rules& kIncreasing = IncreasingRules();
const Rules& kDecreasing = DecreasingRules();
const Rules kNone = {};

// The Partial rules of the one-tensor affine map a * x + b.
const Rules kAvg = ParseRules({"P(avg) -> P(avg)"});
const Rules kSum = ParseRules({"P(sum) -> P(sum)"});
Rules ScalarAffineRules(double a, double b) {
  Rules out = kAvg;
  if (b == 0) Append(out, kSum);
  if (a == 1 && b == 0) Append(out, MultiplicativeRules());  // the identity
  if (a >= 0) Append(out, kIncreasing);
  if (a <= 0) Append(out, kDecreasing);
  return out;
}

// The Partial rules of a one-tensor map that is monotone by the sign of c.
Rules MonotoneBySign(double c) {
  if (c > 0) return kIncreasing;
  if (c < 0) return kDecreasing;
  return kNone;
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
  if (c == 0) return kNone;
  if (HasMode(args)) return MonotoneBySign(c);  // trunc(x / c), floor(x / c)
  return ScalarAffineRules(1 / c, 0);
}
Rules FloorDivideScalar(const OpArgs& args) { return MonotoneBySign(Other(args)); }

// DTensor's linearity rule P(sum), R -> P(sum) holds off zero divisors
// only (the parts of x / 0 are +-inf and sum to NaN); like DTensor, it is
// claimed, and the specs draw divisors from the "nonzero" recipe.
const Rules kDiv = ParseRules({"P(sum), R -> P(sum)", "P(avg), R -> P(avg)",
                               "P(product), P(product) -> P(product)"});
Rules DivTensorMode(const OpArgs& args) { return HasMode(args) ? kNone : kDiv; }

Rules CopysignScalar(const OpArgs& args) {
  return std::signbit(Other(args)) ? kNone : MultiplicativeRules();
}

Rules XlogyScalarOther(const OpArgs& args) {
  const double c = Other(args);
  if (!(c > 0)) return kNone;
  Rules out = LinearRules();
  if (c >= 1) Append(out, kIncreasing);
  if (c <= 1) Append(out, kDecreasing);
  return out;
}

Rules XlogyScalarSelf(const OpArgs& args) {
  const double c = args.GetDouble("self").value_or(0.0);
  if (c > 0) return IncreasingFromBelowRules();
  if (c < 0) return DecreasingFromBelowRules();
  return kNone;
}

Rules PowTensorScalar(const OpArgs& args) {
  const double e = args.GetDouble("exponent").value_or(1.0);
  if (e == 1) return IdentityRules();
  if (e == std::floor(e)) {
    const bool odd_positive = e > 0 && std::fmod(e, 2.0) == 1;
    return odd_positive ? Concat({MultiplicativeRules(), kIncreasing}) : MultiplicativeRules();
  }
  return e > 0 ? IncreasingFromBelowRules() : DecreasingFromBelowRules();
}

Rules PowScalar(const OpArgs& args) {
  const double c = args.GetDouble("self").value_or(0.0);
  Rules out;
  if (c >= 1) Append(out, kIncreasing);
  if (c >= 0 && c <= 1) Append(out, kDecreasing);
  return out;
}

const Rules kMul = ParseRules({"P(sum), R -> P(sum)", "R, P(sum) -> P(sum)", "P(avg), R -> P(avg)",
                               "R, P(avg) -> P(avg)", "P(product), P(product) -> P(product)"});
const Rules kMaximum = ParseRules({"P(max), P(max) -> P(max)", "P(max), R -> P(max)",
                                   "R, P(max) -> P(max)", "P(min), R -> P(min)",
                                   "R, P(min) -> P(min)"});
const Rules kMinimum = ParseRules({"P(min), P(min) -> P(min)", "P(min), R -> P(min)",
                                   "R, P(min) -> P(min)", "P(max), R -> P(max)",
                                   "R, P(max) -> P(max)"});
const Rules kIncreasingBoth = ParseRules({"P(max), R -> P(max)", "R, P(max) -> P(max)",
                                          "P(min), R -> P(min)", "R, P(min) -> P(min)"});
const Rules kCopysign = ParseRules({"P(product), P(product) -> P(product)",
                                    "R, P(max) -> P(max)", "R, P(min) -> P(min)"});

const bool kRegistered = RegisterPointwiseOps({
    {"aten::add.Tensor", AddTensor},
    {"aten::sub.Tensor", SubTensor},
    {"aten::rsub.Tensor", RsubTensor},
    {"aten::add.Scalar", AddScalar},
    {"aten::sub.Scalar", SubScalar},
    {"aten::rsub.Scalar", RsubScalar},
    {"aten::mul.Tensor", kMul},
    {"aten::mul.Scalar", MulScalar},
    {"aten::div.Tensor", kDiv},
    {"aten::div.Scalar", DivScalar},
    {"aten::div.Tensor_mode", DivTensorMode},
    {"aten::div.Scalar_mode", DivScalar},
    {"aten::floor_divide", kNone},
    {"aten::floor_divide.Scalar", FloorDivideScalar},
    {"aten::maximum", kMaximum},
    {"aten::fmax", kMaximum},
    {"aten::minimum", kMinimum},
    {"aten::fmin", kMinimum},
    {"aten::logaddexp", kIncreasingBoth},
    {"aten::logaddexp2", kIncreasingBoth},
    {"aten::copysign.Tensor", kCopysign},
    {"aten::copysign.Scalar", CopysignScalar},
    {"aten::xlogy.Tensor", kNone},
    {"aten::xlogy.Scalar_Other", XlogyScalarOther},
    {"aten::xlogy.Scalar_Self", XlogyScalarSelf},
    {"aten::pow.Tensor_Tensor", kNone},
    {"aten::pow.Tensor_Scalar", PowTensorScalar},
    {"aten::pow.Scalar", PowScalar},
    {"aten::atan2", kNone},
    {"aten::hypot", kNone},
    {"aten::remainder.Tensor", kNone},
    {"aten::remainder.Scalar", kNone},
    {"aten::remainder.Scalar_Tensor", kNone},
    {"aten::fmod.Tensor", kNone},
    {"aten::fmod.Scalar", kNone},
});

}  // namespace
}  // namespace shrt
