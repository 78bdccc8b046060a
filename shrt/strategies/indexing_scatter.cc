// Strategies for the indexing overloads that write or accumulate at index
// positions along a dim: scatter (src, value, add), index_add,
// scatter_reduce.two and index_reduce (the rest of the family: indexing.cc).
//
// Shard rules (DTensor's _tensor_ops.py does the same):
//   - scatter addresses elements as gather does (indexing.cc): self, index
//     and src sharded alike on d != dim stay aligned when their sizes on d
//     are equal;
//   - scatter_add/index_add sum contributions: with self P(sum), index and
//     src sharded on `dim` (each rank adds its chunk's contributions) give
//     P(sum) when src's chunks on dim align with index's;
//   - scatter_reduce.two shards as scatter (d != dim, equal sizes);
//     index_reduce as index_add (self and source S(d), d != dim).
// Partial rules: scatter.src only selects elements, so self and src P(op)
// -> P(op) for every reduce op; a Replicate operand is the same on every
// rank, which the idempotent reductions (avg, max, min) keep
// (AddCopyPartials). scatter.value writes a scalar on every rank
// (AddFillPartials). scatter_add and index_add are linear in (self, src):
// P(sum)/P(avg) on both, and P(op) on self alone for avg/max/min (adding
// the same amount on every rank). scatter_reduce.two, by reduce, with c the
// contributions of src to a position:
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
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "c10/core/ScalarType.h"
#include "shrt/strategies/indexing_rules.h"
#include "shrt/strategies/partial_algebra.h"
#include "shrt/strategies/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

using P = Placement;

// The reduce and include_self arguments of scatter_reduce.two and
// index_reduce.
struct ReduceArgs {
  std::string reduce;  // "sum", "prod", "mean", "amax" or "amin"
  bool include_self;
};

// The ReduceArgs of `args`, or nullopt without a string `reduce` (the
// strategy then claims no Partial rule).
std::optional<ReduceArgs> ReadReduceArgs(const OpArgs& args) {
  const auto it = args.Find("reduce");
  if (it == nullptr || !std::holds_alternative<std::string>(*it)) return std::nullopt;
  return ReduceArgs{std::get<std::string>(*it), args.GetBool("include_self").value_or(true)};
}

// Adds the Partial rules of reducing contributions into self (the algebra
// in the file comment, by `in.reduce` and `in.include_self`), inputs in the
// order self, index, src; `floating` is self's dtype being floating.
// `chunks` are index's and src's placements pairing index's chunk r with
// src's chunk r along dim, when their shapes allow that (nullopt
// otherwise): scatter_reduce's S(dim), S(dim), index_reduce's 1-D S(0),
// S(dim).
void AddReducePartials(RuleSet& rules, const ReduceArgs& in, bool floating,
                       const std::optional<std::pair<P, P>>& chunks) {
  const P r = P::Replicate();
  const P sum = P::Partial(ReduceOp::kSum), avg = P::Partial(ReduceOp::kAvg);
  const P max = P::Partial(ReduceOp::kMax), min = P::Partial(ReduceOp::kMin);
  const P prod = P::Partial(ReduceOp::kProduct);
  const std::string& reduce = in.reduce;
  if (!in.include_self) {
    for (ReduceOp op : kIdempotentReduceOps) rules.Add({P::Partial(op), r, r}, {P::Partial(op)});
  }
  if (reduce == "sum" || (reduce == "mean" && floating)) {
    rules.Add({sum, r, sum}, {sum});
    rules.Add({avg, r, avg}, {avg});
    rules.Add({r, r, avg}, {avg});
    if (in.include_self) {
      for (ReduceOp op : kIdempotentReduceOps) rules.Add({P::Partial(op), r, r}, {P::Partial(op)});
      if (reduce == "sum" && chunks) rules.Add({sum, chunks->first, chunks->second}, {sum});
    }
  } else if (reduce == "mean") {
    // Integer mean floors (self + sum c) / (n + 1): increasing in self only.
    if (in.include_self) {
      rules.Add({max, r, r}, {max});
      rules.Add({min, r, r}, {min});
    }
  } else if (reduce == "prod") {
    rules.Add({prod, r, prod}, {prod});
    if (in.include_self) {
      rules.Add({sum, r, r}, {sum});
      rules.Add({avg, r, r}, {avg});
      if (chunks) rules.Add({prod, chunks->first, chunks->second}, {prod});
    }
  } else if (reduce == "amax" || reduce == "amin") {
    const P same = reduce == "amax" ? max : min;
    rules.Add({same, r, same}, {same});
    rules.Add({r, r, same}, {same});
    if (in.include_self) {
      rules.Add({max, r, r}, {max});
      rules.Add({min, r, r}, {min});
      if (chunks) {
        rules.Add({same, chunks->first, chunks->second}, {same});
        rules.Add({r, chunks->first, chunks->second}, {same});
      }
    }
  }
}
using indexing_internal::AddCopyPartials;
using indexing_internal::AddFillPartials;
using indexing_internal::AddOffDimShards;
using indexing_internal::DimIndexArgs;
using indexing_internal::ReadDimIndexArgs;
using indexing_internal::SizeAt;

