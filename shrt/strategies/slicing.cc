// Strategies for slicing: select.int, slice.Tensor, narrow, slice_scatter,
// and the copies select_copy.int, slice_copy.Tensor and narrow_copy, which
// return the same elements as their view in a fresh tensor and share its
// rules (narrow_copy, like narrow, checks start + length <= size on the
// local tensor and does not clamp). DTensor: torch/distributed/tensor/
// _ops/_tensor_ops.py (select_int strategy, slice strategy: shard on any
// dim but the sliced one, or the sliced one when the slice is the whole dim).
//
// Each rank slices its local tensor with the global arguments, so a dim
// other than the sliced one may be sharded (select drops its dim: sharded
// dims after it shift down by one), while sharding the sliced dim is not
// local (start/end/index count from the global start). The one exception:
// slice.Tensor covering the whole dim with step 1 (start 0 / None / <= -n,
// end None or >= n) is the identity, and a local slice clamps its bounds to
// the local chunk, so S(dim) -> S(dim) holds (narrow does not clamp).
// Slicing selects elements, so P(op) -> P(op) for every reduce op.
// narrow.Tensor is narrow with `start` given as a 0-d integer tensor, which
// must be R (each rank needs the global start).
#include <limits>
#include <vector>

#include "c10/core/WrapDimMinimal.h"
#include "shrt/strategies/partial_algebra.h"
#include "shrt/strategies/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

using P = Placement;

// True if slice(dim, start, end, step) of a dim of size n is the whole dim.
bool WholeSlice(const OpArgs& args, int64_t n) {
  if (args.GetInt("step").value_or(1) != 1) return false;
  int64_t start = args.GetInt("start").value_or(0);
  int64_t end = args.GetInt("end").value_or(std::numeric_limits<int64_t>::max());
  if (start < 0) start += n;
  if (end < 0) end += n;
  return start <= 0 && end >= n;
}

// select.int / slice.Tensor / narrow (and their copies): one input, one
// output; narrow.Tensor also takes `start` as a 0-d tensor, which must be
// R (every rank needs the global start; a Partial start is a different
// number on each rank).
absl::StatusOr<std::vector<Rule>> SliceRules(const OpArgs& args, bool drops_dim, bool clamps) {
  RuleSet rules(args);
  const size_t n = args.inputs().size();
  if (n != 1 && n != 2) return rules.Take();
  auto add = [&](Placement self, Placement out) {
    if (n == 1) {
      rules.Add({self}, {out});
    } else {
      rules.Add({self, P::Replicate()}, {out});
    }
  };
  const TensorMeta& self = args.inputs()[0];
  const int64_t dim = c10::maybe_wrap_dim(args.GetInt("dim").value_or(0), self.ndim());
  for (int64_t d = 0; d < self.ndim(); ++d) {
    if (d == dim) continue;
    add(P::Shard(d), P::Shard(drops_dim && d > dim ? d - 1 : d));
  }
  if (clamps && n == 1 && dim >= 0 && dim < self.ndim() && WholeSlice(args, self.sizes[dim])) {
    add(P::Shard(dim), P::Shard(dim));
  }
  for (ReduceOp op : kAllReduceOps) add(P::Partial(op), P::Partial(op));
  return rules.Take();
}

// slice_scatter(self, src, dim, start, end, step).
absl::StatusOr<std::vector<Rule>> SliceScatterRules(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() != 2) return rules.Take();
  const TensorMeta& self = args.inputs()[0];
  const TensorMeta& src = args.inputs()[1];
  const int64_t dim = c10::maybe_wrap_dim(args.GetInt("dim").value_or(0), self.ndim());
  if (self.ndim() == src.ndim()) {
    for (int64_t d = 0; d < self.ndim(); ++d) {
      if (d != dim) rules.Add({P::Shard(d), P::Shard(d)}, {P::Shard(d)});
    }
  }
  for (ReduceOp op : kAllReduceOps) rules.Add({P::Partial(op), P::Partial(op)}, {P::Partial(op)});
  for (ReduceOp op : kIdempotentReduceOps) {
    rules.Add({P::Partial(op), P::Replicate()}, {P::Partial(op)});
    rules.Add({P::Replicate(), P::Partial(op)}, {P::Partial(op)});
  }
  return rules.Take();
}

// select_backward(grad, input_sizes, dim, index) and slice_backward(grad,
// input_sizes, dim, start, end, step): zeros of input_sizes with grad
// written at the index (a new dim) or the slice of dim. Each rank passes
// the input_sizes of its own output (the specs' local_shape_arg, as DTensor
// rewrites it). A dim of grad shards the output's matching dim, but not the
// sliced one; every Partial passes (the zeros are a P(op) of 0 for every
// op: partial_algebra.h ConstantKeeps).
absl::StatusOr<std::vector<Rule>> SliceBackwardRules(const OpArgs& args, bool inserts_dim) {
  RuleSet rules(args);
  if (args.inputs().size() != 1 || args.outputs().size() != 1) return rules.Take();
  const int64_t out_ndim = args.outputs()[0].ndim();
  const int64_t dim = c10::maybe_wrap_dim(args.GetInt("dim").value_or(0), out_ndim);
  for (int64_t g = 0; g < args.inputs()[0].ndim(); ++g) {
    if (inserts_dim) {
      rules.Add({P::Shard(g)}, {P::Shard(g >= dim ? g + 1 : g)});
    } else if (g != dim) {
      rules.Add({P::Shard(g)}, {P::Shard(g)});
    }
  }
  for (ReduceOp op : kAllReduceOps) {
    if (ConstantKeeps(0.0, op)) rules.Add({P::Partial(op)}, {P::Partial(op)});
  }
  return rules.Take();
}

SHRT_REGISTER_STRATEGY("aten::select_backward",
                       [](const OpArgs& a) { return SliceBackwardRules(a, true); });
SHRT_REGISTER_STRATEGY("aten::slice_backward",
                       [](const OpArgs& a) { return SliceBackwardRules(a, false); });
SHRT_REGISTER_STRATEGY("aten::select.int", [](const OpArgs& a) { return SliceRules(a, true, false); });
SHRT_REGISTER_STRATEGY("aten::slice.Tensor", [](const OpArgs& a) { return SliceRules(a, false, true); });
SHRT_REGISTER_STRATEGY("aten::narrow", [](const OpArgs& a) { return SliceRules(a, false, false); });
SHRT_REGISTER_STRATEGY("aten::slice_scatter", SliceScatterRules);
SHRT_REGISTER_STRATEGY("aten::select_copy.int",
                       [](const OpArgs& a) { return SliceRules(a, true, false); });
SHRT_REGISTER_STRATEGY("aten::slice_copy.Tensor",
                       [](const OpArgs& a) { return SliceRules(a, false, true); });
SHRT_REGISTER_STRATEGY("aten::narrow.Tensor",
                       [](const OpArgs& a) { return SliceRules(a, false, false); });
SHRT_REGISTER_STRATEGY("aten::narrow_copy",
                       [](const OpArgs& a) { return SliceRules(a, false, false); });

}  // namespace
}  // namespace shrt
