// Strategies for structural tensor ops that move, mask, repeat or rewrite
// elements without arithmetic across them: tril, triu, roll, flip, repeat,
// tile, diag, diag_embed, constant_pad_nd, new_zeros/new_ones/new_full,
// select_scatter, diagonal_scatter, as_strided_scatter, take and put.
//
// Shard rules (each rank runs the op on its chunk with the global
// non-tensor arguments, so a dim may be sharded only where the op does not
// look at positions along it):
//   - tril/triu(diagonal) keep element (i, j) of the last two dims iff
//     j - i <= diagonal (tril) / >= diagonal (triu): batch dims d < ndim-2
//     shard, S(d) -> S(d). Sharding the row or column dim shifts the local
//     index origin (rank r's row 0 is global row r*c), so the diagonal offset
//     is wrong on every rank but 0; it is not claimed. Exceptions: a dim of
//     size 1 (rank 0 holds it whole, the other ranks an empty chunk), and a
//     diagonal that keeps every element or none (then positions do not
//     matter: tril with diagonal >= cols-1 or < -(rows-1), triu with
//     diagonal <= -(rows-1) or > cols-1).
//   - roll(shifts, dims) and flip(dims) permute positions along `dims` only:
//     every other dim shards, and so does a rolled/flipped dim of size 1
//     (the permutation of one position is the identity). roll with empty
//     dims rolls the flattened tensor: no shard rule; flip with empty dims
//     is the identity: every dim shards.
//   - repeat(repeats) tiles each dim repeats[i] times (new leading dims for
//     extra repeats): a dim repeated once keeps its shard, shifted by the
//     number of leading new dims; a dim repeated k > 1 times would give
//     [chunk, chunk, ...] locally, which is not a chunk of the tiled dim.
//     tile(dims) is repeat with dims left-padded by 1s to self's rank.
//   - diag(diagonal) builds a matrix from a 1-D self or takes a matrix's
//     diagonal: both mix the positions of two dims, no shard rule but for
//     a matrix dim of size 1 (rank 0 holds the whole matrix).
//   - diag_embed(offset, dim1, dim2) puts the last dim on a diagonal of the
//     new (dim1, dim2) plane and keeps every other input dim in order in the
//     remaining output dims: those shard (DTensor has no rule for it).
//   - constant_pad_nd(pad, value) pads the last len(pad)/2 dims; a dim not
//     named by pad, or padded by (0, 0), shards. (libtorch 1.13 rejected an
//     empty chunk of a dim named by pad even with (0, 0); 2.13 accepts it.)
//   - new_zeros/new_ones/new_full(size) write a constant of shape `size`
//     that ignores self's values. DTensor rewrites `size` to the output's
//     local shape before the local call (sharding_prop.py's
//     op_to_shape_and_stride_idx; the specs say local_shape_arg: "size"),
//     so any self placement gives a Replicate output or any S(k) output
//     (each rank fills its own chunk). DTensor's new_factory_strategy
//     (_tensor_ops.py) claims the subset: R, and a sharded self's placement
//     when the shapes agree.
//   - select_scatter(src, dim, index) / diagonal_scatter(src, offset, dim1,
//     dim2) write src into a slice / diagonal of self: self dims other than
//     the scattered ones shard with src's matching dim (as DTensor's
//     gen_slice_scatter_strategy for slice_scatter). as_strided_scatter
//     writes through a strided view of the storage, which mixes dims: no
//     shard rule.
//   - take(index) reads self.flatten()[index] elementwise over index: a
//     Replicate self with index S(d) gives S(d) (pointwise in index).
//   - put(index, source, accumulate) writes (or adds) source at flattened
//     positions; with accumulate, each rank adding its chunk of (index,
//     source) to a P(sum) self gives P(sum) (as scatter_add).
// Partial rules:
//   - tril, triu, diag, diag_embed, roll, flip, repeat, tile, take move or
//     copy values and write zeros elsewhere (tril/triu/diag/diag_embed):
//     zeros on every rank reduce to 0 for sum, avg, max, min and product,
//     so P(op) -> P(op) for all five (take: self P(op), index R).
//   - constant_pad_nd writes `value` on every rank: P(op) -> P(op) when the
//     constant is a P(op) of itself (partial_algebra.h ConstantKeeps: always
//     for avg/max/min, sum when 0, product when 0 or 1).
//   - new_*: a Partial self is a full-shape tensor, also -> R; the constant
//     c on every rank is P(avg|max|min) of itself whatever self is, P(sum)
//     when c == 0 and P(product) when c is 0 or 1 (ConstantKeeps).
//   - select_scatter, diagonal_scatter, as_strided_scatter and put (no
//     accumulate) only copy values of self and src: both P(op) -> P(op) for
//     every op; one P(op) with the other R for the idempotent avg/max/min
//     (identical values).
//     put with accumulate adds: P(sum)/P(avg) on both (linear), P(op) self
//     with R source for avg/max/min (adding the same amount on every rank
//     commutes with avg and keeps order for max/min), R self with P(avg)
//     source.
// The registry derives the in-place and out= variants (tril_, roll.out,
// put_, ...): in place, self keeps its placement.
#include <algorithm>
#include <optional>
#include <vector>

