// Strategies for indexing overloads: gather, scatter (src, value, add),
// index_select, index_add and masked_fill.
//
// Shard rules (DTensor's _tensor_ops.py does the same):
//   - gather/scatter address elements by (index value along `dim`, the
//     element's own position along every other dim d): self, index (and
//     src) sharded alike on d != dim stay aligned when their sizes on d are
//     equal (index may be smaller than self on d: then chunks misalign);
//   - gather's output has index's shape and looks self up by value, so
//     R self with index S(dim) -> S(dim);
//   - index_select: self S(d), d != dim -> S(d); 1-D index S(0) -> S(dim);
//   - scatter_add/index_add sum contributions: with self P(sum), index and
//     src sharded on `dim` (each rank adds its chunk's contributions) give
//     P(sum) when src's chunks on dim align with index's;
//   - masked_fill is pointwise over self and its broadcast mask.
// Partial rules: gather, index_select and scatter.src only select elements,
// so self (and src) P(op) -> P(op) for every reduce op; a Replicate operand
// is the same on every rank, which the idempotent reductions (avg, max, min)
// keep. A scalar fill value is written on every rank: it keeps P(avg|max|min),
// P(sum) only when it is 0 and P(product) when it is 0 or 1. scatter_add and
// index_add are linear in (self, src): P(sum)/P(avg) on both, and P(op) on
// self alone for avg/max/min (adding the same amount on every rank).
// The registry derives the in-place and out= overloads (scatter_,
// scatter_add_, masked_fill_, gather.out, ...): in place, self keeps its
// placement (rules that change it dropped).
#include <vector>

#include "c10/core/ScalarType.h"
#include "c10/core/WrapDimMinimal.h"
#include "shrt/registry.h"
#include "shrt/strategies/partial_algebra.h"
#include "shrt/strategies/pointwise_rules.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

using P = Placement;

// Size of `m` on dim d, or -1 when it has no such dim.
int64_t SizeAt(const TensorMeta& m, int64_t d) { return d >= 0 && d < m.ndim() ? m.sizes[d] : -1; }

// aten::gather(self, dim, index): inputs self, index.
absl::StatusOr<std::vector<Rule>> GatherRules(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() != 2) return rules.Take();
  const TensorMeta& self = args.inputs()[0];
  const TensorMeta& index = args.inputs()[1];
  const int64_t dim = c10::maybe_wrap_dim(args.GetInt("dim").value_or(0), self.ndim());
  if (index.ndim() > 0) rules.Add({P::Replicate(), P::Shard(dim)}, {P::Shard(dim)});
  // Index of size 1 on d: rank 0 holds all of it, the other ranks nothing.
  for (int64_t d = 0; d < index.ndim(); ++d) {
    if (SizeAt(index, d) == 1) rules.Add({P::Replicate(), P::Shard(d)}, {P::Shard(d)});
  }
  if (self.ndim() == index.ndim()) {
    for (int64_t d = 0; d < self.ndim(); ++d) {
      if (d != dim && SizeAt(self, d) == SizeAt(index, d)) {
        rules.Add({P::Shard(d), P::Shard(d)}, {P::Shard(d)});
      }
    }
  }
  for (ReduceOp op : kAllReduceOps) rules.Add({P::Partial(op), P::Replicate()}, {P::Partial(op)});
  return rules.Take();
}

// aten::index_select(self, dim, index): inputs self, index (0-d or 1-D).
absl::StatusOr<std::vector<Rule>> IndexSelectRules(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() != 2) return rules.Take();
  const TensorMeta& self = args.inputs()[0];
  const TensorMeta& index = args.inputs()[1];
  const int64_t dim = c10::maybe_wrap_dim(args.GetInt("dim").value_or(0), self.ndim());
  for (int64_t d = 0; d < self.ndim(); ++d) {
    if (d != dim) rules.Add({P::Shard(d), P::Replicate()}, {P::Shard(d)});
  }
  if (index.ndim() == 1 && self.ndim() > 0) rules.Add({P::Replicate(), P::Shard(0)}, {P::Shard(dim)});
  for (ReduceOp op : kAllReduceOps) rules.Add({P::Partial(op), P::Replicate()}, {P::Partial(op)});
  return rules.Take();
}

