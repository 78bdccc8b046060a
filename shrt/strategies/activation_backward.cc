// Strategies for the backward kernels of pointwise activations, the
// shrink activations, prelu and glu (forward and backward).
//
// Pointwise backward ops. Each computes grad_input = g * c(x) elementwise
// (g = grad_output, x = self, output or result, with broadcasting), with a
// coefficient c that depends only on x and the op's Scalars. Shard rules are
// those of every pointwise op (pointwise_rules.h; DTensor lists
// gelu_backward, sigmoid_backward, silu_backward, tanh_backward and
// threshold_backward among its plain pointwise ops in
// torch/distributed/tensor/_ops/_pointwise_ops.py). Partial rules come
// from g alone, x replicated (c(x) is then the same on every rank):
//   linear in g:    P(sum), R -> P(sum), P(avg), R -> P(avg) for every op
//                   (sum_r g_r * c = c * sum_r g_r). Where c(x) is inf or
//                   NaN (logit_backward at x = 0 or 1 or outside [0, 1],
//                   elu/softplus overflowing exp) the full output is
//                   non-finite too, which carries no evidence (DESIGN.md §3).
//   c >= 0:         P(max), R -> P(max), P(min), R -> P(min) (g -> c * g is
//                   non-decreasing; c = 0 gives 0 on every rank);
//   c <= 0:         P(max), R -> P(min), P(min), R -> P(max);
//   c in {0, 1}:    P(product), R -> P(product) (prod_r c * g_r =
//                   c^W * prod_r g_r, and c^W = c only for c in {0, 1}).
//   c = [x > t]:    P(product), P(min) -> P(product) on integers only
//                   (NanFree): P(min) parts x_r are >= x and one equals
//                   x, so x > t iff every x_r > t, but a rank whose
//                   x_r <= t writes 0 where another holds an inf part of
//                   g, and 0 * inf is nan.
// The coefficients:
//   threshold_backward(t):     c = [x > t]                   in {0, 1}
//   hardtanh_backward(lo, hi): c = [lo < x < hi]             in {0, 1}
//   hardshrink_backward(l), softshrink_backward(l):
//                              c = [x < -l or x > l]         in {0, 1}
//   leaky_relu_backward(s):    c = 1 (x > 0) or s (x <= 0):  s >= 0 gives
//                              c >= 0, s = 0 gives c = [x > 0]; s < 0
//                              has no order rule (c takes both signs).
//   hardsigmoid_backward:      c = 1/6 on (-3, 3), 0 outside: c >= 0.
//   softplus_backward(b, t):   c = 1 for b * x > t, else z / (z + 1) with
//                              z = exp(b * x) > 0: c in [0, 1] for any b, t.
//   logit_backward(eps):       c = 1 / (x (1 - x)) on [0, 1] (NaN outside)
//                              or on [eps, 1 - eps] (0 outside): c >= 0.
//   log_sigmoid_backward(g, x, buffer): c = 1 / (1 + z) (x < 0) or
//                              z / (1 + z) (x >= 0), z = buffer. The CPU
//                              forward returns buffer = exp(-|x|) in (0, 1],
//                              so c in (0, 1): c >= 0 for every buffer
//                              log_sigmoid_forward can produce (the spec
//                              draws it from "positive"); rules carry the
//                              buffer replicated like x.
//   elu_backward(alpha, scale, input_scale, is_result=false): c = scale
//                              (x > 0) or input_scale * alpha * scale *
//                              exp(input_scale * x) (x <= 0): c >= 0 iff
//                              scale >= 0 and input_scale * alpha * scale
//                              >= 0, c <= 0 for the opposite signs. With
//                              is_result, c = input_scale * (y + alpha *
//                              scale) on y <= 0 takes both signs for
//                              arbitrary y: linear only.
//   sigmoid_backward(g, y) = g * y (1 - y), tanh_backward(g, y) =
//   g * (1 - y^2), gelu_backward, silu_backward, mish_backward,
//   hardswish_backward: c takes both signs (for the derivatives of gelu,
//   silu, mish and hardswish as well): linear only.
// gelu_backward's float32 (and bfloat16) CPU kernel goes through oneDNN
// when self is contiguous with more than one element, and oneDNN rejects
// a grad_output whose shape differs from self's (no broadcasting): the
// shard rules with grad_output sharded and self replicated (a size-1 dim
// of self broadcast against an empty grad_output chunk) are dropped there.
//
// Forward shrink ops (pointwise, one tensor):
//   hardshrink(l) = x for |x| > l, else 0; softshrink(l) = x - l, x + l or 0.
//   For l > 0 both are non-decreasing (hardshrink jumps upwards at +-l):
//   P(max) -> P(max), P(min) -> P(min). For l <= 0 hardshrink is the
//   identity (its zero band [-l, l] is empty or {0}) and so is softshrink
//   at l = 0 (negative l is rejected): every P(op) -> P(op).
//
// prelu(x, w) = x (x >= 0) or w_c * x (x < 0), with w of one element
// (0-d or [1]) or of C = x.size(1) elements (channel dim 1; x of rank < 2
// has one channel). Shard rules: every dim of x but 1 with w replicated;
// dim 1 with w S(0) when w is 1-d of size C (each rank's channels meet
// their own weights), with w replicated when w has one element (it
// broadcasts to any channel count). Partial in w, x replicated: prelu is
// relu(x) + w * min(x, 0), affine in w (R, P(avg) -> P(avg)) and
// non-increasing in w (min(x, 0) <= 0): R, P(max) -> P(min) and
// R, P(min) -> P(max).
// glu(x, dim) = a * sigmoid(b) with a, b the halves of x along dim:
// sharding dim would halve each rank's chunk instead of x, so only the
// other dims shard (ShardOffDimRules; dim's size is even, never 1). It is
// not linear or monotone in x: no Partial rule. glu_backward(g, x, dim)
// shards the same way and is linear in g for a fixed x (its a-half is
// g * sigmoid(b), its b-half g * a * sigmoid(b) (1 - sigmoid(b))):
// P(sum), R -> P(sum), P(avg), R -> P(avg). Its kernel broadcasts
// grad_output against each half of self, so on a size-1 dim of self (not
// dim) R, S(d) -> S(d) holds too: ranks past the first get an empty self
// chunk, and broadcast the full size-1 grad_output to it.
#include <cstdint>
#include <optional>
#include <vector>

