// Strategies for normalization ops: layer norm, group norm, batch norm,
// instance norm and weight norm (DTensor's _math_ops.py layer_norm rules);
// their gradients are in normalization_backward.cc.
// The forwards return (out, mean, rstd) with out = xhat * weight + bias, so
// they share the Partial rules on weight and bias (AffineRules).
//
// Empty chunks: a strategy claims only rules valid at every world size, and
// torch.chunk leaves some rank an empty chunk of a dim of size n whenever
// ceil(n / W) * (W - 1) >= n (n = 7 at W = 8, C = 3 at W = 4). Several
// libtorch 1.13 kernels here raise or crash on such a chunk, so the Shard
// rules below that hold mathematically but break there are NOT claimed
// (each spec explains them as missing, with sample sizes 8, 15, 16 that give
// no empty chunk at W = 2, 3, 4, 8): batch norm's channel shard (raises
// "select(): index 0 out of range" in the composite, SIGFPE in
// native_batch_norm), instance norm's batch and channel shards (an empty
// chunk of either empties the channel dim of its [1, N * C, *] view), and
// weight norm's and norm_except_dim's slice shard
// (norm_except_dim's view({0, -1}) raises on an empty chunk; the fused
// weight norm kernel raises SIGFPE dividing by M = 0).
//
// aten::native_layer_norm(input, normalized_shape, weight?, bias?, eps)
//   -> (out, mean, rstd); mean and rstd keep every input dim, with size 1 on
//   the normalized (trailing) dims. Let axis = ndim(input) -
//   len(normalized_shape).
//   - each row's statistics use only that row: a leading dim d < axis shards
//     through, weight and bias replicated: S(d), R, R -> S(d), S(d), S(d).
//     The normalized dims cannot be sharded (the statistics need the whole
//     row; weight and bias would have to shard with them).
//   - out = xhat * weight + bias, with xhat, mean and rstd replicated when
//     input is: linear in (weight, bias) jointly, affine in each, and
//     increasing in bias. With input R:
//       weight P(sum) with bias P(sum) (or absent) -> out P(sum) (bias
//         P(sum) with weight R or absent would count xhat * weight W times);
//       P(avg) on weight and/or bias, the other R or absent -> out P(avg);
//       bias P(max|min), weight R or absent -> out P(max|min).
//     mean and rstd are then identical on every rank, so each may be R or
//     P(avg|max|min) (idempotent reductions of identical values).
//   The input itself admits no Partial: normalisation is not linear.
//
// aten::native_group_norm(input, weight?, bias?, N, C, HxW, group, eps)
//   -> (out, mean, rstd); input is [N, C, *], weight and bias are [C], mean
//   and rstd are [N, group].
//   - No Shard rule. DTensor (torch/distributed/tensor/_ops/_math_ops.py)
//     has no group_norm strategy, and a per-rank call cannot be local here:
//     N, C and HxW are explicit *global* sizes that every rank passes
//     unchanged, and the CPU kernel checks X.numel() == N * C * HxW
//     (aten/src/ATen/native/cpu/group_norm_kernel.cpp), so any shard of
//     input raises on ranks. (Mathematically, sharding N would be local -
//     each sample's statistics use only that sample - were N rewritten to
//     the local size as DTensor rewrites view shapes; ShRT's local_shape_arg
//     only rewrites an int[] argument. Sharding C is local only when the
//     shards align with whole groups, which torch.chunk does not guarantee.)
//   - out = xhat * weight[c] + bias[c], with xhat, mean and rstd replicated
//     when input is: the same affine algebra as layer_norm_strategy's
//     weight / bias handling (AffineRules, as for layer norm). With input R:
//       weight P(sum) with bias P(sum) (or absent) -> out P(sum);
//       P(avg) on weight and/or bias, the other R or absent -> out P(avg);
//       bias P(max|min), weight R or absent -> out P(max|min) (out is
//         increasing in bias).
//     mean and rstd do not depend on weight or bias: identical on every
//     rank, so each may be R or P(avg|max|min).
//   The input itself admits no Partial: normalisation is not linear.
//
// aten::native_batch_norm(input, weight?, bias?, running_mean?,
//   running_var?, training, momentum, eps) -> (out, save_mean, save_invstd);
//   input is [N, C, *], the others [C]. Training mode (the only mode the spec
//   samples: in eval mode libtorch 1.13 returns empty save_mean/save_invstd,
//   so no case is informative):
//   - statistics are per channel over N and the spatial dims, so channel dim
//     1 shards through with the per-channel tensors mathematically:
//     S(1), S(0), S(0)[, S(0), S(0)] -> S(1), S(0), S(0). NOT claimed: the
//     CPU kernel raises SIGFPE on an empty channel chunk (see above). N and
//     spatial dims cannot shard (the statistics need every sample). DTensor
//     has no batch_norm strategy (torch/distributed/tensor/_ops/_math_ops.py).
//   - out = xhat * weight[c] + bias[c]: AffineRules with input R.
//   .out has no CPU kernel in libtorch 1.13 (excluded in the spec).
//
// aten::_native_batch_norm_legit.no_stats(input, weight?, bias?, training,
//   momentum, eps) is native_batch_norm without running statistics (its
//   CPU kernel calls batch_norm_cpu with undefined ones:
//   aten/src/ATen/native/Normalization.cpp _batch_norm_legit_no_stats_cpu)
//   and takes its rules. The overload with running statistics has no
//   strategy: the CPU kernel updates C statistics in running statistics
//   of any size, unchecked, so a chunk of them is written past its end.
//
// aten::batch_norm (composite, returns out only): training as above
// (AffineRules with out alone). Eval mode (training=false) is per element:
//   out = (x - running_mean[c]) * k[c] + bias[c], k = weight / sqrt(running_var + eps),
//   - any non-channel dim d of input shards with the rest R: S(d) -> S(d)
//     (the composite handles an empty batch or spatial chunk); channel dim 1
//     as in training (not claimed: "select(): index 0 out of range" on an
//     empty channel chunk);
//   - linear in (x, running_mean, bias) jointly: all three P(sum) (bias if
//     present) -> P(sum); affine in each, so P(avg) on any non-empty subset
//     of (input, running_mean, bias) -> P(avg); with weight (input R) the
//     AffineRules;
//   - without weight k > 0, so out is increasing in x and decreasing in
//     running_mean: input P(max|min) -> P(max|min), running_mean
//     P(max|min) -> P(min|max). (With weight, k's sign varies per channel.)
//
// aten::layer_norm (composite, returns out alone): native_layer_norm's rules
// with out alone (LayerNormRules, AffineRules with no statistics).
//
// aten::_fused_rms_norm(input, normalized_shape, weight?, eps?) -> (out,
//   rstd): out = input * rstd * weight with rstd = 1 / sqrt(mean of
//   input^2 over the normalized dims + eps), kept with size 1 on them (on
//   CPU native_functions.yaml's CompositeImplicitAutograd
//   rms_norm_composite). Layer norm's rules without mean and bias: a batch
//   dim shards through (S(d) -> S(d), S(d)), and out is linear in weight
//   (weight P(sum|avg), input R -> P(sum|avg), rstd identical on every
//   rank).
//
// aten::group_norm(input, num_groups, weight?, bias?, eps, cudnn_enabled)
//   (composite, returns out alone): unlike native_group_norm it reads N, C
//   and HxW from the (local) input, so the batch dim shards through: each
//   sample's statistics use only that sample: S(0), R, R -> S(0). Spatial
//   dims need the whole group; a channel shard is local only when the
//   chunks align with groups (not guaranteed by torch.chunk, and the local
//   C / num_groups would change). Plus AffineRules with out alone.
//
// aten::instance_norm(input, weight?, bias?, running_mean?, running_var?,
//   use_input_stats, momentum, eps, cudnn_enabled) (composite): batch_norm
//   of input viewed as [1, N * C, *] with weight, bias and the running stats
//   repeated N times (aten/src/ATen/native/Normalization.cpp). With
//   use_input_stats the statistics are per (sample, channel) over the
//   spatial dims: batch norm's training rules (AffineRules). Without it is
//   batch norm's eval mode, the same per-element rules (BatchNormRules) but
//   for the batch dim. Mathematically the batch dim (S(0), R, ... -> S(0))
//   and the channel dim (per-channel tensors S(0)) shard too, but neither is
//   claimed: an empty chunk of either makes the [1, N * C, *] view's
//   channel dim empty, on which libtorch 1.13 raises.
//
// aten::_weight_norm(v, g, dim) (composite): w = v * g / norm_except_dim(v,
//   2, dim), one norm per slice of dim (of all of v when dim = -1 on the
//   unfused path). DTensor has no weight norm strategy.
//   - v S(dim) with g sharded on its dim of size v.size(dim) (dim itself
//     when g has v's rank, 0 when g is 1-D) -> w S(dim) mathematically:
//     every slice keeps its whole norm and its g. NOT claimed: on an empty
//     chunk of dim the unfused path's norm_except_dim raises (view({0, -1}))
//     and the fused kernel raises SIGFPE. Other dims split a slice's norm.
//   - w is linear in g for fixed v: g P(sum|avg), v R -> w P(sum|avg).
//     (Not P(max|min): v's sign varies.)
//   With dim 0 or ndim - 1 it calls the fused aten::_weight_norm_interface.
//
// aten::_weight_norm_interface(v, g, dim) -> (w, norm), norm with g's shape:
//   the same rules (the Shard rule, norm sharded like g, not claimed), norm
//   identical on every rank (R or P(avg|max|min)) in the Partial ones (it
//   reads only v).
//   Its libtorch 1.13 CPU kernel (native/cpu/WeightNormKernel.cpp) takes
//   M = v.size(dim) from v, allocates norm with g's shape and never checks
//   g.numel() == M, so a local call with g sharded and v's dim unsharded
//   writes past norm's buffer; the heap corruption aborts the worker later,
//   outside any operator call ("malloc_consolidate(): invalid chunk size"),
//   which ShRT cannot isolate. Its spec therefore samples only M = 1 with a
//   0-d g (the Shard rule is checked through _weight_norm's unfused path);
//   an empty local v (M = 0) raises SIGFPE inside the call (v.numel() / M).
//
// aten::norm_except_dim(v, pow, dim): v S(dim) -> S(dim) mathematically
//   (dim = -1 is the norm of all of v: no Shard rule; other negative dims
//   wrap), NOT claimed: an empty chunk of dim raises in v.view({0, -1}).
//   pow 0 and 1 make each norm a sum over the other dims (count of v != 0,
//   sum of |v|), so v S(d), d != dim -> P(sum) (every d when dim = -1; an
//   empty chunk of d has norm 0 and its view({size(dim), -1}) is fine).
//
#include <utility>
#include <vector>

