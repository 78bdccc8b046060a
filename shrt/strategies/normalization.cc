// Strategies for normalization ops other than layer norm (layer_norm.cc).
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
//     weight / bias handling (layer_norm.cc). With input R:
//       weight P(sum) with bias P(sum) (or absent) -> out P(sum);
//       P(avg) on weight and/or bias, the other R or absent -> out P(avg);
//       bias P(max|min), weight R or absent -> out P(max|min) (out is
//         increasing in bias).
//     mean and rstd do not depend on weight or bias: identical on every
//     rank, so each may be R or P(avg|max|min).
//   The input itself admits no Partial: normalisation is not linear.
//
// aten::native_group_norm_backward has no strategy: its required
// `bool[3] output_mask` cannot be written in a spec (spec.proto has no bool
// list), so it could not be tested.
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

// Placements a value identical on every rank may take as an output.
const std::vector<Placement>& Identical() {
  static const auto* p = new std::vector<Placement>{kR, kAvg, kMax, kMin};
  return *p;
}

absl::StatusOr<std::vector<Rule>> GroupNorm(const OpArgs& args) {
  const bool has_w = Present(args, "weight");
  const bool has_b = Present(args, "bias");
  auto in = [&](Placement x, Placement w, Placement b) {
    std::vector<Placement> v = {x};
    if (has_w) v.push_back(w);
    if (has_b) v.push_back(b);
    return v;
  };
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
  std::vector<Rule> rules;
  for (const Affine& a : affine) {
    for (const Placement& mean : Identical()) {
      for (const Placement& rstd : Identical()) {
        rules.push_back({in(kR, a.w, a.b), {a.out, mean, rstd}});
      }
    }
  }
  return KeepApplicable(args, std::move(rules));
}

SHRT_REGISTER_STRATEGY("aten::native_group_norm", GroupNorm);

}  // namespace
}  // namespace shrt
