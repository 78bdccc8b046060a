// Strategies for unary pointwise overloads: every shard rule, plus the
// Partial rules each op's algebra justifies:
//   linear f (neg):                 P(sum) -> P(sum), P(avg) -> P(avg)
//   non-decreasing f (relu, exp):   P(max) -> P(max), P(min) -> P(min)
//   non-increasing f (neg, erfc):   P(max) -> P(min), P(min) -> P(max)
//   multiplicative f (abs, sign, reciprocal): P(product) -> P(product)
// Functions defined on a half-line (sqrt, log, log1p, rsqrt) keep only the
// P(min) rule of their monotonicity: P(min) parts are >= x, so they stay in
// the domain, while P(max) and P(sum) parts leave it (an out-of-domain x is
// attained by some rank, whose NaN then propagates through the min).
// Functions defined on a bounded interval (acos, asin, atanh, erfinv, logit
// without eps) or not monotone (cos, cosh, tan, silu, gelu, mish, hardswish,
// frac, sinc, i0, digamma and lgamma on the negative axis) have no Partial
// rule. ceil, floor, round and trunc are non-decreasing, and the identity
// on integer tensors (every P(op) -> P(op)). Square is |x|^2: multiplicative only. sign and sgn are
// non-decreasing on integers only (NanFree): they map nan to 0, below the
// finite parts that the other ranks hold of a Partial(max) nan. Bool-valued ops (isnan, isinf,
// isfinite, signbit) have no Partial output.
//
// Aliases (PyTorch's alias table: torch/_refs and native_functions.yaml
// name them as the same function) get their sibling's row: absolute = abs,
// arccos/arcsin/arctanh = acos/asin/atanh, arccosh = acosh,
// arcsinh/arctan = asinh/atan, negative = neg, fix = trunc, and the
// torch.special names special_expit = sigmoid, special_exp2/expm1/erf/erfc/
// erfinv/log1p/round/logit/i0/sinc/digamma = the plain op, special_psi =
// digamma, special_gammaln = lgamma, special_polygamma = polygamma,
// special_multigammaln = mvlgamma.
// torch.special functions of their own (DTensor's _pointwise_ops.py lists
// the shard rules for most of them; the Partial rules are ours):
//   ndtr = (1 + erf(x / sqrt 2)) / 2 and log_ndtr = log(ndtr): increasing
//       on the whole line (ndtr > 0), so non-decreasing rules;
//   i1 and modified_bessel_i1 (I1, odd, I1' = (I0 + I2) / 2 > 0): increasing;
//   erfcx = exp(x^2) erfc(x): strictly decreasing on the whole line
//       (erfcx'(x) = 2 x erfcx(x) - 2 / sqrt(pi) < 0), so non-increasing rules;
//   modified_bessel_k0/k1 (K0, K1) and their scaled forms exp(x) K0(x),
//       exp(x) K1(x): defined on x > 0 (NaN below, inf at 0) and decreasing
//       there (K0' = -K1, K1' = -K0 - K1 / x; (e^x K0)' = e^x (K0 - K1) < 0
//       since K1 > K0 > 0, and (e^x K1)' = e^x (K1 (1 - 1/x) - K0) < 0,
//       trivially for x <= 1 and for x > 1 by Segura's bound
//       K1 / K0 < (1/2 + sqrt(1/4 + x^2)) / x, which makes
//       K1 (1 - 1/x) / K0 < (x - 1)(x + 1/2 + 1/(8x)) / x^2 < 1):
//       half-line, so only P(min) -> P(max) (P(min) parts are >= x > 0);
//   ndtri: increasing but defined on [0, 1] only (a bounded interval);
//   i0e = exp(-|x|) I0(x) (even), i1e = exp(-|x|) I1(x) (odd, rises then
//       falls to 0), entr = -x log x (rises then falls on x > 0, -inf
//       below), bessel_j0/j1, bessel_y0/y1 (-inf at 0, nan below),
//       spherical_bessel_j0 (oscillate), airy_ai
//       (oscillates on x < 0): not monotone, no Partial rule.
// polygamma(n, x) has poles at the non-positive integers and for n >= 1
// changes monotonicity across each pole, and mvlgamma(x, p) = sum of
// lgamma(x - i/2) + const is not monotone on its domain x > (p - 1)/2
// (lgamma falls then rises): no Partial rule for either. isposinf and
// isneginf are bool-valued. isreal(x) = (imag(x) == 0) is all True on a
// real dtype whatever the values, so any Partial input gives the full
// output on every rank: P(op) -> R for every reduce op (not for complex
// dtypes, where parts may have imaginary parts that cancel in the sum).
//
// Ops whose monotonicity depends on a Scalar argument read it from OpArgs:
//   leaky_relu(slope):              non-decreasing iff slope >= 0;
//   threshold(threshold, value):    x above threshold, value at or below:
//       non-decreasing iff value <= threshold;
//   elu(alpha, scale, input_scale): scale * x on x > 0 and
//       scale * alpha * (exp(input_scale * x) - 1) on x <= 0 (both 0 at 0),
//       so non-decreasing iff scale >= 0 and scale * alpha * input_scale >= 0
//       (non-increasing for the opposite signs);
//   softplus(beta, threshold):      non-decreasing for beta > 0, up to a
//       drop at the threshold that is negligible only for a large one;
//   logit(eps):                     with eps >= 0 the input is clamped to
//       [eps, 1 - eps] first, so it is non-decreasing on the whole line;
//       with eps None it has no Partial rule (NaN outside [0, 1]);
//   nan_to_num(nan, posinf, neginf): the identity on finite values, but
//       no Partial rule: not linear (an infinite element split across
//       ranks maps to the largest finite value plus the other parts), and
//       not monotone, whatever posinf and neginf are: P(max) of nan is nan
//       on one rank and finite values on the others, and nan maps to the
//       constant `nan` below them.
#include <cmath>
#include <optional>

