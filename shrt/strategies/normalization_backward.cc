// Strategies for the gradients of the normalization ops (their forwards are
// in normalization.cc): each returns (grad_input, grad_weight, grad_bias),
// and the samples give an all-true output_mask (a false entry leaves that
// output undefined, which ShRT rejects).
//
// aten::native_group_norm_backward(grad_out, input, mean, rstd, weight?, N,
//   C, HxW, group, output_mask) -> (grad_input, grad_weight, grad_bias).
//   No Shard rule (global N, C, HxW, as for the forward). For fixed (input,
//   mean, rstd, weight) all three outputs are linear in grad_out
//   (aten/src/ATen/native/cpu/group_norm_kernel.cpp: ds, db are sums of
//   grad_out products, dX a combination of grad_out, ds, db), so
//   grad_out P(sum|avg) -> P(sum|avg) on all three. grad_input is also
//   linear in weight (dX = rstd * weight * dy + (terms linear in weight via
//   ds * weight, db * weight)), while grad_weight and grad_bias do not read
//   weight: weight P(sum|avg) -> grad_input P(sum|avg), the other two
//   identical on every rank (R or P(avg|max|min)).
//
// aten::native_batch_norm_backward: at its function below.
//
// aten::native_layer_norm_backward(grad_out, input, normalized_shape, mean,
//   rstd, weight?, bias?, output_mask) -> (grad_input, grad_weight,
//   grad_bias); mean and rstd keep input's leading dims with size 1 on the
//   normalized ones (as the forward's), weight and bias have the normalized
//   shape (aten/src/ATen/native/cpu/layer_norm_kernel.cpp,
//   LayerNormBackwardKernelImplInternal). Let axis = ndim(input) -
//   len(normalized_shape).
//   - each row's gradient uses only that row: a leading dim d < axis shards
//     grad_out, input, mean and rstd alike, weight and bias R: grad_input
//     S(d), and grad_weight = sum of grad_out * xhat and grad_bias = sum of
//     grad_out over the rows, P(sum) (DTensor's
//     layer_norm_bwd_single_dim_strategy, _math_ops.py).
//   - for fixed (input, mean, rstd, weight) all three are linear in
//     grad_out: grad_out P(sum|avg), the rest R -> P(sum|avg) on all three.
//   - grad_input is linear in weight, and grad_weight and grad_bias do not
//     read it: weight P(sum|avg), the rest R -> grad_input P(sum|avg), the
//     other two R.
//   - bias is read for its shape only (grad_bias is allocated like it), so
//     in every rule above it may be R or any Partial (a whole tensor on
//     every rank), and bias P(op) with the rest R gives R outputs.
#include <utility>
#include <vector>

