// Strategies for indexing overloads: gather, scatter (src, value, add),
// scatter_reduce.two, index_reduce, index_select, index_add, index_copy,
// index_fill (int_Scalar, int_Tensor), index.Tensor, index_put, masked_fill
// and masked_scatter.
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
//   - index_copy/index_fill act along `dim` only: self (and source) S(d),
//     d != dim, with a Replicate index.
//   - scatter_reduce.two shards as scatter (d != dim, equal sizes);
//     index_reduce as index_add (self and source S(d), d != dim).
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
//   - masked_scatter consumes source in order of the mask's true elements:
//     a rank's chunk of the mask would start at source's beginning, so no
//     shard rule, but for an output dim of size 1 (rank 0 holds everything,
//     the other ranks an empty chunk that consumes nothing).
// Partial rules: gather, index_select and scatter.src only select elements,
// so self (and src) P(op) -> P(op) for every reduce op; a Replicate operand
// is the same on every rank, which the idempotent reductions (avg, max, min)
// keep. A scalar fill value is written on every rank: it keeps P(avg|max|min),
// P(sum) only when it is 0 and P(product) when it is 0 or 1. scatter_add and
// index_add are linear in (self, src): P(sum)/P(avg) on both, and P(op) on
// self alone for avg/max/min (adding the same amount on every rank).
// index_copy, index_put (no accumulate) and masked_scatter copy values of
// self and a second tensor: both P(op) -> P(op), one P(avg|max|min) beside
// a Replicate other. index_fill writes a constant like masked_fill; with
// 0, P(product) self and index S(0) -> P(product) (0 absorbs the product,
// as scatter.value). index_put with accumulate adds like index_add, and
// with P(sum) self each rank adding the values at its chunk of the index
// coordinates (indices sharded alike on a broadcast dim, values sharded or
// broadcast there) gives P(sum); when values broadcast over every index dim,
// a position written k times gets self + k * v, increasing in v, so R self
// with P(max|min) values keeps it. scatter_reduce.two, by
// reduce, with c the contributions of src to a position:
//   - every reduce, include_self=False: a written position holds f(c) only,
//     identical on every rank when src is Replicate, so self
//     P(avg|max|min), index and src R -> the same P;
//   - sum: linear in (self, src) (P(sum), P(avg) on both; R self with
//     P(avg) src); include_self: self P(avg|max|min) with R src (adding the
//     same c on every rank), and P(sum) self with index and src S(dim) ->
//     P(sum) (each rank adds its chunk's contributions, as scatter_add);
//   - prod: the product over ranks commutes with the product of
//     contributions: P(product) self and src; include_self: linear in self
//     alone (P(sum), P(avg) self with R src);
//   - amax/amin: max (min) over ranks commutes with max (min) of
//     contributions: P(max) (P(min)) on self and src, or on src with R self;
//     include_self: max(x, c) is increasing in x, so self P(max|min) with R
//     src; include_self with index and src S(dim) and self P(max) (amax) ->
//     P(max) (each rank folds its chunk into its part);
//   - mean (floating dtypes): include_self gives (self + sum c) / (n + 1),
//     linear in (self, src), increasing in self; without self, mean(c) is
//     linear in src. Integer mean floors: only increasing in self.
//   - an index of size 1 on some dim d sharded S(d): rank 0 does the whole
//     scatter, the other ranks keep their part of self: with include_self,
//     P(sum|product|max|min) self for reduce sum|prod|amax|amin, and for
//     amax/amin a Replicate self too (the result is >= / <= self).
// index_reduce (prod, mean, amax, amin) follows the same algebra, its 1-D
// index's chunk pairing with source's chunk along dim.
// The registry derives the in-place and out= overloads (scatter_,
// scatter_add_, masked_fill_, gather.out, ...): in place, self keeps its
// placement (rules that change it dropped).
#include <algorithm>
#include <string>
#include <variant>
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

// The placements {a, R x n_mid, b} -> {out}.
void AddWithMid(RuleSet& rules, P a, int n_mid, P b, P out) {
  std::vector<P> in{a};
  for (int i = 0; i < n_mid; ++i) in.push_back(P::Replicate());
  in.push_back(b);
  rules.Add(in, {out});
}

