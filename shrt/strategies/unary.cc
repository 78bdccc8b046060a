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
// rule. Square is |x|^2: multiplicative only. Bool-valued ops (isnan,
// isinf, isfinite, signbit) have no Partial output.
//
// Ops whose monotonicity depends on a Scalar argument read it from OpArgs:
//   leaky_relu(slope):              non-decreasing iff slope >= 0;
//   elu(alpha, scale, input_scale): scale * x on x > 0 and
//       scale * alpha * (exp(input_scale * x) - 1) on x <= 0 (both 0 at 0),
//       so non-decreasing iff scale >= 0 and scale * alpha * input_scale >= 0
//       (non-increasing for the opposite signs);
//   softplus(beta, threshold):      non-decreasing for beta > 0, up to a
//       drop at the threshold that is negligible only for a large one;
//   logit(eps):                     with eps >= 0 the input is clamped to
//       [eps, 1 - eps] first, so it is non-decreasing on the whole line;
//       with eps None it has no Partial rule (NaN outside [0, 1]);
//   nan_to_num(nan, posinf, neginf): the identity on finite values and
//       monotone on the extended line when posinf/neginf keep their
//       defaults (largest / lowest finite value); it is not linear
//       (an infinite element split across ranks).
#include <cmath>
#include <functional>
#include <vector>

#include "absl/strings/string_view.h"
#include "shrt/registry.h"
#include "shrt/strategies/pointwise_rules.h"