#include "shrt/strategies/pointwise_rules.h"
#include "shrt/strategies/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

using P = Placement;

const Rules kLinearInGrad = ParseRules({"P(sum), R -> P(sum)", "P(avg), R -> P(avg)"});
const Rules kIncreasingInGrad = ParseRules({"P(max), R -> P(max)", "P(min), R -> P(min)"});
const Rules kDecreasingInGrad = ParseRules({"P(max), R -> P(min)", "P(min), R -> P(max)"});
const Rules kProductInGrad = ParseRules({"P(product), R -> P(product)"});
// c >= 0
const Rules kNonNegative = Concat({kLinearInGrad, kIncreasingInGrad});
// c in {0, 1}
const Rules kMask = Concat({kLinearInGrad, kIncreasingInGrad, kProductInGrad});
// c = [x > t]
const Rules kThresholdMask =
    Concat({kMask, ParseRules({"P(product), P(min) -> P(product)"})});
Rules ThresholdMask(const OpArgs& args) { return NanFree(args) ? kThresholdMask : kMask; }
// log_sigmoid_backward: g, x, buffer; c >= 0.
const Rules kLogSigmoid = ParseRules({"P(sum), R, R -> P(sum)", "P(avg), R, R -> P(avg)",
                                      "P(max), R, R -> P(max)", "P(min), R, R -> P(min)"});

Rules LeakyReluBackward(const OpArgs& args) {
  const double s = args.GetDouble("negative_slope").value_or(0.01);
  if (s == 0) return ThresholdMask(args);
  if (s > 0) return kNonNegative;
  return kLinearInGrad;
}

Rules EluBackward(const OpArgs& args) {
  if (args.GetBool("is_result").value_or(false)) return kLinearInGrad;
  const double alpha = args.GetDouble("alpha").value_or(1.0);
  const double scale = args.GetDouble("scale").value_or(1.0);
  const double input_scale = args.GetDouble("input_scale").value_or(1.0);
  const double negative_side = input_scale * alpha * scale;
  if (scale >= 0 && negative_side >= 0) return kNonNegative;
  if (scale <= 0 && negative_side <= 0) return Concat({kLinearInGrad, kDecreasingInGrad});
  return kLinearInGrad;
}

Rules Hardshrink(const OpArgs& args) {
  const double l = args.GetDouble("lambd").value_or(0.5);
  return l <= 0 ? IdentityRules() : IncreasingRules();
}

Rules Softshrink(const OpArgs& args) {
  const double l = args.GetDouble("lambd").value_or(0.5);
  return l == 0 ? IdentityRules() : IncreasingRules();
}