#include "c10/core/ScalarType.h"
#include "shrt/strategies/pointwise_rules.h"
#include "shrt/strategies/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

const Rules& kLinear = LinearRules();
const Rules& kIncreasing = IncreasingRules();
const Rules& kDecreasing = DecreasingRules();
const Rules& kMultiplicative = MultiplicativeRules();
const Rules& kIncreasingFromBelow = IncreasingFromBelowRules();
const Rules& kDecreasingFromBelow = DecreasingFromBelowRules();
const Rules kNone = {};
const Rules kLinearDecreasing = Concat({kLinear, kDecreasing});
const Rules kLinearIncreasing = Concat({kLinear, kIncreasing});
const Rules kSign = Concat({kIncreasing, kMultiplicative});
Rules SignRules(const OpArgs& args) { return NanFree(args) ? kSign : kMultiplicative; }

// hardtanh(x, min_val, max_val) is clamp(x, min_val, max_val), crossed
// bounds included (pointwise_rules.h ClampScalarRules).
Rules HardtanhRules(const OpArgs& args) {
  return ClampScalarRules(args.GetDouble("min_val").value_or(-1.0),
                          args.GetDouble("max_val").value_or(1.0), NanFree(args));
}

Rules LeakyReluRules(const OpArgs& args) {
  return args.GetDouble("negative_slope").value_or(0.01) >= 0 ? kIncreasing : kNone;
}

// threshold(x, threshold, value) is x above threshold and value at or
// below it: non-decreasing iff value <= threshold (relu: 0, 0).
Rules ThresholdRules(const OpArgs& args) {
  const std::optional<double> threshold = args.GetDouble("threshold");
  const std::optional<double> value = args.GetDouble("value");
  return threshold && value && *value <= *threshold ? kIncreasing : kNone;
}

Rules EluRules(const OpArgs& args) {
  const double alpha = args.GetDouble("alpha").value_or(1.0);
  const double scale = args.GetDouble("scale").value_or(1.0);
  const double input_scale = args.GetDouble("input_scale").value_or(1.0);
  const double negative_slope = scale * alpha * input_scale;
  if (scale >= 0 && negative_slope >= 0) return kIncreasing;
  if (scale <= 0 && negative_slope <= 0) return kDecreasing;
  return kNone;
}

