// Strategies for layer norm (DTensor's _math_ops.py layer_norm rules).
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
// aten::native_layer_norm_backward has no strategy here: its required
// `bool[3] output_mask` argument cannot be written in a spec (spec.proto has
// no bool list), so it could not be tested.
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

int64_t Axis(const OpArgs& args, int64_t ndim) {
  const int64_t n = static_cast<int64_t>(args.GetIntList("normalized_shape").value_or(
                                                 std::vector<int64_t>{}).size());
  return ndim - n;
}

absl::StatusOr<std::vector<Rule>> LayerNorm(const OpArgs& args) {
  const bool has_w = Present(args, "weight");
  const bool has_b = Present(args, "bias");
  const int64_t axis = Axis(args, args.inputs()[0].ndim());
  // Input placements in order, skipping absent weight / bias.
  auto in = [&](Placement x, Placement w, Placement b) {
    std::vector<Placement> v = {x};
    if (has_w) v.push_back(w);
    if (has_b) v.push_back(b);
    return v;
  };
  std::vector<Rule> rules;
  for (int64_t d = 0; d < axis; ++d) {
    const Placement s = Placement::Shard(d);
    rules.push_back({in(s, kR, kR), {s, s, s}});
  }
  // (weight, bias, out) with input R.
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
        rules.push_back({in(kR, a.w, a.b), {a.out, mean, rstd}});
      }
    }
  }
  return KeepApplicable(args, std::move(rules));
}

SHRT_REGISTER_STRATEGY("aten::native_layer_norm", LayerNorm);

}  // namespace
}  // namespace shrt
