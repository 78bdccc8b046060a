// What the indexing family's sources share (indexing.cc,
// indexing_scatter.cc, indexing_advanced.cc): the operands of an op that
// indexes self along one dim, read once, and the Partial rules of writing
// a constant or copying values. Internal to the family's indexing*.cc files.
#ifndef SHRT_STRATEGIES_INDEXING_RULES_H_
#define SHRT_STRATEGIES_INDEXING_RULES_H_

#include <cstdint>
#include <optional>

#include "c10/core/ScalarType.h"
#include "shrt/ops/op_args.h"
#include "shrt/strategies/rule_set.h"
#include "shrt/vocab/placement.h"

namespace shrt {
namespace indexing_internal {

// The operands of an op along one dim (gather, index_select, scatter.src,
// scatter.value, scatter_add, index_add, index_copy, index_fill,
// scatter_reduce.two, index_reduce): its tensor inputs in rule order and
// its "dim" argument (0 when absent) wrapped to self's rank.
struct DimIndexArgs {
  const TensorMeta& self;
  const TensorMeta& index;
  // The third tensor input (scatter's src, index_add's source, index_fill's
  // value tensor), or nullptr for an op without one.
  const TensorMeta* source;
  int64_t dim;
};

// The DimIndexArgs of `args`, or nullopt unless it has exactly two tensor
// inputs (three with `has_source`): the strategy then claims no rule besides
// the implicit all-Replicate one. Throws c10::Error when "dim" is outside
// self's rank (c10::maybe_wrap_dim).
std::optional<DimIndexArgs> ReadDimIndexArgs(const OpArgs& args, bool has_source);

// Adds S(d), R, S(d) -> S(d) for every dim d of self other than in.dim,
// when in.source (set) has self's rank: an op acting along dim only
// (index_copy, index_add, index_reduce), with a Replicate index.
void AddOffDimShards(RuleSet& rules, const DimIndexArgs& in);

// Size of `m` on dim d, or -1 when it has no such dim.
int64_t SizeAt(const TensorMeta& m, int64_t d);

// Adds P(op), R -> P(op) for every reduce op that the constant `value`,
// written on every rank, keeps (ConstantKeeps): for an op writing `value`
// into self beside one Replicate tensor (masked_fill.Scalar,
// index_fill.int_Scalar, scatter.value).
void AddFillPartials(RuleSet& rules, std::optional<double> value);

// Adds the placements {a, R x n_mid, b} -> {out}.
void AddWithMid(RuleSet& rules, Placement a, int n_mid, Placement b, Placement out);

// Partial rules of an op copying values of self and another tensor (n_mid
// Replicate index tensors in between), whose values convert from dtype
// `from` to self's `to`: both P(op) where the conversion keeps op
// (ConversionKeeps), or one P(avg|max|min) beside a Replicate other (the
// other's only where the conversion keeps op).
void AddCopyPartials(RuleSet& rules, int n_mid, c10::ScalarType from, c10::ScalarType to);

}  // namespace indexing_internal
}  // namespace shrt

#endif  // SHRT_STRATEGIES_INDEXING_RULES_H_
