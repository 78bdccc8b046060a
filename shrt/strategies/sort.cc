// Strategies for sorting along one dim: topk, sort, sort.stable, argsort,
// argsort.stable (dim -1 by default), msort (always dim 0)
// (DTensor's _tensor_ops.py / _math_ops.py: sort and topk follow the
// dims other than the sorted one).
//
// Each slice along `dim` is sorted on its own, so sharding any other dim
// shards values and indices the same way: S(d) -> S(d), S(d) for d != dim
// (uneven and empty chunks included: an empty chunk sorts to empty results).
// The sorted dim itself cannot be sharded: the local order (and the local
// indices) ignore the other ranks' elements. No Partial survives: the order
// of a sum (or max, ...) of parts is not any combination of the parts'
// orders, and indices are positions, never a reduction of positions. (On a
// size-1 sorted dim the values pass through, but the indices are then all
// zero, so no such case is informative; those rules are not claimed.)
//
// bucketize(self, boundaries): each element's bucket in the sorted 1-D
// boundaries, so every dim of self shards with boundaries R. The bucket is
// the count of boundaries below the element (at or below, with right), so
// a shard of the boundaries with self R counts each rank's chunk: R, S(0)
// -> P(sum). It is non-decreasing in the element, nan counting as above
// every boundary: P(max) of self with boundaries R. Not P(min): a P(min)
// nan is nan on one rank (the top bucket) and finite on the others, whose
// lower buckets win.
#include <algorithm>
#include <vector>

#include "shrt/strategies/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

absl::StatusOr<std::vector<Rule>> SortLike(const OpArgs& args, int64_t default_dim) {
  const TensorMeta& self = args.inputs()[0];
  const int64_t ndim = self.ndim();
  int64_t dim = args.GetInt("dim").value_or(default_dim);
  if (dim < 0) dim += std::max<int64_t>(ndim, 1);
  std::vector<Rule> rules;
  for (int64_t d = 0; d < ndim; ++d) {
    if (d == dim) continue;
    rules.push_back({{Placement::Shard(d)},
                     std::vector<Placement>(args.outputs().size(), Placement::Shard(d))});
  }
  return rules;
}

absl::StatusOr<std::vector<Rule>> BucketizeRules(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() != 2) return rules.Take();
  const Placement r = Placement::Replicate();
  for (int64_t d = 0; d < args.inputs()[0].ndim(); ++d) {
    rules.Add({Placement::Shard(d), r}, {Placement::Shard(d)});
  }
  rules.Add({r, Placement::Shard(0)}, {Placement::Partial(ReduceOp::kSum)});
  rules.Add({Placement::Partial(ReduceOp::kMax), r}, {Placement::Partial(ReduceOp::kMax)});
  return rules.Take();
}

absl::StatusOr<std::vector<Rule>> SortLastByDefault(const OpArgs& args) { return SortLike(args, -1); }
// msort(self) sorts along dim 0 (= sort(self, dim=0).values).
absl::StatusOr<std::vector<Rule>> SortFirst(const OpArgs& args) { return SortLike(args, 0); }

SHRT_REGISTER_STRATEGY("aten::topk", SortLastByDefault);
SHRT_REGISTER_STRATEGY("aten::sort", SortLastByDefault);
SHRT_REGISTER_STRATEGY("aten::sort.stable", SortLastByDefault);
SHRT_REGISTER_STRATEGY("aten::argsort", SortLastByDefault);
SHRT_REGISTER_STRATEGY("aten::argsort.stable", SortLastByDefault);
SHRT_REGISTER_STRATEGY("aten::msort", SortFirst);
SHRT_REGISTER_STRATEGY("aten::bucketize.Tensor", BucketizeRules);

}  // namespace
}  // namespace shrt