const bool kPointwiseRegistered = RegisterPointwiseOps({
    {"aten::threshold_backward", ThresholdMask},
    {"aten::hardtanh_backward", kMask},
    {"aten::hardshrink_backward", kMask},
    {"aten::softshrink_backward", kMask},
    {"aten::leaky_relu_backward", LeakyReluBackward},
    {"aten::hardsigmoid_backward", kNonNegative},
    {"aten::softplus_backward", kNonNegative},
    {"aten::logit_backward", kNonNegative},
    {"aten::log_sigmoid_backward", kLogSigmoid},
    {"aten::elu_backward", EluBackward},
    {"aten::sigmoid_backward", kLinearInGrad},
    {"aten::tanh_backward", kLinearInGrad},
    {"aten::silu_backward", kLinearInGrad},
    {"aten::mish_backward", kLinearInGrad},
    {"aten::hardswish_backward", kLinearInGrad},
    {"aten::hardshrink", Hardshrink},
    {"aten::softshrink", Softshrink},
});

// prelu's channel dim on x, or nullopt when x has one channel (rank < 2).
std::optional<int64_t> ChannelDim(const TensorMeta& x) {
  if (x.ndim() < 2) return std::nullopt;
  return 1;
}

int64_t Numel(const TensorMeta& t) {
  int64_t n = 1;
  for (int64_t s : t.sizes) n *= s;
  return n;
}

absl::StatusOr<std::vector<Rule>> PreluRules(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() != 2) return rules.Take();
  const TensorMeta& x = args.inputs()[0];
  const TensorMeta& w = args.inputs()[1];
  const std::optional<int64_t> channel = ChannelDim(x);
  for (int64_t d = 0; d < x.ndim(); ++d) {
    if (channel && d == *channel) continue;
    rules.Add({P::Shard(d), P::Replicate()}, {P::Shard(d)});
  }
  if (channel) {
    const int64_t c = x.sizes[*channel];
    if (w.ndim() == 1 && w.sizes[0] == c) {
      rules.Add({P::Shard(*channel), P::Shard(0)}, {P::Shard(*channel)});
    }
    if (Numel(w) == 1) rules.Add({P::Shard(*channel), P::Replicate()}, {P::Shard(*channel)});
  }
  rules.Add({P::Replicate(), P::Partial(ReduceOp::kAvg)}, {P::Partial(ReduceOp::kAvg)});
  rules.Add({P::Replicate(), P::Partial(ReduceOp::kMax)}, {P::Partial(ReduceOp::kMin)});
  rules.Add({P::Replicate(), P::Partial(ReduceOp::kMin)}, {P::Partial(ReduceOp::kMax)});
  return rules.Take();
}

absl::StatusOr<std::vector<Rule>> GeluBackwardRules(const OpArgs& args) {
  std::vector<Rule> rules;
  const bool onednn = args.inputs().size() == 2 &&
                      (args.inputs()[1].dtype == c10::ScalarType::Float ||
                       args.inputs()[1].dtype == c10::ScalarType::BFloat16) &&
                      Numel(args.inputs()[1]) > 1;
  for (Rule& rule : PointwiseShardRules(args)) {
    if (onednn && rule.inputs[0].is_shard() && rule.inputs[1].is_replicate()) continue;
    rules.push_back(std::move(rule));
  }
  Append(rules, KeepApplicable(args, kLinearInGrad));
  return rules;
}

absl::StatusOr<std::vector<Rule>> GluRules(const OpArgs& args, bool backward) {
  bool unit = false;
  std::vector<Rule> rules = ShardOffDimRules(args, &unit);
  const std::optional<int64_t> dim = args.GetInt("dim");
  if (!backward || !dim || args.inputs().size() != 2) return rules;
  // glu_backward broadcasts grad_output against self's halves: on a
  // size-1 dim of self, an empty self chunk meets the full grad_output.
  const TensorMeta& self = args.inputs()[1];
  const int64_t wrapped = *dim < 0 ? *dim + self.ndim() : *dim;
  RuleSet unit_rules(args);
  for (int64_t d = 0; d < self.ndim(); ++d) {
    if (d == wrapped || self.sizes[d] != 1) continue;
    unit_rules.Add({P::Replicate(), P::Shard(d)}, {P::Shard(d)});
  }
  Append(rules, unit_rules.Take());
  Append(rules, KeepApplicable(args, kLinearInGrad));
  return rules;
}

const bool kRegistered = [] {
  StrategyRegistrar("aten::gelu_backward", GeluBackwardRules);
  StrategyRegistrar("aten::prelu", PreluRules);
  StrategyRegistrar("aten::glu", [](const OpArgs& args) { return GluRules(args, false); });
  StrategyRegistrar("aten::glu_backward", [](const OpArgs& args) { return GluRules(args, true); });
  return true;
}();

}  // namespace
}  // namespace shrt
