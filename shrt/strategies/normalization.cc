// Strategies for normalization ops: layer norm and group norm (DTensor's
// _math_ops.py layer_norm rules). Both return (out, mean, rstd) with
// out = xhat * weight + bias, so they share the Partial rules on weight and
// bias (AffineRules).
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
// aten::native_layer_norm_backward and aten::native_group_norm_backward have
// no strategy: their required `bool[3] output_mask` argument cannot be
// written in a spec (spec.proto has no bool list), so they could not be
// tested.
#include <vector>

#include "shrt/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

bool Present(const OpArgs& args, const char* name) {
  const ArgValue* v = args.Find(name);
  return v != nullptr && std::holds_alternative<TensorMeta>(*v);
}

const Placement kR = Placement::Replicate();
const Placement kSum = Placement::Partial(ReduceOp::kSum);
const Placement kAvg = Placement::Partial(ReduceOp::kAvg);
const Placement kMax = Placement::Partial(ReduceOp::kMax);
const Placement kMin = Placement::Partial(ReduceOp::kMin);

// Placements a replicated value may take as an output.
const std::vector<Placement>& Identical() {
  static const auto* p = new std::vector<Placement>{kR, kAvg, kMax, kMin};
  return *p;
}

// Input placements in order (input, weight?, bias?), skipping absent ones.
std::vector<Placement> Inputs(const OpArgs& args, Placement x, Placement w, Placement b) {
  std::vector<Placement> v = {x};
  if (Present(args, "weight")) v.push_back(w);
  if (Present(args, "bias")) v.push_back(b);
  return v;
}

// The rules with input R of out = xhat * weight + bias (xhat, mean and rstd
// then identical on every rank): (weight, bias) -> out as the header says,
// with mean and rstd each R or P(avg|max|min).
void AffineRules(const OpArgs& args, std::vector<Rule>& rules) {
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
    for (const Placement& mean : Identical()) {
      for (const Placement& rstd : Identical()) {
        rules.push_back({Inputs(args, kR, a.w, a.b), {a.out, mean, rstd}});
      }
    }
  }
}

int64_t Axis(const OpArgs& args, int64_t ndim) {
  const int64_t n = static_cast<int64_t>(args.GetIntList("normalized_shape").value_or(
                                                 std::vector<int64_t>{}).size());
  return ndim - n;
}

absl::StatusOr<std::vector<Rule>> LayerNorm(const OpArgs& args) {
  const int64_t axis = Axis(args, args.inputs()[0].ndim());
  std::vector<Rule> rules;
  for (int64_t d = 0; d < axis; ++d) {
    const Placement s = Placement::Shard(d);
    rules.push_back({Inputs(args, s, kR, kR), {s, s, s}});
  }
  AffineRules(args, rules);
  return KeepApplicable(args, std::move(rules));
}

absl::StatusOr<std::vector<Rule>> GroupNorm(const OpArgs& args) {
  std::vector<Rule> rules;
  AffineRules(args, rules);
  return KeepApplicable(args, std::move(rules));
}

SHRT_REGISTER_STRATEGY("aten::native_layer_norm", LayerNorm);
SHRT_REGISTER_STRATEGY("aten::native_group_norm", GroupNorm);

}  // namespace
}  // namespace shrt