#include "c10/core/WrapDimMinimal.h"
#include "shrt/strategies/partial_algebra.h"
#include "shrt/strategies/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

using P = Placement;

// P(op) -> P(op) for every reduce op, on a one-input op.
void AddAllPartials(RuleSet& rules) {
  for (ReduceOp op : kAllReduceOps) rules.Add({P::Partial(op)}, {P::Partial(op)});
}

// Normalised dims of the int[] argument `name` (empty when absent).
std::vector<int64_t> WrappedDims(const OpArgs& args, const char* name, int64_t ndim) {
  std::vector<int64_t> dims = args.GetIntList(name).value_or(std::vector<int64_t>{});
  for (int64_t& d : dims) d = c10::maybe_wrap_dim(d, ndim);
  return dims;
}

bool Contains(const std::vector<int64_t>& v, int64_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// tril / triu (self, diagonal). When the diagonal keeps every element of
// the last two dims (the identity) or none (all zeros), the local index
// origin does not matter and every dim shards.
absl::StatusOr<std::vector<Rule>> TriRules(const OpArgs& args, bool lower) {
  RuleSet rules(args);
  if (args.inputs().size() != 1) return rules.Take();
  const TensorMeta& self = args.inputs()[0];
  const int64_t n = self.ndim();
  const int64_t diagonal = args.GetInt("diagonal").value_or(0);
  bool uniform = false;
  if (n >= 2) {
    const int64_t rows = self.sizes[n - 2], cols = self.sizes[n - 1];
    // tril keeps j - i <= diagonal, triu keeps j - i >= diagonal, for
    // j - i in [-(rows - 1), cols - 1].
    uniform = lower ? (diagonal >= cols - 1 || diagonal < -(rows - 1))
                    : (diagonal <= -(rows - 1) || diagonal > cols - 1);
  }
  for (int64_t d = 0; d < n; ++d) {
    if (d < n - 2 || self.sizes[d] == 1 || uniform) rules.Add({P::Shard(d)}, {P::Shard(d)});
  }
  AddAllPartials(rules);
  return rules.Take();
}

// roll (self, shifts, dims) and flip (self, dims).
absl::StatusOr<std::vector<Rule>> PermuteAlongRules(const OpArgs& args, bool is_flip) {
  RuleSet rules(args);
  if (args.inputs().size() != 1) return rules.Take();
  const TensorMeta& self = args.inputs()[0];
  const std::vector<int64_t> dims = WrappedDims(args, "dims", self.ndim());
  // roll with no dims rolls the flattened tensor: every dim takes part;
  // flip with no dims is the identity.
  if (!dims.empty() || is_flip) {
    for (int64_t d = 0; d < self.ndim(); ++d) {
      if (!Contains(dims, d) || self.sizes[d] == 1) rules.Add({P::Shard(d)}, {P::Shard(d)});
    }
  }
  AddAllPartials(rules);
  return rules.Take();
}

// repeat (self, repeats) and tile (self, dims): tile left-pads dims with
// 1s to self's rank, then repeats.
absl::StatusOr<std::vector<Rule>> RepeatRules(const OpArgs& args, const char* name) {
  RuleSet rules(args);
  if (args.inputs().size() != 1) return rules.Take();
  const TensorMeta& self = args.inputs()[0];
  std::vector<int64_t> repeats = args.GetIntList(name).value_or(std::vector<int64_t>{});
  if (static_cast<int64_t>(repeats.size()) < self.ndim()) {
    repeats.insert(repeats.begin(), self.ndim() - static_cast<int64_t>(repeats.size()), 1);
  }
  const int64_t lead = static_cast<int64_t>(repeats.size()) - self.ndim();
  if (lead >= 0) {
    for (int64_t d = 0; d < self.ndim(); ++d) {
      if (repeats[d + lead] == 1) rules.Add({P::Shard(d)}, {P::Shard(d + lead)});
    }
  }
  AddAllPartials(rules);
  return rules.Take();
}

// diag (self, diagonal): a 1-D self becomes a matrix with self on a
// diagonal, a 2-D self gives its diagonal. Both mix positions of the two
// matrix dims; the one shard rule: a matrix dim of size 1 (rank 0 holds the
// matrix, whose diagonal has at most one element, and the other ranks an
// empty one) gives the diagonal S(0).
absl::StatusOr<std::vector<Rule>> DiagRules(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() != 1) return rules.Take();
  const TensorMeta& self = args.inputs()[0];
  if (self.ndim() == 2) {
    for (int64_t d = 0; d < 2; ++d) {
      if (self.sizes[d] == 1) rules.Add({P::Shard(d)}, {P::Shard(0)});
    }
  }
  AddAllPartials(rules);
  return rules.Take();
}