enum class ScatterKind { kSrc, kValue, kAdd };

// aten::scatter.src / scatter.value / scatter_add (self, dim, index[, src]).
absl::StatusOr<std::vector<Rule>> ScatterRules(const OpArgs& args, ScatterKind kind) {
  RuleSet rules(args);
  const bool has_src = kind != ScatterKind::kValue;
  if (args.inputs().size() != (has_src ? 3u : 2u)) return rules.Take();
  const TensorMeta& self = args.inputs()[0];
  const TensorMeta& index = args.inputs()[1];
  const int64_t dim = c10::maybe_wrap_dim(args.GetInt("dim").value_or(0), self.ndim());
  auto with_src = [&](Placement s, Placement i, Placement src, Placement out) {
    if (has_src) {
      rules.Add({s, i, src}, {out});
    } else {
      rules.Add({s, i}, {out});
    }
  };
  // Shards aligned on d != dim.
  if (self.ndim() == index.ndim()) {
    for (int64_t d = 0; d < self.ndim(); ++d) {
      if (d == dim || SizeAt(self, d) != SizeAt(index, d)) continue;
      if (has_src && SizeAt(args.inputs()[2], d) != SizeAt(index, d)) continue;
      with_src(P::Shard(d), P::Shard(d), P::Shard(d), P::Shard(d));
      // Size 1 on d: rank 0 holds self and index whole, so a whole src works.
      if (SizeAt(index, d) == 1) with_src(P::Shard(d), P::Shard(d), P::Replicate(), P::Shard(d));
    }
  }
  const P r = P::Replicate();
  switch (kind) {
    case ScatterKind::kSrc: {
      const c10::ScalarType sd = args.inputs()[2].dtype;
      for (ReduceOp op : kAllReduceOps) {
        if (ConversionKeeps(sd, self.dtype, op)) {
          with_src(P::Partial(op), r, P::Partial(op), P::Partial(op));
        }
      }
      for (ReduceOp op : kIdempotentReduceOps) {
        with_src(P::Partial(op), r, r, P::Partial(op));
        if (ConversionKeeps(sd, self.dtype, op)) with_src(r, r, P::Partial(op), P::Partial(op));
      }
      break;
    }
    case ScatterKind::kValue: {
      const std::optional<double> value = args.GetDouble("value");
      for (ReduceOp op : kAllReduceOps) {
        if (ConstantKeeps(value, op)) rules.Add({P::Partial(op), r}, {P::Partial(op)});
      }
      // 0 absorbs a product: a position any rank's index chunk writes is 0.
      if (value.has_value() && *value == 0 && index.ndim() > 0) {
        rules.Add({P::Partial(ReduceOp::kProduct), P::Shard(dim)}, {P::Partial(ReduceOp::kProduct)});
      }
      break;
    }
    case ScatterKind::kAdd: {
      const TensorMeta& src = args.inputs()[2];
      const bool same = src.dtype == self.dtype;
      if (same) {
        with_src(P::Partial(ReduceOp::kSum), r, P::Partial(ReduceOp::kSum), P::Partial(ReduceOp::kSum));
        with_src(P::Partial(ReduceOp::kAvg), r, P::Partial(ReduceOp::kAvg), P::Partial(ReduceOp::kAvg));
        with_src(r, r, P::Partial(ReduceOp::kAvg), P::Partial(ReduceOp::kAvg));
        // Each rank adds the contributions of its chunk of (index, src) on dim.
        if (self.ndim() > 0 && self.ndim() == index.ndim() && SizeAt(index, dim) == SizeAt(src, dim)) {
          with_src(P::Partial(ReduceOp::kSum), P::Shard(dim), P::Shard(dim), P::Partial(ReduceOp::kSum));
        }
        // Index of size 1 on d: rank 0 adds every contribution (src's chunk 0
        // holds position 0 on d, the only one index reaches), the others none.
        for (int64_t d = 0; d < index.ndim() && self.ndim() == index.ndim(); ++d) {
          if (SizeAt(index, d) != 1) continue;
          with_src(P::Partial(ReduceOp::kSum), P::Shard(d), r, P::Partial(ReduceOp::kSum));
          with_src(P::Partial(ReduceOp::kSum), P::Shard(d), P::Shard(d), P::Partial(ReduceOp::kSum));
        }
      }
      for (ReduceOp op : kIdempotentReduceOps) with_src(P::Partial(op), r, r, P::Partial(op));
      break;
    }
  }
  return rules.Take();
}