// Partial rules of an op copying values of self and another tensor (n_mid
// Replicate index tensors in between): both P(op), or one P(avg|max|min)
// beside a Replicate other.
void AddCopyPartials(RuleSet& rules, int n_mid, c10::ScalarType from, c10::ScalarType to) {
  const P r = P::Replicate();
  for (ReduceOp op : kAllReduceOps) {
    if (ConversionKeeps(from, to, op)) AddWithMid(rules, P::Partial(op), n_mid, P::Partial(op), P::Partial(op));
  }
  for (ReduceOp op : kIdempotentReduceOps) {
    AddWithMid(rules, P::Partial(op), n_mid, r, P::Partial(op));
    if (ConversionKeeps(from, to, op)) AddWithMid(rules, r, n_mid, P::Partial(op), P::Partial(op));
  }
}

// aten::index_copy(self, dim, index, source): inputs self, index, source.
absl::StatusOr<std::vector<Rule>> IndexCopyRules(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() != 3) return rules.Take();
  const TensorMeta& self = args.inputs()[0];
  const TensorMeta& source = args.inputs()[2];
  const int64_t dim = c10::maybe_wrap_dim(args.GetInt("dim").value_or(0), self.ndim());
  if (self.ndim() == source.ndim()) {
    for (int64_t d = 0; d < self.ndim(); ++d) {
      if (d != dim) rules.Add({P::Shard(d), P::Replicate(), P::Shard(d)}, {P::Shard(d)});
    }
  }
  AddCopyPartials(rules, 1, source.dtype, self.dtype);
  return rules.Take();
}

// aten::index_fill.int_Scalar / .int_Tensor(self, dim, index, value).
absl::StatusOr<std::vector<Rule>> IndexFillRules(const OpArgs& args, bool tensor_value) {
  RuleSet rules(args);
  const size_t n = tensor_value ? 3 : 2;
  if (args.inputs().size() != n) return rules.Take();
  const TensorMeta& self = args.inputs()[0];
  const int64_t dim = c10::maybe_wrap_dim(args.GetInt("dim").value_or(0), self.ndim());
  const P r = P::Replicate();
  for (int64_t d = 0; d < self.ndim(); ++d) {
    if (d == dim) continue;
    if (tensor_value) {
      rules.Add({P::Shard(d), r, r}, {P::Shard(d)});
    } else {
      rules.Add({P::Shard(d), r}, {P::Shard(d)});
    }
  }
  if (tensor_value) {
    const c10::ScalarType value_t = args.inputs()[2].dtype;
    for (ReduceOp op : kAllReduceOps) {
      if (ConversionKeeps(value_t, self.dtype, op)) {
        rules.Add({P::Partial(op), r, P::Partial(op)}, {P::Partial(op)});
      }
    }
    for (ReduceOp op : kIdempotentReduceOps) {
      rules.Add({P::Partial(op), r, r}, {P::Partial(op)});
      if (ConversionKeeps(value_t, self.dtype, op)) rules.Add({r, r, P::Partial(op)}, {P::Partial(op)});
    }
  } else {
    const std::optional<double> value = args.GetDouble("value");
    for (ReduceOp op : kAllReduceOps) {
      if (ConstantKeeps(value, op)) rules.Add({P::Partial(op), r}, {P::Partial(op)});
    }
    // 0 absorbs a product: a position any rank's index chunk fills is 0.
    if (value.has_value() && *value == 0) {
      rules.Add({P::Partial(ReduceOp::kProduct), P::Shard(0)}, {P::Partial(ReduceOp::kProduct)});
    }
  }
  return rules.Take();
}

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

// aten::masked_scatter(self, mask, source).
absl::StatusOr<std::vector<Rule>> MaskedScatterRules(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() != 3) return rules.Take();
  const TensorMeta& self = args.inputs()[0];
  const TensorMeta& mask = args.inputs()[1];
  const P r = P::Replicate();
  // A dim of size 1 in the output: rank 0 holds everything, the others an
  // empty chunk that consumes no source.
  for (int64_t d = 0; d < self.ndim(); ++d) {
    const int64_t md = d - (self.ndim() - mask.ndim());
    if (self.sizes[d] != 1 || (md >= 0 && mask.sizes[md] != 1)) continue;
    rules.Add({P::Shard(d), r, r}, {P::Shard(d)});
  }
  AddCopyPartials(rules, 1, args.inputs()[2].dtype, self.dtype);
  return rules.Take();
}

