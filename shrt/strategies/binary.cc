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
// divisors, see kDiv) and multiplicative; maximum/minimum commute with max/min over ranks;
// fmax/fmin only on integers (NanFree): they drop a nan, which a
// Partial(max/min) nan holds on one rank only (the others' finite parts
// then win);
// logaddexp and logaddexp2 are non-decreasing in both arguments.
// copysign(x, y) = |x| or -|x| by y's sign bit: multiplicative in both
// (|ab| = |a||b|, signbit(cd) = signbit(c) xor signbit(d)) and
// non-decreasing in y for a fixed x, but only off nan: the sign bit of a
// nan y, held on one rank, is no product's or maximum's of the parts, so
// the Tensor overload has these rules on integers only (NanFree); by a
// scalar c with a clear sign
// bit it is |x| (multiplicative); with c < 0 it is -|x| (multiplicative
// only at odd world sizes, not claimed).
// xlogy(x, c) = x * log(c) is linear for c > 0 (monotone by the sign of
// log c); xlogy(c, y) = c * log(y) is monotone from below (log's domain) by
// the sign of c; xlogy(x, y) has no Partial rule (log(y) is -inf or NaN for
// y <= 0, so a split x gives NaN where the full result is finite).
// pow(x, e): multiplicative for integral e ((ab)^e = a^e b^e, also with
// integer wrapping); non-decreasing for odd positive e; for non-integral
// e > 0 non-decreasing on x >= 0, NaN below, so only the P(min) rule of it
// holds (pow(-inf, e) = inf, no evidence); for non-integral e < 0 nothing:
// pow(-inf, e) = 0 (C99 pow), while the other ranks' finite parts of a
// Partial(min) -inf, negative ones among them, give NaN; e == 1 is the
// identity.
// pow(c, y) is monotone in y: non-decreasing for c >= 1, non-increasing for
// 0 <= c <= 1 (0^y is inf, 1, 0 for y <0, =0, >0); nothing for c < 0.
// remainder, fmod, hypot, atan2, pow(Tensor, Tensor) have no Partial rule.
//
// Aliases share their sibling's row (same kernel, same algebra):
// multiply = mul, divide = div (all four overloads), true_divide = div,
// subtract = sub, arctan2 = atan2, special_xlogy = xlogy (self_scalar =
// Scalar_Self, other_scalar = Scalar_Other).
// special_xlog1py(x, y) = x * log1p(y) is xlogy with y shifted by one:
// other_scalar c is linear in x for c > -1 (log1p(c) finite; monotone by
// the sign of log1p(c): non-decreasing for c >= 0, non-increasing for
// -1 < c <= 0); self_scalar c is c * log1p(y), monotone on log1p's domain
// y >= -1 by the sign of c, so only the P(min) rule (parts >= y stay in the
// domain) holds; the Tensor overload has no Partial rule (as xlogy).
// special_zeta(x, q), the Hurwitz zeta sum_k (k + q)^-x: for a scalar
// x = c > 1 it is finite and strictly decreasing in q on q > 0 (each term
// is), so P(min) parts of q (each >= q > 0, in the domain) give P(max);
// only for non-integral c, which makes every q <= 0 NaN/inf (Cephes' zeta):
// for integral c the series is finite between the poles at q = 0, -1, ...
// and not monotone there, so parts of a negative q break the rule;
// for a scalar q = c >= 1 every term (k + c)^-x is non-increasing in x, and
// x <= 1 gives inf/NaN, so P(min) parts of x (each >= x) give P(max) too;
// for c < 1 the first term c^-x grows with x: no rule. The Tensor overload
// has no Partial rule (monotone only for values it cannot see).
// _add_relu(a, b, alpha) = relu(a + alpha * b) would be non-decreasing in
// a and monotone in b by the sign of alpha, but its kernel maps nan to 0
// in its scalar loop (torch 2.13: _add_relu(tensor(nan), tensor(0.)) is
// 0, relu(nan) is nan): a Partial(max) nan, nan on one rank and finite on
// the others, then reduces to the largest finite part. So these Partial
// rules hold on integers only (NanFree), for both overloads; relu is not
// linear, so no P(sum)/P(avg) rule anyway.
// heaviside(x, v) is 0 (x < 0), v (x == 0), 1 (x > 0): with x replicated,
// every rank writes the same constants 0 and 1 off x == 0 and its part of
// v on x == 0. 0 and 1 are fixed by max, min, mean and product over ranks,
// so R, P(op) -> P(op) holds for op = max, min, avg, product (not sum: the
// constant 1 would be summed W times). In x it is non-decreasing only for
// 0 <= v <= 1 (values unseen): no rule.
// ldexp(x, e) = x * 2^e: linear and non-decreasing in x (2^e > 0):
// P(sum)/P(avg)/P(max)/P(min) on x with e replicated, like mul's
// P(sum), R -> P(sum) (DTensor's linearity rule) off overflow: a part of x
// larger than x times 2^e may reach inf where x * 2^e is finite, so the
// spec draws small exponents; in e it is monotone only by x's unseen sign.
// float_power computes pow in float64: Tensor_Scalar has pow.Tensor_Scalar's
// rules, Scalar has pow.Scalar's, Tensor_Tensor none.
// igamma(a, x) (regularized lower incomplete gamma) is non-increasing in
// a > 0 and non-decreasing in x >= 0; igammac = 1 - igamma the reverse. NaN
// below the domain (a < 0 or x < 0), so only P(min) parts (>= the value,
// in the domain) are claimed: igamma P(min), R -> P(max) and
// R, P(min) -> P(min); igammac P(min), R -> P(min) and R, P(min) -> P(max).
// gcd and lcm (integers) commute with no reduction over ranks: no rule.
#include <cmath>
#include <optional>
#include <string>
#include <variant>