namespace shrt {
namespace {

using Rules = std::vector<absl::string_view>;

const Rules kLinear = {"P(sum) -> P(sum)", "P(avg) -> P(avg)"};
const Rules kIncreasing = {"P(max) -> P(max)", "P(min) -> P(min)"};
const Rules kDecreasing = {"P(max) -> P(min)", "P(min) -> P(max)"};
const Rules kMultiplicative = {"P(product) -> P(product)"};
const Rules kIncreasingFromBelow = {"P(min) -> P(min)"};
const Rules kDecreasingFromBelow = {"P(min) -> P(max)"};
const Rules kNone = {};

Rules Concat(std::initializer_list<const Rules*> parts) {
  Rules out;
  for (const Rules* p : parts) out.insert(out.end(), p->begin(), p->end());
  return out;
}

// Every overload of one op: functional, in place (`op_`) and `op.out`.
void AddVariants(std::vector<PointwiseOp>& ops, const char* functional, const char* in_place,
                 const char* out, const Rules& rules) {
  if (functional != nullptr) ops.push_back({functional, rules, false});
  if (in_place != nullptr) ops.push_back({in_place, rules, true});
  if (out != nullptr) ops.push_back({out, rules, false});
}

const std::vector<PointwiseOp>& UnaryOps() {
  static const auto* ops = [] {
    const Rules linear_decreasing = Concat({&kLinear, &kDecreasing});
    const Rules linear_increasing = Concat({&kLinear, &kIncreasing});
    const Rules sign_rules = Concat({&kIncreasing, &kMultiplicative});
    auto* v = new std::vector<PointwiseOp>{
        {"aten::abs", kMultiplicative, false},
        {"aten::abs_", kMultiplicative, true},
        {"aten::abs.out", kMultiplicative, false},
        {"aten::ceil", kIncreasing, false},
        {"aten::cos", kNone, false},
        {"aten::erf", kIncreasing, false},
        {"aten::erfc", kDecreasing, false},
        {"aten::exp", kIncreasing, false},
        {"aten::exp_", kIncreasing, true},
        {"aten::exp.out", kIncreasing, false},
        {"aten::expm1", kIncreasing, false},
        {"aten::floor", kIncreasing, false},
        {"aten::log", kIncreasingFromBelow, false},
        {"aten::log1p", kIncreasingFromBelow, false},
        {"aten::neg", linear_decreasing, false},
        {"aten::neg_", linear_decreasing, true},
        {"aten::neg.out", linear_decreasing, false},
        {"aten::reciprocal", kMultiplicative, false},
        {"aten::relu", kIncreasing, false},
        {"aten::relu_", kIncreasing, true},
        {"aten::relu.out", kIncreasing, false},
        {"aten::rsqrt", kDecreasingFromBelow, false},
        {"aten::sigmoid", kIncreasing, false},
        {"aten::sign", sign_rules, false},
        {"aten::sin", kNone, false},
        {"aten::sqrt", kIncreasingFromBelow, false},
        {"aten::tanh", kIncreasing, false},
        {"aten::trunc", kIncreasing, false},
        {"aten::positive", Concat({&kLinear, &kIncreasing, &kMultiplicative}), false},
        {"aten::relu6", kIncreasing, false},
        {"aten::selu", kIncreasing, false},
        {"aten::isnan", kNone, false},
        {"aten::isnan.out", kNone, false},
        {"aten::isinf", kNone, false},
        {"aten::isinf.out", kNone, false},
        {"aten::isfinite", kNone, false},
        {"aten::signbit", kNone, false},
        {"aten::signbit.out", kNone, false},
        {"aten::angle", kDecreasing, false},
        {"aten::angle.out", kDecreasing, false},
        {"aten::round.decimals", kIncreasing, false},
        {"aten::round_.decimals", kIncreasing, true},
        {"aten::round.decimals_out", kIncreasing, false},
    };
    // New variants of the ops above.
    AddVariants(*v, nullptr, "aten::ceil_", "aten::ceil.out", kIncreasing);
    AddVariants(*v, nullptr, "aten::cos_", "aten::cos.out", kNone);
    AddVariants(*v, nullptr, "aten::erf_", "aten::erf.out", kIncreasing);
    AddVariants(*v, nullptr, "aten::erfc_", "aten::erfc.out", kDecreasing);
    AddVariants(*v, nullptr, "aten::expm1_", "aten::expm1.out", kIncreasing);
    AddVariants(*v, nullptr, "aten::floor_", "aten::floor.out", kIncreasing);
    AddVariants(*v, nullptr, "aten::log_", "aten::log.out", kIncreasingFromBelow);
    AddVariants(*v, nullptr, "aten::log1p_", "aten::log1p.out", kIncreasingFromBelow);
    AddVariants(*v, nullptr, "aten::reciprocal_", "aten::reciprocal.out", kMultiplicative);
    AddVariants(*v, nullptr, "aten::rsqrt_", "aten::rsqrt.out", kDecreasingFromBelow);
    AddVariants(*v, nullptr, "aten::sigmoid_", "aten::sigmoid.out", kIncreasing);
    AddVariants(*v, nullptr, "aten::sign_", "aten::sign.out", sign_rules);
    AddVariants(*v, nullptr, "aten::sin_", "aten::sin.out", kNone);
    AddVariants(*v, nullptr, "aten::sqrt_", "aten::sqrt.out", kIncreasingFromBelow);
    AddVariants(*v, nullptr, "aten::tanh_", "aten::tanh.out", kIncreasing);
    AddVariants(*v, nullptr, "aten::trunc_", "aten::trunc.out", kIncreasing);
    // New ops.
    AddVariants(*v, "aten::acos", "aten::acos_", "aten::acos.out", kNone);
    AddVariants(*v, "aten::asin", "aten::asin_", "aten::asin.out", kNone);
    AddVariants(*v, "aten::atan", "aten::atan_", "aten::atan.out", kIncreasing);
    AddVariants(*v, "aten::cosh", "aten::cosh_", "aten::cosh.out", kNone);
    AddVariants(*v, "aten::sinh", "aten::sinh_", "aten::sinh.out", kIncreasing);
    AddVariants(*v, "aten::tan", "aten::tan_", "aten::tan.out", kNone);
    AddVariants(*v, "aten::asinh", "aten::asinh_", "aten::asinh.out", kIncreasing);
    AddVariants(*v, "aten::acosh", "aten::acosh_", "aten::acosh.out", kIncreasingFromBelow);
    AddVariants(*v, "aten::atanh", "aten::atanh_", "aten::atanh.out", kNone);
    AddVariants(*v, "aten::exp2", "aten::exp2_", "aten::exp2.out", kIncreasing);
    AddVariants(*v, "aten::log2", "aten::log2_", "aten::log2.out", kIncreasingFromBelow);
    AddVariants(*v, "aten::log10", "aten::log10_", "aten::log10.out", kIncreasingFromBelow);
    AddVariants(*v, "aten::silu", "aten::silu_", "aten::silu.out", kNone);
    AddVariants(*v, "aten::hardtanh", "aten::hardtanh_", "aten::hardtanh.out", kIncreasing);
    AddVariants(*v, "aten::frac", "aten::frac_", "aten::frac.out", kNone);
    AddVariants(*v, "aten::round", "aten::round_", "aten::round.out", kIncreasing);
    AddVariants(*v, "aten::square", "aten::square_", "aten::square.out", kMultiplicative);
    AddVariants(*v, "aten::erfinv", "aten::erfinv_", "aten::erfinv.out", kNone);
    AddVariants(*v, "aten::deg2rad", "aten::deg2rad_", "aten::deg2rad.out", linear_increasing);
    AddVariants(*v, "aten::rad2deg", "aten::rad2deg_", "aten::rad2deg.out", linear_increasing);
    AddVariants(*v, "aten::sgn", "aten::sgn_", "aten::sgn.out", sign_rules);
    AddVariants(*v, "aten::hardsigmoid", "aten::hardsigmoid_", "aten::hardsigmoid.out",
                kIncreasing);
    AddVariants(*v, "aten::hardswish", "aten::hardswish_", "aten::hardswish.out", kNone);
    AddVariants(*v, "aten::mish", "aten::mish_", "aten::mish.out", kNone);
    AddVariants(*v, "aten::sinc", "aten::sinc_", "aten::sinc.out", kNone);
    AddVariants(*v, "aten::i0", "aten::i0_", "aten::i0.out", kNone);
    AddVariants(*v, "aten::digamma", "aten::digamma_", "aten::digamma.out", kNone);
    AddVariants(*v, "aten::lgamma", "aten::lgamma_", "aten::lgamma.out", kNone);
    AddVariants(*v, "aten::gelu", "aten::gelu_", "aten::gelu.out", kNone);
    AddVariants(*v, "aten::celu", "aten::celu_", "aten::celu.out", kIncreasing);
    return v;
  }();
  return *ops;
}

const bool kRegistered = RegisterPointwiseOps(UnaryOps());

// Unary ops whose Partial rules depend on their Scalar arguments.
struct ArgDependentOp {
  const char* overload;
  std::function<Rules(const OpArgs&)> partial_rules;
  bool in_place;
};

Rules LeakyReluRules(const OpArgs& args) {
  return args.GetDouble("negative_slope").value_or(0.01) >= 0 ? kIncreasing : kNone;
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

Rules LogitRules(const OpArgs& args) {
  const std::optional<double> eps = args.GetDouble("eps");
  return eps.has_value() && *eps >= 0 ? kIncreasing : kNone;
}

Rules NanToNumRules(const OpArgs& args) {
  return !args.GetDouble("posinf").has_value() && !args.GetDouble("neginf").has_value()
             ? kIncreasing
             : kNone;
}

const std::vector<ArgDependentOp>& ArgDependentOps() {
  static const auto* ops = new std::vector<ArgDependentOp>{
      {"aten::leaky_relu", LeakyReluRules, false},
      {"aten::leaky_relu_", LeakyReluRules, true},
      {"aten::leaky_relu.out", LeakyReluRules, false},
      {"aten::elu", EluRules, false},
      {"aten::elu_", EluRules, true},
      {"aten::elu.out", EluRules, false},
      {"aten::softplus", SoftplusRules, false},
      {"aten::softplus.out", SoftplusRules, false},
      {"aten::logit", LogitRules, false},
      {"aten::logit_", LogitRules, true},
      {"aten::logit.out", LogitRules, false},
      {"aten::nan_to_num", NanToNumRules, false},
      {"aten::nan_to_num_", NanToNumRules, true},
      {"aten::nan_to_num.out", NanToNumRules, false},
  };
  return *ops;
}

const bool kArgDependentRegistered = [] {
  for (const ArgDependentOp& op : ArgDependentOps()) {
    StrategyRegistrar(op.overload, [&op](const OpArgs& args) {
      return PointwiseRules(args, op.partial_rules(args), op.in_place);
    });
  }
  return true;
}();

}  // namespace
}  // namespace shrt
