// Strategies for indexing by a list of index tensors ("advanced indexing"):
// index.Tensor and index_put (the rest of the indexing family: indexing.cc).
//
// Shard rules:
//   - index.Tensor(self, indices) with k index tensors (no None entries)
//     indexes self's first k dims; the output is broadcast(indices) followed
//     by self's other dims. A non-indexed self dim d >= k shards with
//     Replicate indices -> S(d - k + B) (B = broadcast rank); indices
//     sharded alike on a broadcast dim (those that broadcast along it stay
//     R) with a Replicate self -> S of that dim, pointwise in the indices
//     (DTensor's prop_index in torch/distributed/tensor/_ops/_tensor_ops.py
//     does both).
//   - index_put(self, indices, values) writes values' slices at the indexed
//     coordinates: a non-indexed self dim shards with values' matching
//     (right-aligned) dim, or a Replicate values that broadcasts along it;
//     indices Replicate (DTensor's index_put_single_dim_strategy).
// Partial rules: index.Tensor only selects elements, so self P(op) -> P(op)
// for every reduce op. index_put (no accumulate) copies values of self and
// of `values`: both P(op) -> P(op), one P(avg|max|min) beside a Replicate
// other (AddCopyPartials). index_put with accumulate adds like index_add, and
// with P(sum) self each rank adding the values at its chunk of the index
// coordinates (indices sharded alike on a broadcast dim, values sharded or
// broadcast there) gives P(sum); when values broadcast over every index dim,
// a position written k times gets self + k * v, increasing in v, so R self
// with P(max|min) values keeps it.
#include <algorithm>
#include <vector>

#include "c10/core/ScalarType.h"
#include "shrt/strategies/indexing_rules.h"
#include "shrt/strategies/partial_algebra.h"
#include "shrt/strategies/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

using P = Placement;
using indexing_internal::AddCopyPartials;
using indexing_internal::AddWithMid;

// Broadcast shape of the index tensors inputs()[1 .. 1+k).
std::vector<int64_t> BroadcastIndexShape(const OpArgs& args, size_t k) {
  int64_t nd = 0;
  for (size_t i = 1; i <= k; ++i) nd = std::max(nd, args.inputs()[i].ndim());
  std::vector<int64_t> shape(nd, 1);
  for (size_t i = 1; i <= k; ++i) {
    const TensorMeta& t = args.inputs()[i];
    for (int64_t j = 0; j < t.ndim(); ++j) {
      const int64_t s = t.sizes[j];
      int64_t& b = shape[nd - t.ndim() + j];
      if (s != 1) b = s;
    }
  }
  return shape;
}

// Appends the placements of indices inputs()[1 .. 1+k) sharded alike on
// broadcast dim j: S of their own matching dim, R where they broadcast.
void AppendIndexShards(const OpArgs& args, size_t k, const std::vector<int64_t>& bshape, int64_t j,
                       std::vector<P>& in) {
  const int64_t nb = static_cast<int64_t>(bshape.size());
  for (size_t i = 1; i <= k; ++i) {
    const TensorMeta& t = args.inputs()[i];
    const int64_t tj = j - (nb - t.ndim());
    in.push_back(tj >= 0 && t.sizes[tj] == bshape[j] ? P::Shard(tj) : P::Replicate());
  }
}

// aten::index.Tensor(self, indices): inputs self, indices[0..k).
absl::StatusOr<std::vector<Rule>> IndexTensorRules(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() < 2) return rules.Take();
  const TensorMeta& self = args.inputs()[0];
  const size_t k = args.inputs().size() - 1;
  for (size_t i = 1; i <= k; ++i) {
    // Bool masks index through nonzero: their shapes do not give B.
    if (args.inputs()[i].dtype == c10::ScalarType::Bool) return rules.Take();
  }
  const std::vector<int64_t> bshape = BroadcastIndexShape(args, k);
  const int64_t nb = static_cast<int64_t>(bshape.size());
  const P r = P::Replicate();
  for (int64_t d = static_cast<int64_t>(k); d < self.ndim(); ++d) {
    std::vector<P> in{P::Shard(d)};
    in.resize(k + 1, r);
    rules.Add(in, {P::Shard(d - static_cast<int64_t>(k) + nb)});
  }
  for (int64_t j = 0; j < nb; ++j) {
    std::vector<P> in{r};
    AppendIndexShards(args, k, bshape, j, in);
    rules.Add(in, {P::Shard(j)});
  }
  for (ReduceOp op : kAllReduceOps) {
    std::vector<P> in{P::Partial(op)};
    in.resize(k + 1, r);
    rules.Add(in, {P::Partial(op)});
  }
  return rules.Take();
}