// aten::index_add(self, dim, index, source, alpha): inputs self, index, source.
absl::StatusOr<std::vector<Rule>> IndexAddRules(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() != 3) return rules.Take();
  const TensorMeta& self = args.inputs()[0];
  const TensorMeta& index = args.inputs()[1];
  const TensorMeta& source = args.inputs()[2];
  const int64_t dim = c10::maybe_wrap_dim(args.GetInt("dim").value_or(0), self.ndim());
  const P r = P::Replicate();
  if (self.ndim() == source.ndim()) {
    for (int64_t d = 0; d < self.ndim(); ++d) {
      if (d != dim) rules.Add({P::Shard(d), r, P::Shard(d)}, {P::Shard(d)});
    }
  }
  if (source.dtype == self.dtype) {
    const P sum = P::Partial(ReduceOp::kSum), avg = P::Partial(ReduceOp::kAvg);
    rules.Add({sum, r, sum}, {sum});
    rules.Add({avg, r, avg}, {avg});
    rules.Add({r, r, avg}, {avg});
    if (index.ndim() == 1 && self.ndim() > 0 && self.ndim() == source.ndim()) {
      rules.Add({sum, P::Shard(0), P::Shard(dim)}, {sum});
    }
  }
  for (ReduceOp op : kIdempotentReduceOps) rules.Add({P::Partial(op), r, r}, {P::Partial(op)});
  return rules.Take();
}

// aten::masked_fill.Scalar / .Tensor (self, mask, value), pointwise over
// the broadcast of self and mask.
absl::StatusOr<std::vector<Rule>> MaskedFillRules(const OpArgs& args, bool tensor_value) {
  RuleSet rules(args);
  for (Rule& rule : PointwiseShardRules(args)) rules.Add(rule.inputs, rule.outputs);
  const P r = P::Replicate();
  if (tensor_value && args.inputs().size() == 3) {
    const c10::ScalarType self_t = args.inputs()[0].dtype, value_t = args.inputs()[2].dtype;
    for (ReduceOp op : kAllReduceOps) {
      if (ConversionKeeps(value_t, self_t, op)) {
        rules.Add({P::Partial(op), r, P::Partial(op)}, {P::Partial(op)});
      }
    }
    for (ReduceOp op : kIdempotentReduceOps) {
      rules.Add({P::Partial(op), r, r}, {P::Partial(op)});
      if (ConversionKeeps(value_t, self_t, op)) rules.Add({r, r, P::Partial(op)}, {P::Partial(op)});
    }
  } else if (!tensor_value && args.inputs().size() == 2) {
    const std::optional<double> value = args.GetDouble("value");
    for (ReduceOp op : kAllReduceOps) {
      if (ConstantKeeps(value, op)) rules.Add({P::Partial(op), r}, {P::Partial(op)});
    }
  }
  return rules.Take();
}

SHRT_REGISTER_STRATEGY("aten::gather", GatherRules);
SHRT_REGISTER_STRATEGY("aten::index_select", IndexSelectRules);
SHRT_REGISTER_STRATEGY("aten::scatter.src",
                       [](const OpArgs& a) { return ScatterRules(a, ScatterKind::kSrc); });
SHRT_REGISTER_STRATEGY("aten::scatter.value",
                       [](const OpArgs& a) { return ScatterRules(a, ScatterKind::kValue); });
SHRT_REGISTER_STRATEGY("aten::scatter_add",
                       [](const OpArgs& a) { return ScatterRules(a, ScatterKind::kAdd); });
SHRT_REGISTER_STRATEGY("aten::index_add", IndexAddRules);
SHRT_REGISTER_STRATEGY("aten::masked_fill.Scalar",
                       [](const OpArgs& a) { return MaskedFillRules(a, false); });
SHRT_REGISTER_STRATEGY("aten::masked_fill.Tensor",
                       [](const OpArgs& a) { return MaskedFillRules(a, true); });

}  // namespace
}  // namespace shrt