// diag_embed (self, offset, dim1, dim2): output has one more dim.
absl::StatusOr<std::vector<Rule>> DiagEmbedRules(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() != 1) return rules.Take();
  const TensorMeta& self = args.inputs()[0];
  const int64_t out_ndim = self.ndim() + 1;
  const int64_t dim1 = c10::maybe_wrap_dim(args.GetInt("dim1").value_or(-2), out_ndim);
  const int64_t dim2 = c10::maybe_wrap_dim(args.GetInt("dim2").value_or(-1), out_ndim);
  int64_t d = 0;  // input batch dim mapped to output dim o
  for (int64_t o = 0; o < out_ndim && d < self.ndim() - 1; ++o) {
    if (o == dim1 || o == dim2) continue;
    rules.Add({P::Shard(d)}, {P::Shard(o)});
    ++d;
  }
  AddAllPartials(rules);
  return rules.Take();
}

// constant_pad_nd (self, pad, value).
absl::StatusOr<std::vector<Rule>> ConstantPadRules(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() != 1) return rules.Take();
  const TensorMeta& self = args.inputs()[0];
  const std::vector<int64_t> pad = args.GetIntList("pad").value_or(std::vector<int64_t>{});
  for (int64_t d = 0; d < self.ndim(); ++d) {
    const int64_t i = self.ndim() - 1 - d;  // pad pair index of dim d
    const bool named = 2 * i + 1 < static_cast<int64_t>(pad.size());
    if (!named || (pad[2 * i] == 0 && pad[2 * i + 1] == 0)) {
      rules.Add({P::Shard(d)}, {P::Shard(d)});
    }
  }
  const std::optional<double> value = args.GetDouble("value");
  const std::optional<double> c = value.has_value() ? value : std::optional<double>(0.0);
  for (ReduceOp op : kAllReduceOps) {
    if (ConstantKeeps(c, op)) rules.Add({P::Partial(op)}, {P::Partial(op)});
  }
  return rules.Take();
}

