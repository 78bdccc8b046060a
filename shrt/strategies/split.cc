// Strategies for ops that cut a tensor into pieces along one dim and return
// Tensor[]: split.Tensor, unsafe_split.Tensor, split_with_sizes, chunk,
// tensor_split.sections, tensor_split.indices, unbind.int, and the view
// copies split_copy.Tensor, split_with_sizes_copy and unbind_copy.int
// (the same pieces in fresh tensors, so the same rules). Rules have one
// input and one placement per output piece (flattened in order).
//
//   - sharding a dim d other than the split dim: every rank holds the whole
//     split dim, so it cuts the same pieces, each sharded on d alike:
//     S(d) -> S(d'), ..., S(d') (d' = d, or d - (d > dim) for unbind, which
//     removes the dim);
//   - sharding the split dim itself is not local in general (the local
//     lengths differ from the full one, so the pieces, or their number,
//     differ). It is valid exactly when the op returns its input whole
//     whatever the length: split(_size >= size(dim)), chunk(1),
//     tensor_split(1 section | no indices): S(dim) -> S(dim);
//   - every piece selects input elements: P(op) -> P(op), ..., P(op) for
//     every reduction.
#include <vector>

#include "c10/core/WrapDimMinimal.h"
#include "shrt/strategies/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

using P = Placement;

// removes_dim: unbind. whole: whether the op returns its input as one piece
// whatever the length of the split dim.
std::vector<Rule> SplitRules(const OpArgs& args, bool removes_dim, bool whole) {
  RuleSet rules(args);
  if (args.inputs().empty()) return rules.Take();
  const size_t pieces = args.outputs().size();
  const int64_t n = args.inputs()[0].ndim();
  const int64_t dim = c10::maybe_wrap_dim(args.GetInt("dim").value_or(0), n);
  for (int64_t d = 0; d < n; ++d) {
    if (d == dim && !whole) continue;
    const int64_t od = removes_dim && d > dim ? d - 1 : d;
    rules.Add({P::Shard(d)}, std::vector<Placement>(pieces, P::Shard(od)));
  }
  for (ReduceOp op : kAllReduceOps) {
    rules.Add({P::Partial(op)}, std::vector<Placement>(pieces, P::Partial(op)));
  }
  return rules.Take();
}

int64_t DimSize(const OpArgs& args) {
  const TensorMeta& m = args.inputs()[0];
  return m.sizes[c10::maybe_wrap_dim(args.GetInt("dim").value_or(0), m.ndim())];
}

Strategy SplitBySize() {
  return [](const OpArgs& args) -> absl::StatusOr<std::vector<Rule>> {
    if (args.inputs().empty() || args.inputs()[0].ndim() == 0) return std::vector<Rule>{};
    const int64_t size = args.GetInt("split_size").value_or(0);
    return SplitRules(args, false, size > 0 && size >= DimSize(args));
  };
}

SHRT_REGISTER_STRATEGY("aten::split.Tensor", SplitBySize());
SHRT_REGISTER_STRATEGY("aten::split_copy.Tensor", SplitBySize());
SHRT_REGISTER_STRATEGY("aten::unsafe_split.Tensor", SplitBySize());
Strategy SplitWithSizes() {
  return [](const OpArgs& args) -> absl::StatusOr<std::vector<Rule>> {
    return SplitRules(args, false, false);
  };
}
SHRT_REGISTER_STRATEGY("aten::split_with_sizes", SplitWithSizes());
SHRT_REGISTER_STRATEGY("aten::split_with_sizes_copy", SplitWithSizes());
SHRT_REGISTER_STRATEGY("aten::chunk", [](const OpArgs& args) -> absl::StatusOr<std::vector<Rule>> {
  return SplitRules(args, false, args.GetInt("chunks").value_or(0) == 1);
});
SHRT_REGISTER_STRATEGY("aten::tensor_split.sections",
                       [](const OpArgs& args) -> absl::StatusOr<std::vector<Rule>> {
                         return SplitRules(args, false, args.GetInt("sections").value_or(0) == 1);
                       });
SHRT_REGISTER_STRATEGY("aten::tensor_split.indices",
                       [](const OpArgs& args) -> absl::StatusOr<std::vector<Rule>> {
                         const auto indices = args.GetIntList("indices");
                         return SplitRules(args, false, indices.has_value() && indices->empty());
                       });
Strategy Unbind() {
  return [](const OpArgs& args) -> absl::StatusOr<std::vector<Rule>> {
    return SplitRules(args, true, false);
  };
}
SHRT_REGISTER_STRATEGY("aten::unbind.int", Unbind());
SHRT_REGISTER_STRATEGY("aten::unbind_copy.int", Unbind());

}  // namespace
}  // namespace shrt
