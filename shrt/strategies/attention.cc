// Strategies for scaled dot-product attention on CPU (libtorch 2.13):
// aten::_scaled_dot_product_attention_math, the reference (math) backend
// of scaled_dot_product_attention,
//   (query [*B, L, E], key [*B, S, E], value [*B, S, Ev], attn_mask?,
//    dropout_p, is_causal, dropout_mask?, scale?, enable_gqa) ->
//   (output [*B, L, Ev], attn_weights [*B, L, S])
// with attn = softmax(q k^T / sqrt(E) + mask) and output = attn @ value
// (aten/src/ATen/native/transformers/attention.cpp). Only dropout_p = 0 is
// deterministic; the specs use it (a dropout_p > 0 draws a random mask on
// every rank, so no rule holds).
//
// Rules (q, k, v for query, key, value; mask, when present, follows q's
// dims by right-aligned broadcasting, and is R where it lacks the dim or
// has size 1 on it):
//   - batch dims (every dim but the last two, e.g. batch and heads): each
//     (batch, head) slice attends on its own, so q, k, v (and mask) S(d) ->
//     output S(d), attn S(d). This is DTensor's batch-dim and
//     num_heads_dim_sharding rule of its sdpa strategies
//     (torch/distributed/tensor/_ops/_matrix_ops.py,
//     scaled_dot_product_{flash,efficient}_attention_strategy). Claimed on a
//     dim where q, k and v all have the output's size (no broadcasting).
//     On a batch dim of size 1, rank 0 holds every input whole and the
//     other ranks' sharded inputs are empty, broadcasting the replicated
//     ones (size 1) to size 0: every non-empty subset of q, k, v, mask
//     sharded gives output S(d), and attn S(d) when q, k or mask is among
//     them (attn does not read v; with v alone attn is whole on every rank:
//     R or P(avg|max|min)); but mask only with q or k (the kernel adds mask
//     in place to the scores q k^T, and an empty mask cannot be added into
//     a whole score tensor).
//   - the query sequence dim L (dim -2 of q): each query row attends to
//     every key independently (softmax is over S, per row), so q S(-2),
//     k R, v R, mask S(L) -> output S(-2), attn S(-2). Not with is_causal:
//     each rank would build its causal mask tril(ones(L_r, S)) from its
//     local L, offsetting every row past the first chunk.
//   - the key/value sequence dim S never shards: softmax normalises over
//     all of S. (DTensor's "context parallelism" S(2) on q, k and v needs
//     ring attention's communication; it is not a local rule.)
//   - E (q's and k's last dim) does not shard: the local q k^T would be a
//     partial sum of the scores, and softmax is not linear.
//   - the value dim Ev (dim -1 of v): output[..., j] uses only v[..., j],
//     and attn does not use v: q R, k R, v S(-1) -> output S(-1), attn R.
//   - output = attn @ v is linear in v and attn does not depend on v:
//     q R, k R, v P(sum) -> output P(sum) and v P(avg) -> output P(avg).
//   In the last two, attn is identical on every rank: R, or P(avg|max|min)
//   (idempotent reductions of identical values).
//   No Partial on q, k or mask (softmax is not linear or monotone in them).
#include <vector>

#include "shrt/strategies/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

const Placement kR = Placement::Replicate();
const Placement kSum = Placement::Partial(ReduceOp::kSum);
const Placement kAvg = Placement::Partial(ReduceOp::kAvg);
const Placement kMax = Placement::Partial(ReduceOp::kMax);
const Placement kMin = Placement::Partial(ReduceOp::kMin);

// The placement of `t` (right-aligned against a tensor of rank `ndim`)
// when dim `d` of that tensor is sharded: S(dim of t) when t has it with a
// size other than 1, R when it broadcasts along it.
Placement Follow(const TensorMeta& t, int64_t ndim, int64_t d) {
  const int64_t td = d - (ndim - t.ndim());
  if (td < 0 || t.sizes[td] == 1) return kR;
  return Placement::Shard(td);
}

absl::StatusOr<std::vector<Rule>> Sdpa(const OpArgs& args) {
  RuleSet rules(args);
  const std::vector<TensorMeta>& in = args.inputs();
  if (in.size() < 3 || args.outputs().size() != 2) return rules.Take();
  const TensorMeta& q = in[0];
  const TensorMeta& k = in[1];
  const TensorMeta& v = in[2];
  const TensorMeta& out = args.outputs()[0];
  const bool has_mask = in.size() > 3;
  const bool causal = args.GetBool("is_causal").value_or(false);
  const int64_t nd = out.ndim();
  if (nd < 2 || q.ndim() != nd || k.ndim() != nd || v.ndim() != nd) return rules.Take();

  // Input placements (q, k, v[, mask]).
  auto inputs = [&](Placement pq, Placement pk, Placement pv, Placement pm) {
    std::vector<Placement> p = {pq, pk, pv};
    if (has_mask) p.push_back(pm);
    return p;
  };

  // Batch dims.
  for (int64_t d = 0; d + 2 < nd; ++d) {
    if (out.sizes[d] == 1) {
      // Size 1: rank 0 holds every input whole; elsewhere each sharded
      // input is empty and broadcasts the replicated ones to size 0.
      const int64_t md = has_mask ? d - (nd - in[3].ndim()) : -1;
      const bool mask_has = has_mask && md >= 0;
      const int n = mask_has ? 4 : 3;
      const Placement s = Placement::Shard(d);
      for (int subset = 1; subset < (1 << n); ++subset) {
        // The kernel adds mask in place to q k^T: an empty mask cannot
        // write into a whole (unsharded q and k) score tensor.
        if ((subset & 0b1000) != 0 && (subset & 0b0011) == 0) continue;
        auto pick = [&](int i, Placement sharded) { return (subset >> i) & 1 ? sharded : kR; };
        const Placement pm = mask_has ? pick(3, Placement::Shard(md)) : kR;
        const bool attn_empty = (subset & 0b1011) != 0;  // q, k or mask
        if (attn_empty) {
          rules.Add(inputs(pick(0, s), pick(1, s), pick(2, s), pm), {s, s});
        } else {
          for (const Placement& attn : {kR, kAvg, kMax, kMin}) {
            rules.Add(inputs(kR, kR, s, kR), {s, attn});
          }
        }
      }
      continue;
    }
    if (q.sizes[d] != out.sizes[d] || k.sizes[d] != out.sizes[d] || v.sizes[d] != out.sizes[d]) {
      continue;
    }
    const Placement s = Placement::Shard(d);
    rules.Add(inputs(s, s, s, has_mask ? Follow(in[3], nd, d) : kR), {s, s});
  }
  // Query sequence dim L.
  if (!causal) {
    const Placement s = Placement::Shard(nd - 2);
    rules.Add(inputs(s, kR, kR, has_mask ? Follow(in[3], nd, nd - 2) : kR), {s, s});
  }
  // Value dim Ev, and Partial value: attn identical on every rank.
  for (const Placement& attn : {kR, kAvg, kMax, kMin}) {
    rules.Add(inputs(kR, kR, Placement::Shard(nd - 1), kR), {Placement::Shard(nd - 1), attn});
    rules.Add(inputs(kR, kR, kSum, kR), {kSum, attn});
    rules.Add(inputs(kR, kR, kAvg, kR), {kAvg, attn});
  }
  return rules.Take();
}

SHRT_REGISTER_STRATEGY("aten::_scaled_dot_product_attention_math", Sdpa);

}  // namespace
}  // namespace shrt
