// Strategies for the overloads whose int[] argument is the output's global
// shape (view, _unsafe_view, reshape, expand). Their specs set
// local_shape_arg, so every rank calls with its own part of that shape, as
// DTensor rewrites it (torch/distributed/tensor/_ops/_view_ops.py).
//
// Shard rules that hold for every world size:
//   view-like: S(i) -> S(o) when input dim i and output dim o have the same
//     size and the same number of elements before them (the product of the
//     sizes of the dims in front), so row k of dim i is row k of dim o for
//     every k and each rank's chunk is the same block of elements. A dim
//     split or merged by the view is not: the chunk layout of (a, b) on a
//     and of a * b differ unless W divides a (e.g. (5, 2) -> 10 at W = 4:
//     chunks of 2 rows = 4 elements against chunks of 3 elements).
//   expand: S(i) -> S(o) for input dim i aligned to output dim o from the
//     right when it is not broadcast (same size), and R -> S(o) for every
//     broadcast dim o (new, or of size 1 in the input): each rank expands
//     its replica straight to its chunk.
// Every Partial passes through: each output element is one input element.
#include <vector>

#include "shrt/registry.h"
#include "shrt/strategies/pointwise_rules.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

// Every Partial passes through a view unchanged.
absl::StatusOr<std::vector<Rule>> WithPartials(const OpArgs& args, std::vector<Rule> rules) {
  Append(rules, KeepApplicable(args, IdentityRules()));
  return rules;
}

absl::StatusOr<std::vector<Rule>> ViewRules(const OpArgs& args) {
  const std::vector<int64_t>& in = args.inputs()[0].sizes;
  const std::vector<int64_t>& out = args.outputs()[0].sizes;
  std::vector<Rule> rules;
  int64_t in_before = 1;
  for (size_t i = 0; i < in.size(); ++i) {
    int64_t out_before = 1;
    for (size_t o = 0; o < out.size(); ++o) {
      if (in[i] == out[o] && in_before == out_before) {
        rules.push_back({{Placement::Shard(static_cast<int>(i))},
                         {Placement::Shard(static_cast<int>(o))}});
      }
      out_before *= out[o];
    }
    in_before *= in[i];
  }
  return WithPartials(args, std::move(rules));
}

absl::StatusOr<std::vector<Rule>> ExpandRules(const OpArgs& args) {
  const std::vector<int64_t>& in = args.inputs()[0].sizes;
  const std::vector<int64_t>& out = args.outputs()[0].sizes;
  const size_t lead = out.size() - in.size();
  std::vector<Rule> rules;
  for (size_t o = 0; o < out.size(); ++o) {
    const int dim = static_cast<int>(o);
    if (o < lead || in[o - lead] == 1) {
      // A broadcast dim: every rank expands its replica to its own chunk.
      rules.push_back({{Placement::Replicate()}, {Placement::Shard(dim)}});
    }
    if (o >= lead && in[o - lead] == out[o]) {
      rules.push_back({{Placement::Shard(static_cast<int>(o - lead))}, {Placement::Shard(dim)}});
    }
  }
  return WithPartials(args, std::move(rules));
}

SHRT_REGISTER_STRATEGY("aten::view", ViewRules);
SHRT_REGISTER_STRATEGY("aten::_unsafe_view", ViewRules);
SHRT_REGISTER_STRATEGY("aten::reshape", ViewRules);
SHRT_REGISTER_STRATEGY("aten::expand", ExpandRules);

}  // namespace
}  // namespace shrt