#include "shrt/strategies/normalization_rules.h"
#include "shrt/strategies/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt::normalization {
namespace {

// grad_input is linear in grad_out and in weight; grad_weight and grad_bias
// are linear in grad_out and do not read weight (see the file's header).
absl::StatusOr<std::vector<Rule>> GroupNormBackward(const OpArgs& args) {
  std::vector<Rule> rules;
  for (const Placement& p : {kSum, kAvg}) {
    std::vector<Placement> in = {p, kR, kR, kR};
    if (Present(args, "weight")) in.push_back(kR);
    rules.push_back({in, {p, p, p}});
  }
  if (Present(args, "weight")) {
    for (const Placement& p : {kSum, kAvg}) {
      for (const Placement& gw : Identical()) {
        for (const Placement& gb : Identical()) {
          rules.push_back({{kR, kR, kR, kR, p}, {p, gw, gb}});
        }
      }
    }
  }
  return KeepApplicable(args, std::move(rules));
}

// aten::native_batch_norm_backward(grad_out, input, weight?, running_mean?,
//   running_var?, save_mean?, save_invstd?, train, eps, output_mask)
//   -> (grad_input, grad_weight, grad_bias), input [N, C, *]:
//   - all three are linear in grad_out with the rest fixed (training: the
//     batch statistics save_mean / save_invstd are inputs): P(sum|avg) on
//     grad_out, the rest R.
//   - grad_input is linear in weight; grad_weight and grad_bias do not read
//     it: weight P(sum|avg), the rest R -> grad_input P(sum|avg), the
//     others R.
//   - eval mode (train = false) normalizes with the running statistics, per
//     element: a non-channel dim d shards grad_out and input alike, the
//     per-channel tensors R: grad_input S(d), and grad_weight, grad_bias
//     (sums over N and the spatial dims) P(sum). grad_input = grad_out *
//     weight * invstd reads neither input nor running_mean, and grad_weight
//     = sum of grad_out * (input - running_mean) * invstd is linear in
//     (input, running_mean) jointly and affine in each: with grad_out R,
//     input and running_mean P(sum) together, or P(avg) on either or both,
//     give grad_weight that Partial, beside weight R or P(sum|avg) (which
//     grad_input takes). In training the gradient of every element needs
//     the batch's sums: no Shard rule but the channel's, not claimed (an
//     empty channel chunk, as the forward).
absl::StatusOr<std::vector<Rule>> BatchNormBackward(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() < 2 || args.outputs().size() != 3) return rules.Take();
  const bool has_w = Present(args, "weight");
  auto in = [&](Placement g, Placement x, Placement w) {
    std::vector<Placement> v = {g, x};
    if (has_w) v.push_back(w);
    for (const char* name : {"running_mean", "running_var", "save_mean", "save_invstd"}) {
      if (Present(args, name)) v.push_back(kR);
    }
    return v;
  };
  for (const Placement& p : {kSum, kAvg}) {
    rules.Add(in(p, kR, kR), {p, p, p});
    if (has_w) rules.Add(in(kR, kR, p), {p, kR, kR});
  }
  if (!args.GetBool("train").value_or(true)) {
    for (int64_t d = 0; d < args.inputs()[0].ndim(); ++d) {
      if (d == 1) continue;
      const Placement s = Placement::Shard(d);
      rules.Add(in(s, s, kR), {s, kSum, kSum});
    }
    if (Present(args, "running_mean")) {
      struct Centered {
        Placement x, rm, grad_weight;
      };
      const Centered centered[] = {{kR, kR, kR},         {kSum, kSum, kSum}, {kAvg, kR, kAvg},
                                   {kR, kAvg, kAvg},     {kAvg, kAvg, kAvg}};
      for (const Centered& c : centered) {
        for (const Placement& w : {kR, kSum, kAvg}) {
          if (w != kR && !has_w) continue;
          std::vector<Placement> v = {kR, c.x};
          if (has_w) v.push_back(w);
          v.push_back(c.rm);
          if (Present(args, "running_var")) v.push_back(kR);
          rules.Add(std::move(v), {w, c.grad_weight, kR});
        }
      }
    }
  }
  return rules.Take();
}

// aten::native_layer_norm_backward: see the file's header.
absl::StatusOr<std::vector<Rule>> LayerNormBackward(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() < 4 || args.outputs().size() != 3) return rules.Take();
  const bool has_w = Present(args, "weight");
  const bool has_b = Present(args, "bias");
  std::vector<Placement> biases = {kR};
  if (has_b) {
    for (ReduceOp op : kAllReduceOps) biases.push_back(Placement::Partial(op));
  }
  // grad_out, input, mean and rstd; then weight and bias where present.
  auto add = [&](Placement row, Placement g, Placement w, std::vector<Placement> out) {
    for (const Placement& b : biases) {
      std::vector<Placement> in = {g, row, row, row};
      if (has_w) in.push_back(w);
      if (has_b) in.push_back(b);
      rules.Add(std::move(in), out);
    }
  };
  const int64_t ndim = args.inputs()[1].ndim();
  const int64_t normalized = static_cast<int64_t>(
      args.GetIntList("normalized_shape").value_or(std::vector<int64_t>{}).size());
  for (int64_t d = 0; d < ndim - normalized; ++d) {
    const Placement s = Placement::Shard(d);
    add(s, s, kR, {s, kSum, kSum});
  }
  for (const Placement& p : {kSum, kAvg}) {
    add(kR, p, kR, {p, p, p});
    if (has_w) add(kR, kR, p, {p, kR, kR});
  }
  add(kR, kR, kR, {kR, kR, kR});  // bias Partial alone; RuleSet drops the all-R rule
  return rules.Take();
}

SHRT_REGISTER_STRATEGY("aten::native_batch_norm_backward", BatchNormBackward);
SHRT_REGISTER_STRATEGY("aten::native_group_norm_backward", GroupNormBackward);
SHRT_REGISTER_STRATEGY("aten::native_layer_norm_backward", LayerNormBackward);

}  // namespace
}  // namespace shrt::normalization