// Above beta * x > threshold, softplus returns x: it drops there by
// log1p(exp(-threshold)) / beta, negligible (relative to x) only for a
// large threshold like the default 20.
Rules SoftplusRules(const OpArgs& args) {
  const double beta = args.GetDouble("beta").value_or(1.0);
  const double threshold = args.GetDouble("threshold").value_or(20.0);
  const bool negligible_drop =
      threshold > 0 && std::log1p(std::exp(-threshold)) <= 1e-7 * threshold;
  return beta > 0 && negligible_drop ? kIncreasing : kNone;
}

// ceil, floor, round, trunc: the identity on an integral input.
Rules RoundingRules(const OpArgs& args) {
  const bool integral = !args.inputs().empty() &&
                        c10::isIntegralType(args.inputs()[0].dtype, /*includeBool=*/false);
  return integral ? IdentityRules() : kIncreasing;
}

// conj_physical: the identity on a real input; on a complex one linear
// over the reals and multiplicative (conj(a b) = conj(a) conj(b)).
const Rules kConjComplex = Concat({kLinear, kMultiplicative});
Rules ConjRules(const OpArgs& args) {
  if (!args.inputs().empty() && c10::isComplexType(args.inputs()[0].dtype)) return kConjComplex;
  return IdentityRules();
}

Rules LogitRules(const OpArgs& args) {
  const std::optional<double> eps = args.GetDouble("eps");
  return eps.has_value() && *eps >= 0 ? kIncreasing : kNone;
}

const Rules kPartialToReplicate = ParseRules(
    {"P(sum) -> R", "P(avg) -> R", "P(max) -> R", "P(min) -> R", "P(product) -> R"});

Rules IsRealRules(const OpArgs& args) {
  if (args.inputs().empty() || c10::isComplexType(args.inputs()[0].dtype)) return kNone;
  return kPartialToReplicate;
}

