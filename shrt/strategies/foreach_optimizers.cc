// Strategies for the fused optimizers as list ops (foreach_list.h).
//
// The fused optimizers (`_fused_adam`, `_fused_adamw`, and their
// `tensor_lr` overloads) update, at position i, param, grad, exp_avg,
// exp_avg_sq (and max_exp_avg_sq with amsgrad) from those and the 0-d
// state_step (ATen/native/FusedAdam.cpp, `_fused_adam_kernel_cpu_`): every
// output element is a function of the same element of each same-shaped
// input, and of 0-d values (step, lr, grad_scale, found_inf). So their
// element rules are the shard rules of that map (on every dim d, each
// same-shaped tensor S(d), the 0-d ones R, every output S(d)), plus the
// Partial rules of the parts of the step that are affine: in exp_avg, and
// in param where grad does not depend on it (AdamElement). exp_avg_sq
// enters through a sqrt and grad through its square: no rule on either.
//
// Not covered: amsgrad's Partial rules (max_exp_avg_sq' = max(max_exp_avg_sq,
// exp_avg_sq') feeds the denominator); its Shard rules are claimed.
#include <cmath>
#include <optional>
#include <variant>
#include <vector>

#include "shrt/strategies/foreach_list.h"
#include "shrt/strategies/registry.h"