#include "shrt/strategies/normalization_rules.h"
#include "shrt/strategies/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt::normalization {
namespace {

// Input placements in order (input, weight?, bias?, running_mean?,
// running_var?), skipping absent ones (only batch norm has running stats).
std::vector<Placement> Inputs(const OpArgs& args, Placement x, Placement w, Placement b,
                              Placement rm = kR, Placement rv = kR) {
  std::vector<Placement> v = {x};
  if (Present(args, "weight")) v.push_back(w);
  if (Present(args, "bias")) v.push_back(b);
  if (Present(args, "running_mean")) v.push_back(rm);
  if (Present(args, "running_var")) v.push_back(rv);
  return v;
}

// The rules with input R of out = xhat * weight + bias (xhat and the
// statistics then identical on every rank): (weight, bias) -> out as the
// header says, with each of the `stats` statistics outputs after out (2:
// mean and rstd; 1: rms norm's rstd; 0: composites returning out alone) R
// or P(avg|max|min).
void AffineRules(const OpArgs& args, std::vector<Rule>& rules, int stats = 2) {
  const bool has_w = Present(args, "weight");
  const bool has_b = Present(args, "bias");
  struct Affine {
    Placement w, b, out;
  };
  std::vector<Affine> affine;
  if (has_w && has_b) {
    affine = {{kSum, kSum, kSum}, {kAvg, kAvg, kAvg}, {kAvg, kR, kAvg},
              {kR, kAvg, kAvg},   {kR, kMax, kMax},   {kR, kMin, kMin}};
  } else if (has_w) {
    affine = {{kSum, kR, kSum}, {kAvg, kR, kAvg}};
  } else if (has_b) {
    affine = {{kR, kAvg, kAvg}, {kR, kMax, kMax}, {kR, kMin, kMin}};
  }
  for (const Affine& a : affine) {
    std::vector<std::vector<Placement>> outs = {{a.out}};
    for (int k = 0; k < stats; ++k) {
      std::vector<std::vector<Placement>> longer;
      for (const std::vector<Placement>& o : outs) {
        for (const Placement& stat : Identical()) {
          longer.push_back(o);
          longer.back().push_back(stat);
        }
      }
      outs = std::move(longer);
    }
    for (std::vector<Placement>& o : outs) rules.push_back({Inputs(args, kR, a.w, a.b), std::move(o)});
  }
}

int64_t Axis(const OpArgs& args, int64_t ndim) {
  const int64_t n = static_cast<int64_t>(args.GetIntList("normalized_shape").value_or(
                                                 std::vector<int64_t>{}).size());
  return ndim - n;
}

// Layer norm's rules, and rms norm's: `stats` statistics outputs after out
// (2 for native_layer_norm, 1 for _fused_rms_norm, 0 for the composite
// aten::layer_norm, which returns out alone).
absl::StatusOr<std::vector<Rule>> LayerNormRules(const OpArgs& args, int stats) {
  const int64_t axis = Axis(args, args.inputs()[0].ndim());
  std::vector<Rule> rules;
  for (int64_t d = 0; d < axis; ++d) {
    const Placement s = Placement::Shard(d);
    rules.push_back({Inputs(args, s, kR, kR), std::vector<Placement>(1 + stats, s)});
  }
  AffineRules(args, rules, stats);
  return KeepApplicable(args, std::move(rules));
}

absl::StatusOr<std::vector<Rule>> LayerNorm(const OpArgs& args) { return LayerNormRules(args, 2); }

absl::StatusOr<std::vector<Rule>> RmsNorm(const OpArgs& args) { return LayerNormRules(args, 1); }

absl::StatusOr<std::vector<Rule>> LayerNormComposite(const OpArgs& args) {
  return LayerNormRules(args, 0);
}

absl::StatusOr<std::vector<Rule>> GroupNorm(const OpArgs& args) {
  std::vector<Rule> rules;
  AffineRules(args, rules);
  return KeepApplicable(args, std::move(rules));
}

// aten::group_norm (composite): N, C, HxW come from the local input, so the
// batch dim 0 shards through (see header); AffineRules with out alone.
absl::StatusOr<std::vector<Rule>> GroupNormComposite(const OpArgs& args) {
  const Placement s0 = Placement::Shard(0);
  std::vector<Rule> rules;
  rules.push_back({Inputs(args, s0, kR, kR), {s0}});
  AffineRules(args, rules, /*stats=*/0);
  return KeepApplicable(args, std::move(rules));
}

// Batch norm: AffineRules in training (see header; the channel shard is
// not claimed: libtorch 1.13 breaks on an empty channel chunk).
absl::StatusOr<std::vector<Rule>> NativeBatchNorm(const OpArgs& args) {
  std::vector<Rule> rules;
  if (args.GetBool("training").value_or(false)) AffineRules(args, rules);
  return KeepApplicable(args, std::move(rules));
}

// aten::batch_norm (composite, returns out only): training as above; eval
// mode adds the per-element rules of the header.
// training: whether the batch statistics are used (batch_norm's training,
// instance_norm's use_input_stats). first_shard_dim: the first non-channel
// dim whose eval Shard rule is claimed (0 for batch_norm; 2 for
// instance_norm, whose empty batch chunk is an empty channel dim).
std::vector<Rule> BatchNormRules(const OpArgs& args, bool training, int64_t first_shard_dim) {
  std::vector<Rule> rules;
  AffineRules(args, rules, /*stats=*/0);
  if (!training) {
    const int64_t ndim = args.inputs()[0].ndim();
    for (int64_t d = first_shard_dim; d < ndim; ++d) {
      if (d == 1) continue;
      const Placement s = Placement::Shard(d);
      rules.push_back({Inputs(args, s, kR, kR), {s}});
    }
    // out = (x - running_mean) * k + bias, k = weight / sqrt(running_var + eps).
    rules.push_back({Inputs(args, kSum, kR, kSum, kSum), {kSum}});
    for (int mask = 1; mask < 8; ++mask) {  // bits: input, running_mean, bias
      if ((mask & 3) == 0) continue;        // bias alone: AffineRules
      if ((mask & 4) && !Present(args, "bias")) continue;
      rules.push_back({Inputs(args, (mask & 1) ? kAvg : kR, kR, (mask & 4) ? kAvg : kR,
                              (mask & 2) ? kAvg : kR),
                       {kAvg}});
    }
    if (!Present(args, "weight")) {  // k > 0: increasing in x, decreasing in running_mean
      rules.push_back({Inputs(args, kMax, kR, kR), {kMax}});
      rules.push_back({Inputs(args, kMin, kR, kR), {kMin}});
      rules.push_back({Inputs(args, kR, kR, kR, kMax), {kMin}});
      rules.push_back({Inputs(args, kR, kR, kR, kMin), {kMax}});
    }
  }
  return rules;
}

absl::StatusOr<std::vector<Rule>> BatchNorm(const OpArgs& args) {
  return KeepApplicable(args, BatchNormRules(args, args.GetBool("training").value_or(false),
                                             /*first_shard_dim=*/0));
}

// aten::instance_norm (composite): batch norm of input viewed as
// [1, N * C, *] with the per-channel tensors repeated N times. With
// use_input_stats it is batch norm's training (AffineRules); without, batch
// norm's eval mode. The batch and channel shards are not claimed (an empty
// chunk of either is an empty channel dim of the [1, N * C, *] view, on
// which libtorch 1.13 raises): see header.
absl::StatusOr<std::vector<Rule>> InstanceNorm(const OpArgs& args) {
  const bool stats = args.GetBool("use_input_stats").value_or(true);
  return KeepApplicable(args, BatchNormRules(args, stats, /*first_shard_dim=*/2));
}

// Weight norm (see header): g P(sum|avg), v R -> w P(sum|avg), with norm
// (when with_norm) identical on every rank. The Shard rule v S(dim), g
// sharded like v's dim -> w S(dim) is not claimed (libtorch 1.13 breaks on
// an empty chunk of dim: header).
std::vector<Rule> WeightNormRules(bool with_norm) {
  std::vector<Rule> rules;
  for (const Placement& p : {kSum, kAvg}) {
    if (!with_norm) {
      rules.push_back({{kR, p}, {p}});
      continue;
    }
    for (const Placement& n : Identical()) rules.push_back({{kR, p}, {p, n}});
  }
  return rules;
}

absl::StatusOr<std::vector<Rule>> WeightNormInterface(const OpArgs& args) {
  return KeepApplicable(args, WeightNormRules(/*with_norm=*/true));
}

absl::StatusOr<std::vector<Rule>> WeightNorm(const OpArgs& args) {
  return KeepApplicable(args, WeightNormRules(/*with_norm=*/false));
}

// norm_except_dim(v, pow, dim): dim=-1 is the norm of all of v, other
// negative dims wrap. pow 0 and 1 are sums over the other dims (of v != 0,
// of |v|): v S(d), d != dim -> P(sum) (every d when dim = -1). The Shard
// rule v S(dim) -> S(dim) is not claimed (empty chunk: header).
absl::StatusOr<std::vector<Rule>> NormExceptDim(const OpArgs& args) {
  const int64_t ndim = args.inputs()[0].ndim();
  int64_t dim = args.GetInt("dim").value_or(0);
  if (dim < -1) dim += ndim;
  const int64_t pow = args.GetInt("pow").value_or(2);
  std::vector<Rule> rules;
  if (pow == 0 || pow == 1) {
    for (int64_t d = 0; d < ndim; ++d) {
      if (d != dim) rules.push_back({{Placement::Shard(d)}, {kSum}});
    }
  }
  return KeepApplicable(args, std::move(rules));
}

SHRT_REGISTER_STRATEGY("aten::native_layer_norm", LayerNorm);
SHRT_REGISTER_STRATEGY("aten::_fused_rms_norm", RmsNorm);
SHRT_REGISTER_STRATEGY("aten::native_batch_norm", NativeBatchNorm);
SHRT_REGISTER_STRATEGY("aten::_native_batch_norm_legit.no_stats", NativeBatchNorm);
SHRT_REGISTER_STRATEGY("aten::batch_norm", BatchNorm);
SHRT_REGISTER_STRATEGY("aten::native_group_norm", GroupNorm);
SHRT_REGISTER_STRATEGY("aten::layer_norm", LayerNormComposite);
SHRT_REGISTER_STRATEGY("aten::_weight_norm_interface", WeightNormInterface);
SHRT_REGISTER_STRATEGY("aten::_weight_norm", WeightNorm);
SHRT_REGISTER_STRATEGY("aten::norm_except_dim", NormExceptDim);
SHRT_REGISTER_STRATEGY("aten::group_norm", GroupNormComposite);
SHRT_REGISTER_STRATEGY("aten::instance_norm", InstanceNorm);

}  // namespace
}  // namespace shrt::normalization