#include "shrt/strategies/pointwise_rules.h"

namespace shrt {
namespace {

const Rules& kIncreasing = IncreasingRules();
const Rules& kDecreasing = DecreasingRules();
const Rules kNone = {};


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
const Rules& kDiv = DivRules();
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

// special_xlog1py(x, c) = x * log1p(c): xlogy(x, 1 + c).
Rules Xlog1pyOtherScalar(const OpArgs& args) {
  const double c = Other(args);
  if (!(c > -1)) return kNone;
  Rules out = LinearRules();
  if (c >= 0) Append(out, kIncreasing);
  if (c <= 0) Append(out, kDecreasing);
  return out;
}

Rules ZetaSelfScalar(const OpArgs& args) {
  const double c = args.GetDouble("self").value_or(0.0);
  return c > 1 && c != std::floor(c) ? DecreasingFromBelowRules() : kNone;
}

const Rules kIncreasingSelf = ParseRules({"P(max), R -> P(max)", "P(min), R -> P(min)"});
const Rules kIncreasingOther = ParseRules({"R, P(max) -> P(max)", "R, P(min) -> P(min)"});
const Rules kDecreasingOther = ParseRules({"R, P(max) -> P(min)", "R, P(min) -> P(max)"});
Rules ZetaOtherScalar(const OpArgs& args) {
  return Other(args) >= 1 ? DecreasingFromBelowRules() : kNone;
}

Rules PowTensorScalar(const OpArgs& args) {
  const double e = args.GetDouble("exponent").value_or(1.0);
  if (e == 1) return IdentityRules();
  if (e == 0) return ConstantRules(1.0);  // x^0 = 1 for every x, nan included
  if (e == std::floor(e)) {
    const bool odd_positive = e > 0 && std::fmod(e, 2.0) == 1;
    return odd_positive ? Concat({MultiplicativeRules(), kIncreasing}) : MultiplicativeRules();
  }
  // A fractional power is defined on x >= 0 (nan below): increasing there
  // for e > 0. For e < 0 it decreases there, but a P(min) -inf part beside
  // negative ones gives (-inf)^e = 0 where the others give nan.
  return e > 0 ? IncreasingFromBelowRules() : kNone;
}

Rules PowScalar(const OpArgs& args) {
  const double c = args.GetDouble("self").value_or(0.0);
  Rules out;
  if (c >= 1) Append(out, kIncreasing);
  if (c >= 0 && c <= 1) Append(out, kDecreasing);
  return out;
}

// The orthogonal polynomials special_*_polynomial_*(x, n) of degree n
// (aten/src/ATen/native/Math.h, chebyshev_polynomial_t_forward and its
// kin): a floating n is cast to int64 first, so -1 < n < 1 is degree 0.
// No Partial rule in general (degree >= 2 is neither linear nor monotone);
// degree < 0 gives 0 and degree 0 gives 1 for every x, nan and inf
// included: a constant.
Rules PolynomialNScalar(const OpArgs& args) {
  const std::optional<double> n = args.GetDouble("n");
  if (!n.has_value() || !std::isfinite(*n)) return kNone;
  const double degree = std::trunc(*n);
  if (degree < 0) return ConstantRules(0.0);
  if (degree == 0) return ConstantRules(1.0);
  return kNone;
}

// laguerre_polynomial_l(c, n) for c <= 0: L_n(c) = sum_k C(n, k) (-c)^k / k!
// has no negative term and grows with n (degree < 0 gives 0, below L_0 = 1),
// and the cast of n to int64 is monotone: non-decreasing in n.
Rules LaguerreXScalar(const OpArgs& args) {
  const std::optional<double> x = args.GetDouble("x");
  return x.has_value() && *x <= 0 ? kIncreasing : kNone;
}

// native_dropout_backward(grad, mask, scale) = grad * mask * scale, mask
// bool: linear in grad, monotone by the sign of scale.
const Rules kLinearSelf = ParseRules({"P(sum), R -> P(sum)", "P(avg), R -> P(avg)"});
const Rules kDecreasingSelf = ParseRules({"P(max), R -> P(min)", "P(min), R -> P(max)"});
Rules DropoutBackward(const OpArgs& args) {
  const double scale = args.GetDouble("scale").value_or(0.0);
  Rules out = kLinearSelf;
  if (scale >= 0) Append(out, kIncreasingSelf);
  if (scale <= 0) Append(out, kDecreasingSelf);
  return out;
}

const Rules& kMul = MulRules();
const Rules& kMaximum = MaximumRules();
const Rules& kMinimum = MinimumRules();
const Rules kIncreasingBoth = ParseRules({"P(max), R -> P(max)", "R, P(max) -> P(max)",
                                          "P(min), R -> P(min)", "R, P(min) -> P(min)"});

const Rules kCopysign = ParseRules({"P(product), P(product) -> P(product)",
                                    "R, P(max) -> P(max)", "R, P(min) -> P(min)"});
Rules CopysignTensor(const OpArgs& args) { return NanFree(args) ? kCopysign : kNone; }
Rules FmaxRules(const OpArgs& args) { return NanFree(args) ? kMaximum : kNone; }
Rules FminRules(const OpArgs& args) { return NanFree(args) ? kMinimum : kNone; }

// relu(a + alpha * b), on integers only (the header).
Rules AddReluTensor(const OpArgs& args) {
  if (!NanFree(args)) return kNone;
  const double alpha = Alpha(args);
  if (alpha > 0) return Concat({kIncreasingSelf, kIncreasingOther});
  if (alpha < 0) return Concat({kIncreasingSelf, kDecreasingOther});
  return kIncreasingSelf;
}
Rules AddReluScalar(const OpArgs& args) { return NanFree(args) ? kIncreasing : kNone; }

const Rules kHeaviside = ParseRules({"R, P(max) -> P(max)", "R, P(min) -> P(min)",
                                     "R, P(avg) -> P(avg)", "R, P(product) -> P(product)"});
const Rules kLdexp = ParseRules({"P(sum), R -> P(sum)", "P(avg), R -> P(avg)",
                                 "P(max), R -> P(max)", "P(min), R -> P(min)"});
const Rules kIgamma = ParseRules({"P(min), R -> P(max)", "R, P(min) -> P(min)"});
const Rules kIgammac = ParseRules({"P(min), R -> P(min)", "R, P(min) -> P(max)"});

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
    {"aten::max.other", kMaximum},
    {"aten::fmax", FmaxRules},
    {"aten::minimum", kMinimum},
    {"aten::min.other", kMinimum},
    {"aten::fmin", FminRules},
    {"aten::logaddexp", kIncreasingBoth},
    {"aten::logaddexp2", kIncreasingBoth},
    {"aten::copysign.Tensor", CopysignTensor},
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
    // Aliases.
    {"aten::multiply.Tensor", kMul},
    {"aten::multiply.Scalar", MulScalar},
    {"aten::divide.Tensor", kDiv},
    {"aten::divide.Scalar", DivScalar},
    {"aten::divide.Tensor_mode", DivTensorMode},
    {"aten::divide.Scalar_mode", DivScalar},
    {"aten::true_divide.Tensor", kDiv},
    {"aten::true_divide.Scalar", DivScalar},
    {"aten::subtract.Tensor", SubTensor},
    {"aten::subtract.Scalar", SubScalar},
    {"aten::arctan2", kNone},
    {"aten::special_xlogy", kNone},
    {"aten::special_xlogy.self_scalar", XlogyScalarSelf},
    {"aten::special_xlogy.other_scalar", XlogyScalarOther},
    // Other binary math.
    {"aten::special_xlog1py", kNone},
    {"aten::special_xlog1py.self_scalar", XlogyScalarSelf},
    {"aten::special_xlog1py.other_scalar", Xlog1pyOtherScalar},
    {"aten::special_zeta", kNone},
    {"aten::special_zeta.self_scalar", ZetaSelfScalar},
    {"aten::special_zeta.other_scalar", ZetaOtherScalar},
    {"aten::_add_relu.Tensor", AddReluTensor},
    {"aten::_add_relu.Scalar", AddReluScalar},
    {"aten::heaviside", kHeaviside},
    {"aten::ldexp.Tensor", kLdexp},
    {"aten::float_power.Tensor_Tensor", kNone},
    {"aten::float_power.Tensor_Scalar", PowTensorScalar},
    {"aten::float_power.Scalar", PowScalar},
    {"aten::igamma", kIgamma},
    {"aten::igammac", kIgammac},
    // Orthogonal polynomials (PolynomialNScalar).
    {"aten::special_chebyshev_polynomial_t", kNone},
    {"aten::special_chebyshev_polynomial_t.x_scalar", kNone},
    {"aten::special_chebyshev_polynomial_t.n_scalar", PolynomialNScalar},
    {"aten::special_chebyshev_polynomial_u", kNone},
    {"aten::special_chebyshev_polynomial_u.x_scalar", kNone},
    {"aten::special_chebyshev_polynomial_u.n_scalar", PolynomialNScalar},
    {"aten::special_chebyshev_polynomial_v", kNone},
    {"aten::special_chebyshev_polynomial_v.x_scalar", kNone},
    {"aten::special_chebyshev_polynomial_v.n_scalar", PolynomialNScalar},
    {"aten::special_chebyshev_polynomial_w", kNone},
    {"aten::special_chebyshev_polynomial_w.x_scalar", kNone},
    {"aten::special_chebyshev_polynomial_w.n_scalar", PolynomialNScalar},
    {"aten::special_hermite_polynomial_h", kNone},
    {"aten::special_hermite_polynomial_h.x_scalar", kNone},
    {"aten::special_hermite_polynomial_h.n_scalar", PolynomialNScalar},
    {"aten::special_hermite_polynomial_he", kNone},
    {"aten::special_hermite_polynomial_he.x_scalar", kNone},
    {"aten::special_hermite_polynomial_he.n_scalar", PolynomialNScalar},
    {"aten::special_laguerre_polynomial_l", kNone},
    {"aten::special_laguerre_polynomial_l.x_scalar", LaguerreXScalar},
    {"aten::special_laguerre_polynomial_l.n_scalar", PolynomialNScalar},
    {"aten::special_legendre_polynomial_p", kNone},
    {"aten::special_legendre_polynomial_p.x_scalar", kNone},
    {"aten::special_legendre_polynomial_p.n_scalar", PolynomialNScalar},
    {"aten::special_shifted_chebyshev_polynomial_t", kNone},
    {"aten::special_shifted_chebyshev_polynomial_t.x_scalar", kNone},
    {"aten::special_shifted_chebyshev_polynomial_t.n_scalar", PolynomialNScalar},
    {"aten::special_shifted_chebyshev_polynomial_u", kNone},
    {"aten::special_shifted_chebyshev_polynomial_u.x_scalar", kNone},
    {"aten::special_shifted_chebyshev_polynomial_u.n_scalar", PolynomialNScalar},
    {"aten::special_shifted_chebyshev_polynomial_v", kNone},
    {"aten::special_shifted_chebyshev_polynomial_v.x_scalar", kNone},
    {"aten::special_shifted_chebyshev_polynomial_v.n_scalar", PolynomialNScalar},
    {"aten::special_shifted_chebyshev_polynomial_w", kNone},
    {"aten::special_shifted_chebyshev_polynomial_w.x_scalar", kNone},
    {"aten::special_shifted_chebyshev_polynomial_w.n_scalar", PolynomialNScalar},
    {"aten::native_dropout_backward", DropoutBackward},
    {"aten::gcd", kNone},
    {"aten::lcm", kNone},
});

}  // namespace
}  // namespace shrt