namespace shrt::foreach {
namespace {

// Every choice of R, P(avg), P(max) or P(min) for the outputs of `rule`
// listed in `full`, which every rank computes in full under it (identical
// values reduce to themselves by mean, max and min).
Rules WithFullOutputs(const Rule& rule, const std::vector<size_t>& full) {
  const Placement choices[] = {Placement::Replicate(), Placement::Partial(ReduceOp::kAvg),
                               Placement::Partial(ReduceOp::kMax),
                               Placement::Partial(ReduceOp::kMin)};
  Rules rules;
  std::vector<size_t> pick(full.size(), 0);
  while (true) {
    Rule r = rule;
    for (size_t f = 0; f < full.size(); ++f) r.outputs[full[f]] = choices[pick[f]];
    rules.push_back(std::move(r));
    size_t i = 0;
    while (i < full.size() && ++pick[i] == 4) pick[i++] = 0;
    if (i == full.size()) return rules;
  }
}

// A fused Adam position (inputs param, grad, exp_avg, exp_avg_sq, step and
// the shared 0-d tensors; outputs param, grad, exp_avg, exp_avg_sq, with
// max_exp_avg_sq after each under amsgrad). `decoupled`: AdamW.
absl::StatusOr<Rules> AdamElement(const OpArgs& e, bool decoupled) {
  const TensorMeta& param = e.inputs()[0];
  const size_t n_in = e.inputs().size();
  Rules rules;
  for (int64_t d = 0; d < param.ndim(); ++d) {
    Rule rule;
    for (const TensorMeta& t : e.inputs()) {
      rule.inputs.push_back(t.sizes == param.sizes ? Placement::Shard(d) : Placement::Replicate());
    }
    rule.outputs.assign(e.outputs().size(), Placement::Shard(d));
    rules.push_back(std::move(rule));
  }
  // Partial rules on the plain step only: a float lr or a 0-d tensor lr
  // (the tensor_lr overloads, lr the last input), no amsgrad (four
  // outputs), no grad_scale or found_inf (which unscale grad in place and
  // skip the step), beta1 in [0, 1) (a positive bias correction).
  auto present = [&](const char* name) {
    const ArgValue* v = e.Find(name);
    return v != nullptr && std::holds_alternative<TensorMeta>(*v);
  };
  const bool tensor_lr = present("lr");
  const std::optional<double> lr = e.GetDouble("lr");
  const double beta1 = e.GetDouble("beta1").value_or(-1);
  const double wd = e.GetDouble("weight_decay").value_or(0);
  if ((!tensor_lr && (!lr.has_value() || !std::isfinite(*lr) || *lr == 0)) ||
      e.outputs().size() != 4 || present("grad_scale") || present("found_inf") ||
      !(beta1 >= 0 && beta1 < 1)) {
    return rules;
  }
  const Placement kR = Placement::Replicate();
  auto rule = [&](Placement p, Placement m, Placement p_out, Placement m_out) {
    Rule r{std::vector<Placement>(n_in, kR), {p_out, kR, m_out, kR}};
    r.inputs[0] = p;
    r.inputs[2] = m;
    return r;
  };
  const Placement kAvg = Placement::Partial(ReduceOp::kAvg);
  const Placement kMax = Placement::Partial(ReduceOp::kMax);
  const Placement kMin = Placement::Partial(ReduceOp::kMin);
  // exp_avg' = beta1 * exp_avg + (1 - beta1) * grad is affine and
  // non-decreasing in exp_avg; param' = param - step * exp_avg' / denom
  // (step = lr / (1 - beta1^t), denom > 0) is affine in exp_avg' and
  // monotone by the sign of lr. grad and exp_avg_sq are computed in full.
  Append(rules, WithFullOutputs(rule(kR, kAvg, kAvg, kAvg), {1, 3}));
  if (tensor_lr) {
    // lr's value is not known: only what holds for every lr. param' =
    // param - lr * (k + wd * param) (AdamW) or param - lr * k (Adam) is
    // affine in lr with the rest fixed, and affine in param when grad does
    // not read it (any a, a = 0 included: then every rank's param' is the
    // same).
    Rule by_lr = rule(kR, kR, kAvg, kR);
    by_lr.inputs[n_in - 1] = kAvg;
    Append(rules, WithFullOutputs(by_lr, {1, 2, 3}));
    if (decoupled || wd == 0) {
      Append(rules, WithFullOutputs(rule(kAvg, kR, kAvg, kR), {1, 2, 3}));
      Append(rules, WithFullOutputs(rule(kAvg, kAvg, kAvg, kAvg), {1, 3}));
    }
    return rules;
  }
  Append(rules, WithFullOutputs(rule(kR, kMax, *lr > 0 ? kMin : kMax, kMax), {1, 3}));
  Append(rules, WithFullOutputs(rule(kR, kMin, *lr > 0 ? kMax : kMin, kMin), {1, 3}));
  // param' = a * param + (what the rest gives) when grad does not depend on
  // param: Adam without weight decay (a = 1), AdamW (a = 1 - lr * wd,
  // torch/optim/adamw.py's param.mul_(1 - lr * weight_decay)). Adam's L2
  // decay adds wd * param to grad, whose square exp_avg_sq takes: no rule.
  const double a = decoupled ? 1 - *lr * wd : (wd == 0 ? 1 : 0);
  if (a != 0) {
    Append(rules, WithFullOutputs(rule(kAvg, kR, kAvg, kR), {1, 2, 3}));
    Append(rules, WithFullOutputs(rule(kMax, kR, a > 0 ? kMax : kMin, kR), {1, 2, 3}));
    Append(rules, WithFullOutputs(rule(kMin, kR, a > 0 ? kMin : kMax, kR), {1, 2, 3}));
    Append(rules, WithFullOutputs(rule(kAvg, kAvg, kAvg, kAvg), {1, 3}));
  }
  return rules;
}

// The fused Adam (or, `decoupled`, AdamW) list strategy.
Strategy FusedAdam(bool decoupled) {
  return ListStrategy([decoupled](const OpArgs& e) { return AdamElement(e, decoupled); });
}

SHRT_REGISTER_STRATEGY("aten::_fused_adam", FusedAdam(/*decoupled=*/false));
SHRT_REGISTER_STRATEGY("aten::_fused_adamw", FusedAdam(/*decoupled=*/true));
SHRT_REGISTER_STRATEGY("aten::_fused_adam.tensor_lr", FusedAdam(/*decoupled=*/false));
SHRT_REGISTER_STRATEGY("aten::_fused_adamw.tensor_lr", FusedAdam(/*decoupled=*/true));

}  // namespace
}  // namespace shrt::foreach