// aten::index_put(self, indices, values, accumulate): inputs self,
// indices[0..k), values.
absl::StatusOr<std::vector<Rule>> IndexPutRules(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() < 3) return rules.Take();
  const TensorMeta& self = args.inputs()[0];
  const TensorMeta& values = args.inputs().back();
  const int n_mid = static_cast<int>(args.inputs().size()) - 2;
  for (int i = 1; i <= n_mid; ++i) {
    if (args.inputs()[i].dtype == c10::ScalarType::Bool) return rules.Take();
  }
  const std::vector<int64_t> bshape = BroadcastIndexShape(args, n_mid);
  const int64_t nb = static_cast<int64_t>(bshape.size());
  // values broadcasts to (*bshape, *self.sizes[n_mid:]); self dim d >= n_mid
  // is slot nb + d - n_mid of that shape.
  const int64_t slots = nb + self.ndim() - n_mid;
  // Metadata index_put rejects (more index tensors than self has dims, or
  // values of more dims than the shape it broadcasts to): no rule to claim,
  // and no slot of values to read.
  if (self.ndim() < n_mid || values.ndim() > slots) return rules.Take();
  const P r = P::Replicate();
  for (int64_t d = n_mid; d < self.ndim(); ++d) {
    const int64_t vd = nb + d - n_mid - (slots - values.ndim());
    if (vd < 0 || values.sizes[vd] == 1) AddWithMid(rules, P::Shard(d), n_mid, r, P::Shard(d));
    if (vd >= 0 && values.sizes[vd] == self.sizes[d]) {
      AddWithMid(rules, P::Shard(d), n_mid, P::Shard(vd), P::Shard(d));
    }
  }
  if (!args.GetBool("accumulate").value_or(false)) {
    AddCopyPartials(rules, n_mid, values.dtype, self.dtype);
    return rules.Take();
  }
  if (values.dtype == self.dtype) {
    const P sum = P::Partial(ReduceOp::kSum), avg = P::Partial(ReduceOp::kAvg);
    AddWithMid(rules, sum, n_mid, sum, sum);
    AddWithMid(rules, avg, n_mid, avg, avg);
    AddWithMid(rules, r, n_mid, avg, avg);
    // Each rank adds the values at its chunk of the index coordinates.
    for (int64_t j = 0; j < nb; ++j) {
      const int64_t vd = j - (slots - values.ndim());
      if (vd >= 0 && values.sizes[vd] != 1 && values.sizes[vd] != bshape[j]) continue;
      std::vector<P> in{sum};
      AppendIndexShards(args, n_mid, bshape, j, in);
      in.push_back(vd >= 0 && values.sizes[vd] != 1 ? P::Shard(vd) : r);
      rules.Add(in, {sum});
    }
    // values broadcast over every index dim: a position written k times
    // gets self + k * v, increasing in v.
    bool broadcast_over_index = true;
    for (int64_t j = 0; j < nb; ++j) {
      const int64_t vd = j - (slots - values.ndim());
      if (vd >= 0 && values.sizes[vd] != 1) broadcast_over_index = false;
    }
    if (broadcast_over_index) {
      for (ReduceOp op : {ReduceOp::kMax, ReduceOp::kMin}) {
        AddWithMid(rules, r, n_mid, P::Partial(op), P::Partial(op));
      }
    }
  }
  for (ReduceOp op : kIdempotentReduceOps) AddWithMid(rules, P::Partial(op), n_mid, r, P::Partial(op));
  return rules.Take();
}

SHRT_REGISTER_STRATEGY("aten::index.Tensor", IndexTensorRules);
SHRT_REGISTER_STRATEGY("aten::index_put", IndexPutRules);
// index_put's kernel, with an `unsafe` flag that skips the bounds check.
SHRT_REGISTER_STRATEGY("aten::_index_put_impl", IndexPutRules);

}  // namespace
}  // namespace shrt