enum class ScatterKind { kSrc, kValue, kAdd };

// aten::scatter.src / scatter.value / scatter_add (self, dim, index[, src]).
absl::StatusOr<std::vector<Rule>> ScatterRules(const OpArgs& args, ScatterKind kind) {
  RuleSet rules(args);
  const bool has_src = kind != ScatterKind::kValue;
  const std::optional<DimIndexArgs> in = ReadDimIndexArgs(args, has_src);
  if (!in) return rules.Take();
  const auto& [self, index, src, dim] = *in;
  auto with_src = [&](Placement self_p, Placement index_p, Placement src_p, Placement out) {
    if (has_src) {
      rules.Add({self_p, index_p, src_p}, {out});
    } else {
      rules.Add({self_p, index_p}, {out});
    }
  };
  // Shards aligned on d != dim.
  if (self.ndim() == index.ndim()) {
    for (int64_t d = 0; d < self.ndim(); ++d) {
      if (d == dim || SizeAt(self, d) != SizeAt(index, d)) continue;
      if (has_src && SizeAt(*src, d) != SizeAt(index, d)) continue;
      with_src(P::Shard(d), P::Shard(d), P::Shard(d), P::Shard(d));
      // Size 1 on d: rank 0 holds self and index whole, so a whole src works.
      if (SizeAt(index, d) == 1) with_src(P::Shard(d), P::Shard(d), P::Replicate(), P::Shard(d));
    }
  }
  const P r = P::Replicate();
  switch (kind) {
    case ScatterKind::kSrc:
      AddCopyPartials(rules, 1, src->dtype, self.dtype);
      break;
    case ScatterKind::kValue: {
      const std::optional<double> value = args.GetDouble("value");
      // A 0 written by one rank absorbs no inf of another's part (0 * inf
      // is nan): no P(product) rule with a sharded index (indexing.cc).
      AddFillPartials(rules, value);
      break;
    }
    case ScatterKind::kAdd: {
      if (src->dtype == self.dtype) {
        with_src(P::Partial(ReduceOp::kSum), r, P::Partial(ReduceOp::kSum), P::Partial(ReduceOp::kSum));
        with_src(P::Partial(ReduceOp::kAvg), r, P::Partial(ReduceOp::kAvg), P::Partial(ReduceOp::kAvg));
        with_src(r, r, P::Partial(ReduceOp::kAvg), P::Partial(ReduceOp::kAvg));
        // Each rank adds the contributions of its chunk of (index, src) on dim.
        if (self.ndim() > 0 && self.ndim() == index.ndim() && SizeAt(index, dim) == SizeAt(*src, dim)) {
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
  const std::optional<DimIndexArgs> in = ReadDimIndexArgs(args, /*has_source=*/true);
  if (!in) return rules.Take();
  const auto& [self, index, source, dim] = *in;
  const P r = P::Replicate();
  AddOffDimShards(rules, *in);
  if (source->dtype == self.dtype) {
    const P sum = P::Partial(ReduceOp::kSum), avg = P::Partial(ReduceOp::kAvg);
    rules.Add({sum, r, sum}, {sum});
    rules.Add({avg, r, avg}, {avg});
    rules.Add({r, r, avg}, {avg});
    if (index.ndim() == 1 && self.ndim() > 0 && self.ndim() == source->ndim()) {
      rules.Add({sum, P::Shard(0), P::Shard(dim)}, {sum});
    }
  }
  for (ReduceOp op : kIdempotentReduceOps) rules.Add({P::Partial(op), r, r}, {P::Partial(op)});
  return rules.Take();
}

// aten::scatter_reduce.two(self, dim, index, src, reduce, include_self).
absl::StatusOr<std::vector<Rule>> ScatterReduceRules(const OpArgs& args) {
  RuleSet rules(args);
  const std::optional<DimIndexArgs> in = ReadDimIndexArgs(args, /*has_source=*/true);
  if (!in) return rules.Take();
  const auto& [self, index, src, dim] = *in;
  const P r = P::Replicate();
  const std::optional<ReduceArgs> reduce = ReadReduceArgs(args);
  if (!reduce) return rules.Take();
  // The Partial of self that folding contributions into one part keeps
  // (with include_self): sum, product, max, min; none for mean.
  std::optional<P> fold;
  if (reduce->reduce == "sum") fold = P::Partial(ReduceOp::kSum);
  if (reduce->reduce == "prod") fold = P::Partial(ReduceOp::kProduct);
  if (reduce->reduce == "amax") fold = P::Partial(ReduceOp::kMax);
  if (reduce->reduce == "amin") fold = P::Partial(ReduceOp::kMin);
  if (self.ndim() == index.ndim()) {
    for (int64_t d = 0; d < self.ndim(); ++d) {
      if (d == dim || SizeAt(self, d) != SizeAt(index, d) || SizeAt(*src, d) != SizeAt(index, d)) continue;
      rules.Add({P::Shard(d), P::Shard(d), P::Shard(d)}, {P::Shard(d)});
      // Size 1 on d: rank 0 holds self and index whole, so a whole src works.
      if (SizeAt(index, d) == 1) rules.Add({P::Shard(d), P::Shard(d), r}, {P::Shard(d)});
    }
    // Index of size 1 on d: rank 0 does the whole scatter, the other ranks
    // leave their part of self as it is.
    for (int64_t d = 0; d < self.ndim() && reduce->include_self && fold.has_value(); ++d) {
      if (SizeAt(index, d) != 1) continue;
      rules.Add({*fold, P::Shard(d), r}, {*fold});
      if (SizeAt(*src, d) == 1) rules.Add({*fold, P::Shard(d), P::Shard(d)}, {*fold});
      // amax/amin: the result is >= (<=) self, which the other ranks hold.
      if (reduce->reduce == "amax" || reduce->reduce == "amin") {
        rules.Add({r, P::Shard(d), r}, {*fold});
        if (SizeAt(*src, d) == 1) rules.Add({r, P::Shard(d), P::Shard(d)}, {*fold});
      }
    }
  }
  const bool dim_chunks = self.ndim() > 0 && self.ndim() == index.ndim() &&
                          SizeAt(index, dim) == SizeAt(*src, dim);
  AddReducePartials(rules, *reduce, c10::isFloatingType(self.dtype),
                    dim_chunks ? std::optional(std::pair(P::Shard(dim), P::Shard(dim))) : std::nullopt);
  return rules.Take();
}

// aten::index_reduce(self, dim, index, source, reduce, include_self):
// inputs self, index (1-D), source; reduce is prod, mean, amax or amin.
// The Partial algebra is scatter_reduce's; index's chunk r pairs with
// source's chunk r along dim.
absl::StatusOr<std::vector<Rule>> IndexReduceRules(const OpArgs& args) {
  RuleSet rules(args);
  const std::optional<DimIndexArgs> in = ReadDimIndexArgs(args, /*has_source=*/true);
  if (!in) return rules.Take();
  const auto& [self, index, source, dim] = *in;
  // Not S(d), R, R on a size-1 d: libtorch 2.13 checks that source's shape
  // matches self's off dim, so an empty self chunk rejects the whole source
  // (libtorch 1.13 accepted the mismatch).
  AddOffDimShards(rules, *in);
  const std::optional<ReduceArgs> reduce = ReadReduceArgs(args);
  if (!reduce) return rules.Take();
  const bool dim_chunks = index.ndim() == 1 && self.ndim() > 0 && self.ndim() == source->ndim();
  AddReducePartials(rules, *reduce, c10::isFloatingType(self.dtype),
                    dim_chunks ? std::optional(std::pair(P::Shard(0), P::Shard(dim))) : std::nullopt);
  return rules.Take();
}

SHRT_REGISTER_STRATEGY("aten::scatter.src",
                       [](const OpArgs& a) { return ScatterRules(a, ScatterKind::kSrc); });
SHRT_REGISTER_STRATEGY("aten::scatter.value",
                       [](const OpArgs& a) { return ScatterRules(a, ScatterKind::kValue); });
SHRT_REGISTER_STRATEGY("aten::scatter_add",
                       [](const OpArgs& a) { return ScatterRules(a, ScatterKind::kAdd); });
SHRT_REGISTER_STRATEGY("aten::index_add", IndexAddRules);
SHRT_REGISTER_STRATEGY("aten::scatter_reduce.two", ScatterReduceRules);
SHRT_REGISTER_STRATEGY("aten::index_reduce", IndexReduceRules);

}  // namespace
}  // namespace shrt