// aten::scatter_reduce.two(self, dim, index, src, reduce, include_self).
absl::StatusOr<std::vector<Rule>> ScatterReduceRules(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() != 3) return rules.Take();
  const TensorMeta& self = args.inputs()[0];
  const TensorMeta& index = args.inputs()[1];
  const TensorMeta& src = args.inputs()[2];
  const int64_t dim = c10::maybe_wrap_dim(args.GetInt("dim").value_or(0), self.ndim());
  const P r = P::Replicate();
  const auto it = args.Find("reduce");
  if (it == nullptr || !std::holds_alternative<std::string>(*it)) return rules.Take();
  const std::string& reduce = std::get<std::string>(*it);
  const bool include_self = args.GetBool("include_self").value_or(true);
  const bool floating = c10::isFloatingType(self.dtype);
  const P sum = P::Partial(ReduceOp::kSum), avg = P::Partial(ReduceOp::kAvg);
  const P max = P::Partial(ReduceOp::kMax), min = P::Partial(ReduceOp::kMin);
  const P prod = P::Partial(ReduceOp::kProduct);
  // The Partial of self that folding contributions into one part keeps
  // (with include_self): sum, product, max, min; none for mean.
  std::optional<P> fold;
  if (reduce == "sum") fold = sum;
  if (reduce == "prod") fold = prod;
  if (reduce == "amax") fold = max;
  if (reduce == "amin") fold = min;
  if (self.ndim() == index.ndim()) {
    for (int64_t d = 0; d < self.ndim(); ++d) {
      if (d == dim || SizeAt(self, d) != SizeAt(index, d) || SizeAt(src, d) != SizeAt(index, d)) continue;
      rules.Add({P::Shard(d), P::Shard(d), P::Shard(d)}, {P::Shard(d)});
      // Size 1 on d: rank 0 holds self and index whole, so a whole src works.
      if (SizeAt(index, d) == 1) rules.Add({P::Shard(d), P::Shard(d), r}, {P::Shard(d)});
    }
    // Index of size 1 on d: rank 0 does the whole scatter, the other ranks
    // leave their part of self as it is.
    for (int64_t d = 0; d < self.ndim() && include_self && fold.has_value(); ++d) {
      if (SizeAt(index, d) != 1) continue;
      rules.Add({*fold, P::Shard(d), r}, {*fold});
      if (SizeAt(src, d) == 1) rules.Add({*fold, P::Shard(d), P::Shard(d)}, {*fold});
      // amax/amin: the result is >= (<=) self, which the other ranks hold.
      if (reduce == "amax" || reduce == "amin") {
        rules.Add({r, P::Shard(d), r}, {*fold});
        if (SizeAt(src, d) == 1) rules.Add({r, P::Shard(d), P::Shard(d)}, {*fold});
      }
    }
  }
  if (!include_self) {
    for (ReduceOp op : kIdempotentReduceOps) rules.Add({P::Partial(op), r, r}, {P::Partial(op)});
  }
  const bool dim_chunks = self.ndim() > 0 && self.ndim() == index.ndim() &&
                          SizeAt(index, dim) == SizeAt(src, dim);
  if (reduce == "sum" || (reduce == "mean" && floating)) {
    rules.Add({sum, r, sum}, {sum});
    rules.Add({avg, r, avg}, {avg});
    rules.Add({r, r, avg}, {avg});
    if (include_self) {
      for (ReduceOp op : kIdempotentReduceOps) rules.Add({P::Partial(op), r, r}, {P::Partial(op)});
      if (reduce == "sum" && dim_chunks) rules.Add({sum, P::Shard(dim), P::Shard(dim)}, {sum});
    }
  } else if (reduce == "mean") {
    // Integer mean floors (self + sum c) / (n + 1): increasing in self only.
    if (include_self) {
      rules.Add({max, r, r}, {max});
      rules.Add({min, r, r}, {min});
    }
  } else if (reduce == "prod") {
    rules.Add({prod, r, prod}, {prod});
    if (include_self) {
      rules.Add({sum, r, r}, {sum});
      rules.Add({avg, r, r}, {avg});
      if (dim_chunks) rules.Add({prod, P::Shard(dim), P::Shard(dim)}, {prod});
    }
  } else if (reduce == "amax" || reduce == "amin") {
    const P same = reduce == "amax" ? max : min;
    rules.Add({same, r, same}, {same});
    rules.Add({r, r, same}, {same});
    if (include_self) {
      rules.Add({max, r, r}, {max});
      rules.Add({min, r, r}, {min});
      if (dim_chunks) {
        rules.Add({same, P::Shard(dim), P::Shard(dim)}, {same});
        rules.Add({r, P::Shard(dim), P::Shard(dim)}, {same});
      }
    }
  }
  return rules.Take();
}