// new_zeros / new_ones / new_full (self, size, fill_value): a constant c.
absl::StatusOr<std::vector<Rule>> NewFactoryRules(const OpArgs& args, std::optional<double> c) {
  RuleSet rules(args);
  if (args.inputs().size() != 1 || args.outputs().size() != 1) return rules.Take();
  const TensorMeta& self = args.inputs()[0];
  std::vector<P> ins;
  for (int64_t d = 0; d < self.ndim(); ++d) ins.push_back(P::Shard(d));
  for (ReduceOp op : kAllReduceOps) ins.push_back(P::Partial(op));
  ins.push_back(P::Replicate());
  const int64_t out_ndim = args.outputs()[0].ndim();
  for (const P& in : ins) {
    rules.Add({in}, {P::Replicate()});  // R -> R is dropped by RuleSet
    for (int64_t k = 0; k < out_ndim; ++k) rules.Add({in}, {P::Shard(k)});
    if (in.is_replicate()) continue;
    for (ReduceOp out : kAllReduceOps) {
      if (ConstantKeeps(c, out)) rules.Add({in}, {P::Partial(out)});
    }
  }
  // R -> P(avg|max|min) is degenerate; sum and product need c's value.
  for (ReduceOp out : {ReduceOp::kSum, ReduceOp::kProduct}) {
    if (ConstantKeeps(c, out)) rules.Add({P::Replicate()}, {P::Partial(out)});
  }
  return rules.Take();
}

// Partial rules of an op that copies values of two tensors (a, b) into its
// result: both P(op) for every op, one P(op) beside a Replicate other for
// avg/max/min. `mid` are placements of tensors in between (indices), R.
void AddCopyPartials(RuleSet& rules, int n_mid) {
  const std::vector<P> mid(n_mid, P::Replicate());
  auto add = [&](P a, P b, P out) {
    std::vector<P> in{a};
    in.insert(in.end(), mid.begin(), mid.end());
    in.push_back(b);
    rules.Add(in, {out});
  };
  for (ReduceOp op : kAllReduceOps) add(P::Partial(op), P::Partial(op), P::Partial(op));
  for (ReduceOp op : kIdempotentReduceOps) {
    add(P::Partial(op), P::Replicate(), P::Partial(op));
    add(P::Replicate(), P::Partial(op), P::Partial(op));
  }
}

// select_scatter (self, src, dim, index): src is self without dim.
absl::StatusOr<std::vector<Rule>> SelectScatterRules(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() != 2) return rules.Take();
  const TensorMeta& self = args.inputs()[0];
  const int64_t dim = c10::maybe_wrap_dim(args.GetInt("dim").value_or(0), self.ndim());
  for (int64_t d = 0; d < self.ndim(); ++d) {
    if (d != dim) rules.Add({P::Shard(d), P::Shard(d - (d > dim))}, {P::Shard(d)});
  }
  AddCopyPartials(rules, 0);
  return rules.Take();
}

// diagonal_scatter (self, src, offset, dim1, dim2): src is self without
// dim1 and dim2, plus the diagonal as its last dim.
absl::StatusOr<std::vector<Rule>> DiagonalScatterRules(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() != 2) return rules.Take();
  const TensorMeta& self = args.inputs()[0];
  const int64_t dim1 = c10::maybe_wrap_dim(args.GetInt("dim1").value_or(0), self.ndim());
  const int64_t dim2 = c10::maybe_wrap_dim(args.GetInt("dim2").value_or(1), self.ndim());
  int64_t s = 0;  // src dim of self dim d
  for (int64_t d = 0; d < self.ndim(); ++d) {
    if (d == dim1 || d == dim2) continue;
    rules.Add({P::Shard(d), P::Shard(s)}, {P::Shard(d)});
    ++s;
  }
  AddCopyPartials(rules, 0);
  return rules.Take();
}

