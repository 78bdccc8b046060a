// Strategies for embedding lookups (DTensor's _embedding_ops.py).
//
// aten::embedding(weight [V, D], indices [...]) -> [..., D] gathers rows of
// weight (padding_idx only matters for the backward):
//   - indices sharded on any dim d: each rank looks up its own indices in
//     the whole table: R, S(d) -> S(d);
//   - weight sharded on the embedding dim: each rank gathers its columns:
//     S(1), R -> S(-1);
//   - a gather copies values, so every Partial of weight passes through:
//     P(op), R -> P(op) for sum, avg, max, min and product.
//   Weight sharded on dim 0 (rows) is DTensor's MaskPartial: a rank must
//   mask the indices outside its row range, look up the others shifted by
//   its offset, and the masked results sum to the output. Plain local
//   embedding instead raises on (or mis-reads) the out-of-range indices,
//   so no plain rule exists for S(0) weight.
//
// aten::embedding_dense_backward(grad_output [..., D], indices [...],
// num_weights, padding_idx, scale_grad_by_freq) -> [num_weights, D]
// scatter-adds grad rows into the rows named by indices:
//   - grad_output and indices sharded together on an index dim: each rank
//     scatters its share, and the shares sum: S(d), S(d) -> P(sum). Not with
//     scale_grad_by_freq, which divides by each index's count over the whole
//     indices tensor (a rank only counts its own share);
//   - grad_output sharded on the embedding dim: S(-1), R -> S(1);
//   - linear in grad_output: P(sum), R -> P(sum), P(avg), R -> P(avg).
#include <vector>

#include "shrt/strategies/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

absl::StatusOr<std::vector<Rule>> Embedding(const OpArgs& args) {
  const Placement r = Placement::Replicate();
  const TensorMeta& indices = args.inputs()[1];
  std::vector<Rule> rules;
  for (int64_t d = 0; d < indices.ndim(); ++d) {
    rules.push_back({{r, Placement::Shard(d)}, {Placement::Shard(d)}});
  }
  rules.push_back({{Placement::Shard(1), r}, {Placement::Shard(-1)}});
  for (ReduceOp op : kAllReduceOps) {
    rules.push_back({{Placement::Partial(op), r}, {Placement::Partial(op)}});
  }
  return KeepApplicable(args, std::move(rules));
}

absl::StatusOr<std::vector<Rule>> EmbeddingDenseBackward(const OpArgs& args) {
  const Placement r = Placement::Replicate();
  const TensorMeta& indices = args.inputs()[1];
  const bool scale = args.GetBool("scale_grad_by_freq").value_or(false);
  std::vector<Rule> rules;
  if (!scale) {
    for (int64_t d = 0; d < indices.ndim(); ++d) {
      rules.push_back(
          {{Placement::Shard(d), Placement::Shard(d)}, {Placement::Partial(ReduceOp::kSum)}});
    }
  }
  rules.push_back({{Placement::Shard(-1), r}, {Placement::Shard(1)}});
  for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kAvg}) {
    rules.push_back({{Placement::Partial(op), r}, {Placement::Partial(op)}});
  }
  return KeepApplicable(args, std::move(rules));
}

SHRT_REGISTER_STRATEGY("aten::embedding", Embedding);
SHRT_REGISTER_STRATEGY("aten::embedding_dense_backward", EmbeddingDenseBackward);

}  // namespace
}  // namespace shrt