const bool kRegistered = RegisterPointwiseOps({
    // linear
    {"aten::neg", kLinearDecreasing},
    {"aten::deg2rad", kLinearIncreasing},
    {"aten::rad2deg", kLinearIncreasing},
    {"aten::positive", IdentityRules()},
    {"aten::conj_physical", ConjRules},
    {"aten::_conj", ConjRules},  // a conjugate view: the same values
    // non-decreasing
    {"aten::ceil", RoundingRules},
    {"aten::floor", RoundingRules},
    {"aten::round", RoundingRules},
    {"aten::round.decimals", kIncreasing},
    {"aten::trunc", RoundingRules},
    {"aten::erf", kIncreasing},
    {"aten::exp", kIncreasing},
    {"aten::exp2", kIncreasing},
    {"aten::expm1", kIncreasing},
    {"aten::relu", kIncreasing},
    {"aten::relu6", kIncreasing},
    {"aten::selu", kIncreasing},
    {"aten::celu", kIncreasing},
    {"aten::hardtanh", HardtanhRules},
    {"aten::hardsigmoid", kIncreasing},
    {"aten::sigmoid", kIncreasing},
    {"aten::tanh", kIncreasing},
    {"aten::atan", kIncreasing},
    {"aten::sinh", kIncreasing},
    {"aten::asinh", kIncreasing},
    {"aten::sign", SignRules},
    {"aten::sgn", SignRules},
    // non-increasing
    {"aten::erfc", kDecreasing},
    {"aten::angle", kDecreasing},
    // defined on a half-line
    {"aten::log", kIncreasingFromBelow},
    {"aten::log1p", kIncreasingFromBelow},
    {"aten::log2", kIncreasingFromBelow},
    {"aten::log10", kIncreasingFromBelow},
    {"aten::sqrt", kIncreasingFromBelow},
    {"aten::acosh", kIncreasingFromBelow},
    {"aten::rsqrt", kDecreasingFromBelow},
    // multiplicative
    {"aten::abs", kMultiplicative},
    {"aten::reciprocal", kMultiplicative},
    {"aten::square", kMultiplicative},
    // on a bounded interval, or not monotone
    {"aten::acos", kNone},
    {"aten::asin", kNone},
    {"aten::atanh", kNone},
    {"aten::erfinv", kNone},
    {"aten::cos", kNone},
    {"aten::cosh", kNone},
    {"aten::sin", kNone},
    {"aten::tan", kNone},
    {"aten::silu", kNone},
    {"aten::gelu", kNone},
    {"aten::mish", kNone},
    {"aten::hardswish", kNone},
    {"aten::frac", kNone},
    {"aten::sinc", kNone},
    {"aten::i0", kNone},
    {"aten::digamma", kNone},
    {"aten::lgamma", kNone},
    // bool-valued
    {"aten::isnan", kNone},
    {"aten::isinf", kNone},
    {"aten::isfinite", kNone},
    {"aten::signbit", kNone},
    // aliases: the sibling's row
    {"aten::absolute", kMultiplicative},
    {"aten::arccos", kNone},
    {"aten::arccosh", kIncreasingFromBelow},
    {"aten::arcsin", kNone},
    {"aten::arcsinh", kIncreasing},
    {"aten::arctan", kIncreasing},
    {"aten::arctanh", kNone},
    {"aten::negative", kLinearDecreasing},
    {"aten::fix", RoundingRules},
    {"aten::special_expit", kIncreasing},
    {"aten::special_exp2", kIncreasing},
    {"aten::special_expm1", kIncreasing},
    {"aten::special_erf", kIncreasing},
    {"aten::special_erfc", kDecreasing},
    {"aten::special_erfinv", kNone},
    {"aten::special_gammaln", kNone},
    {"aten::special_digamma", kNone},
    {"aten::special_psi", kNone},
    {"aten::special_sinc", kNone},
    {"aten::special_round", kIncreasing},
    {"aten::special_log1p", kIncreasingFromBelow},
    {"aten::special_logit", LogitRules},
    {"aten::special_i0", kNone},
    // torch.special functions of their own
    {"aten::special_ndtr", kIncreasing},
    {"aten::special_log_ndtr", kIncreasing},
    {"aten::special_i1", kIncreasing},
    {"aten::special_modified_bessel_i1", kIncreasing},
    {"aten::special_erfcx", kDecreasing},
    {"aten::special_modified_bessel_k0", kDecreasingFromBelow},
    {"aten::special_modified_bessel_k1", kDecreasingFromBelow},
    {"aten::special_scaled_modified_bessel_k0", kDecreasingFromBelow},
    {"aten::special_scaled_modified_bessel_k1", kDecreasingFromBelow},
    {"aten::special_ndtri", kNone},
    {"aten::special_i0e", kNone},
    {"aten::special_i1e", kNone},
    {"aten::special_entr", kNone},
    {"aten::special_bessel_j0", kNone},
    {"aten::special_bessel_j1", kNone},
    {"aten::special_bessel_y0", kNone},
    {"aten::special_bessel_y1", kNone},
    {"aten::special_modified_bessel_i0", kNone},
    {"aten::special_spherical_bessel_j0", kNone},
    {"aten::special_airy_ai", kNone},
    {"aten::polygamma", kNone},
    {"aten::special_polygamma", kNone},
    // polygamma_(self, n) orders its arguments otherwise than
    // polygamma(n, self), so torchgen does not group them (op_group.h): a
    // group of one, with the rules of polygamma, which keep self's placement.
    {"aten::polygamma_", kNone},
    {"aten::mvlgamma", kNone},
    {"aten::special_multigammaln", kNone},
    // bool-valued
    {"aten::isposinf", kNone},
    {"aten::isneginf", kNone},
    {"aten::isreal", IsRealRules},
    // monotonicity from a Scalar argument
    {"aten::leaky_relu", LeakyReluRules},
    {"aten::threshold", ThresholdRules},
    {"aten::elu", EluRules},
    {"aten::softplus", SoftplusRules},
    {"aten::logit", LogitRules},
    {"aten::nan_to_num", kNone},
});

// frexp(x) -> (mantissa, exponent): elementwise, so both outputs shard as
// x does; neither is linear nor monotone in x (the mantissa wraps at each
// power of two), so no Partial rule.
absl::StatusOr<Rules> FrexpRules(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() != 1) return rules.Take();
  for (int64_t d = 0; d < args.inputs()[0].ndim(); ++d) {
    rules.Add({Placement::Shard(d)}, {Placement::Shard(d), Placement::Shard(d)});
  }
  return rules.Take();
}
SHRT_REGISTER_STRATEGY("aten::frexp.Tensor", FrexpRules);

}  // namespace
}  // namespace shrt
