// Strategies for indexing overloads: gather, scatter (src, value, add),
// scatter_reduce.two, index_reduce, index_select, index_add, index_copy,
// index_fill (int_Scalar, int_Tensor), index.Tensor, index_put, masked_fill
// and masked_scatter. This file has the ops that select, fill or copy
// values: gather, index_select, masked_fill, index_copy, index_fill and
// masked_scatter; indexing_scatter.cc the scatters and the index_add and
// index_reduce that accumulate along a dim; indexing_advanced.cc
// index.Tensor and index_put; indexing_rules.h what they share.
//
// Shard rules (DTensor's _tensor_ops.py does the same):
//   - gather/scatter address elements by (index value along `dim`, the
//     element's own position along every other dim d): self, index (and
//     src) sharded alike on d != dim stay aligned when their sizes on d are
//     equal (index may be smaller than self on d: then chunks misalign);
//   - gather's output has index's shape and looks self up by value, so
//     R self with index S(dim) -> S(dim);
//   - index_select: self S(d), d != dim -> S(d); 1-D index S(0) -> S(dim);
//   - masked_fill is pointwise over self and its broadcast mask.
//   - index_copy/index_fill act along `dim` only: self (and source) S(d),
//     d != dim, with a Replicate index.
//   - masked_scatter consumes source in order of the mask's true elements:
//     a rank's chunk of the mask would start at source's beginning, so no
//     shard rule, but for an output dim of size 1 (rank 0 holds everything,
//     the other ranks an empty chunk that consumes nothing).
// Partial rules: gather and index_select only select elements, so self
// P(op) -> P(op) for every reduce op. A scalar fill value is written on
// every rank: it keeps P(avg|max|min), P(sum) only when it is 0 and
// P(product) when it is 0 or 1 (AddFillPartials). index_copy and
// masked_scatter copy values of self and a second tensor: both P(op) ->
// P(op), one P(avg|max|min) beside a Replicate other (AddCopyPartials, as
// masked_fill and index_fill with a tensor value). index_fill writes a
// constant like masked_fill. A 0 written by the rank whose index chunk
// holds a position would absorb the product, but not an inf that another
// rank holds there (0 * inf is nan): P(product) self with index S(0) has
// no rule (nor has scatter.value's).
// The registry derives the in-place and out= overloads (scatter_,
// scatter_add_, masked_fill_, gather.out, ...): in place, self keeps its
// placement (rules that change it dropped).
#include <optional>
#include <vector>

#include "shrt/strategies/indexing_rules.h"
#include "shrt/strategies/pointwise_rules.h"
#include "shrt/strategies/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

using P = Placement;
using indexing_internal::AddCopyPartials;
using indexing_internal::AddFillPartials;
using indexing_internal::AddOffDimShards;
using indexing_internal::DimIndexArgs;
using indexing_internal::ReadDimIndexArgs;
using indexing_internal::SizeAt;

// aten::gather(self, dim, index): inputs self, index.
absl::StatusOr<std::vector<Rule>> GatherRules(const OpArgs& args) {
  RuleSet rules(args);
  const std::optional<DimIndexArgs> in = ReadDimIndexArgs(args, /*has_source=*/false);
  if (!in) return rules.Take();
  const auto& [self, index, no_source, dim] = *in;
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
  const std::optional<DimIndexArgs> in = ReadDimIndexArgs(args, /*has_source=*/false);
  if (!in) return rules.Take();
  const auto& [self, index, no_source, dim] = *in;
  for (int64_t d = 0; d < self.ndim(); ++d) {
    if (d != dim) rules.Add({P::Shard(d), P::Replicate()}, {P::Shard(d)});
  }
  if (index.ndim() == 1 && self.ndim() > 0) rules.Add({P::Replicate(), P::Shard(0)}, {P::Shard(dim)});
  for (ReduceOp op : kAllReduceOps) rules.Add({P::Partial(op), P::Replicate()}, {P::Partial(op)});
  return rules.Take();
}

// aten::masked_fill.Scalar / .Tensor (self, mask, value), pointwise over
// the broadcast of self and mask.
absl::StatusOr<std::vector<Rule>> MaskedFillRules(const OpArgs& args, bool tensor_value) {
  RuleSet rules(args);
  for (Rule& rule : PointwiseShardRules(args)) rules.Add(rule.inputs, rule.outputs);
  if (tensor_value && args.inputs().size() == 3) {
    AddCopyPartials(rules, 1, args.inputs()[2].dtype, args.inputs()[0].dtype);
  } else if (!tensor_value && args.inputs().size() == 2) {
    AddFillPartials(rules, args.GetDouble("value"));
  }
  return rules.Take();
}

// aten::index_copy(self, dim, index, source): inputs self, index, source.
absl::StatusOr<std::vector<Rule>> IndexCopyRules(const OpArgs& args) {
  RuleSet rules(args);
  const std::optional<DimIndexArgs> in = ReadDimIndexArgs(args, /*has_source=*/true);
  if (!in) return rules.Take();
  const auto& [self, index, source, dim] = *in;
  AddOffDimShards(rules, *in);
  AddCopyPartials(rules, 1, source->dtype, self.dtype);
  return rules.Take();
}

// aten::index_fill.int_Scalar / .int_Tensor(self, dim, index, value).
absl::StatusOr<std::vector<Rule>> IndexFillRules(const OpArgs& args, bool tensor_value) {
  RuleSet rules(args);
  const std::optional<DimIndexArgs> in = ReadDimIndexArgs(args, /*has_source=*/tensor_value);
  if (!in) return rules.Take();
  const auto& [self, index, value_tensor, dim] = *in;
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
    AddCopyPartials(rules, 1, value_tensor->dtype, self.dtype);
  } else {
    const std::optional<double> value = args.GetDouble("value");
    AddFillPartials(rules, value);
  }
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

SHRT_REGISTER_STRATEGY("aten::gather", GatherRules);
SHRT_REGISTER_STRATEGY("aten::index_select", IndexSelectRules);
SHRT_REGISTER_STRATEGY("aten::index_copy", IndexCopyRules);
SHRT_REGISTER_STRATEGY("aten::index_fill.int_Scalar",
                       [](const OpArgs& a) { return IndexFillRules(a, false); });
SHRT_REGISTER_STRATEGY("aten::index_fill.int_Tensor",
                       [](const OpArgs& a) { return IndexFillRules(a, true); });
SHRT_REGISTER_STRATEGY("aten::masked_scatter", MaskedScatterRules);
SHRT_REGISTER_STRATEGY("aten::masked_fill.Scalar",
                       [](const OpArgs& a) { return MaskedFillRules(a, false); });
SHRT_REGISTER_STRATEGY("aten::masked_fill.Tensor",
                       [](const OpArgs& a) { return MaskedFillRules(a, true); });

}  // namespace
}  // namespace shrt