// as_strided_scatter (self, src, size, stride, storage_offset): src goes
// into a strided view of self's storage, which mixes every dim: no shard
// rule, only the copy partials.
absl::StatusOr<std::vector<Rule>> AsStridedScatterRules(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() != 2) return rules.Take();
  AddCopyPartials(rules, 0);
  return rules.Take();
}

// take (self, index): output has index's shape.
absl::StatusOr<std::vector<Rule>> TakeRules(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() != 2) return rules.Take();
  const TensorMeta& index = args.inputs()[1];
  for (int64_t d = 0; d < index.ndim(); ++d) rules.Add({P::Replicate(), P::Shard(d)}, {P::Shard(d)});
  for (ReduceOp op : kAllReduceOps) rules.Add({P::Partial(op), P::Replicate()}, {P::Partial(op)});
  return rules.Take();
}

// put (self, index, source, accumulate).
absl::StatusOr<std::vector<Rule>> PutRules(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() != 3) return rules.Take();
  const TensorMeta& self = args.inputs()[0];
  const TensorMeta& index = args.inputs()[1];
  const TensorMeta& source = args.inputs()[2];
  const P r = P::Replicate();
  if (!args.GetBool("accumulate").value_or(false)) {
    AddCopyPartials(rules, 1);
    return rules.Take();
  }
  if (source.dtype == self.dtype) {
    const P sum = P::Partial(ReduceOp::kSum), avg = P::Partial(ReduceOp::kAvg);
    rules.Add({sum, r, sum}, {sum});
    rules.Add({avg, r, avg}, {avg});
    rules.Add({r, r, avg}, {avg});
    if (index.sizes == source.sizes) {
      for (int64_t d = 0; d < index.ndim(); ++d) rules.Add({sum, P::Shard(d), P::Shard(d)}, {sum});
    }
  }
  for (ReduceOp op : kIdempotentReduceOps) rules.Add({P::Partial(op), r, r}, {P::Partial(op)});
  return rules.Take();
}

SHRT_REGISTER_STRATEGY("aten::tril", [](const OpArgs& a) { return TriRules(a, true); });
SHRT_REGISTER_STRATEGY("aten::triu", [](const OpArgs& a) { return TriRules(a, false); });
SHRT_REGISTER_STRATEGY("aten::roll", [](const OpArgs& a) { return PermuteAlongRules(a, false); });
SHRT_REGISTER_STRATEGY("aten::flip", [](const OpArgs& a) { return PermuteAlongRules(a, true); });
SHRT_REGISTER_STRATEGY("aten::repeat", [](const OpArgs& a) { return RepeatRules(a, "repeats"); });
SHRT_REGISTER_STRATEGY("aten::tile", [](const OpArgs& a) { return RepeatRules(a, "dims"); });
SHRT_REGISTER_STRATEGY("aten::diag", DiagRules);
SHRT_REGISTER_STRATEGY("aten::diag_embed", DiagEmbedRules);
SHRT_REGISTER_STRATEGY("aten::constant_pad_nd", ConstantPadRules);
SHRT_REGISTER_STRATEGY("aten::new_zeros", [](const OpArgs& a) { return NewFactoryRules(a, 0.0); });
SHRT_REGISTER_STRATEGY("aten::new_ones", [](const OpArgs& a) { return NewFactoryRules(a, 1.0); });
SHRT_REGISTER_STRATEGY("aten::new_full",
                       [](const OpArgs& a) { return NewFactoryRules(a, a.GetDouble("fill_value")); });
SHRT_REGISTER_STRATEGY("aten::select_scatter", SelectScatterRules);
SHRT_REGISTER_STRATEGY("aten::diagonal_scatter", DiagonalScatterRules);
SHRT_REGISTER_STRATEGY("aten::as_strided_scatter", AsStridedScatterRules);
SHRT_REGISTER_STRATEGY("aten::take", TakeRules);
SHRT_REGISTER_STRATEGY("aten::put", PutRules);

}  // namespace
}  // namespace shrt