// aten::index_reduce(self, dim, index, source, reduce, include_self):
// inputs self, index (1-D), source; reduce is prod, mean, amax or amin.
// The Partial algebra is scatter_reduce's; index's chunk r pairs with
// source's chunk r along dim.
absl::StatusOr<std::vector<Rule>> IndexReduceRules(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() != 3) return rules.Take();
  const TensorMeta& self = args.inputs()[0];
  const TensorMeta& index = args.inputs()[1];
  const TensorMeta& source = args.inputs()[2];
  const int64_t dim = c10::maybe_wrap_dim(args.GetInt("dim").value_or(0), self.ndim());
  const P r = P::Replicate();
  if (self.ndim() == source.ndim()) {
    for (int64_t d = 0; d < self.ndim(); ++d) {
      if (d == dim) continue;
      // Not S(d), R, R on a size-1 d: libtorch 2.13 checks that source's
      // shape matches self's off dim, so an empty self chunk rejects the
      // whole source (libtorch 1.13 accepted the mismatch).
      rules.Add({P::Shard(d), r, P::Shard(d)}, {P::Shard(d)});
    }
  }
  const auto it = args.Find("reduce");
  if (it == nullptr || !std::holds_alternative<std::string>(*it)) return rules.Take();
  const std::string& reduce = std::get<std::string>(*it);
  const bool include_self = args.GetBool("include_self").value_or(true);
  const bool floating = c10::isFloatingType(self.dtype);
  const P sum = P::Partial(ReduceOp::kSum), avg = P::Partial(ReduceOp::kAvg);
  const P max = P::Partial(ReduceOp::kMax), min = P::Partial(ReduceOp::kMin);
  const P prod = P::Partial(ReduceOp::kProduct);
  if (!include_self) {
    for (ReduceOp op : kIdempotentReduceOps) rules.Add({P::Partial(op), r, r}, {P::Partial(op)});
  }
  const bool dim_chunks = index.ndim() == 1 && self.ndim() > 0 && self.ndim() == source.ndim();
  if (reduce == "mean") {
    if (floating) {
      rules.Add({sum, r, sum}, {sum});
      rules.Add({avg, r, avg}, {avg});
      rules.Add({r, r, avg}, {avg});
      if (include_self) {
        for (ReduceOp op : kIdempotentReduceOps) rules.Add({P::Partial(op), r, r}, {P::Partial(op)});
      }
    } else if (include_self) {
      rules.Add({max, r, r}, {max});
      rules.Add({min, r, r}, {min});
    }
  } else if (reduce == "prod") {
    rules.Add({prod, r, prod}, {prod});
    if (include_self) {
      rules.Add({sum, r, r}, {sum});
      rules.Add({avg, r, r}, {avg});
      if (dim_chunks) rules.Add({prod, P::Shard(0), P::Shard(dim)}, {prod});
    }
  } else if (reduce == "amax" || reduce == "amin") {
    const P same = reduce == "amax" ? max : min;
    rules.Add({same, r, same}, {same});
    rules.Add({r, r, same}, {same});
    if (include_self) {
      rules.Add({max, r, r}, {max});
      rules.Add({min, r, r}, {min});
      if (dim_chunks) {
        rules.Add({same, P::Shard(0), P::Shard(dim)}, {same});
        rules.Add({r, P::Shard(0), P::Shard(dim)}, {same});
      }
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
SHRT_REGISTER_STRATEGY("aten::index_copy", IndexCopyRules);
SHRT_REGISTER_STRATEGY("aten::index_fill.int_Scalar",
                       [](const OpArgs& a) { return IndexFillRules(a, false); });
SHRT_REGISTER_STRATEGY("aten::index_fill.int_Tensor",
                       [](const OpArgs& a) { return IndexFillRules(a, true); });
SHRT_REGISTER_STRATEGY("aten::index.Tensor", IndexTensorRules);
SHRT_REGISTER_STRATEGY("aten::index_put", IndexPutRules);
SHRT_REGISTER_STRATEGY("aten::masked_scatter", MaskedScatterRules);
SHRT_REGISTER_STRATEGY("aten::scatter_reduce.two", ScatterReduceRules);
SHRT_REGISTER_STRATEGY("aten::index_reduce", IndexReduceRules);
SHRT_REGISTER_STRATEGY("aten::masked_fill.Scalar",
                       [](const OpArgs& a) { return MaskedFillRules(a, false); });
SHRT_REGISTER_STRATEGY("aten::masked_fill.Tensor",
                       [](const OpArgs& a) { return MaskedFillRules(a, true); });

}  // namespace
}  // namespace shrt
