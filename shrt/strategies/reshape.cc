// Strategies for the overloads whose int[] argument is the output's global
// shape (view, _unsafe_view, reshape, expand, and the copies view_copy and
// expand_copy, which return the view's elements in a fresh tensor and share
// its rules). Their specs set
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
//
// view.dtype / view_copy.dtype reinterpret the bytes of self as `dtype`:
//   - the same dtype is the identity: S(d) -> S(d), every P(op) -> P(op);
//   - another dtype of the same element size keeps the shape: S(d) -> S(d)
//     for every d (each element's bytes stay in place). No Partial commutes
//     with a bit cast (float <-> int reorders and rescales values), except
//     int8 <-> uint8: both are Z/256 under two's complement, so wrapped
//     sums and products of the parts carry over: P(sum), P(product);
//   - another element size rescales the last dim (n -> n * in / out): the
//     other dims keep their shard; the last dim's chunks ceil(n / W) * k
//     and ceil(n * k / W) differ for some W, so it is not claimed.
// DTensor has no rule for view.dtype; this follows the byte layout.
//
// view_as / reshape_as / expand_as(self, other) take the output shape from
// other's local tensor instead: other's values are never read, so an R or
// any Partial other (both hold the full shape on every rank) acts like the
// global shape, and S(o) on other hands each rank the chunk shape on o, as
// local_shape_arg does for view. Hence the view (expand) rules above with
// other S(o) next to self's placement for output S(o); with other R or
// P(any), self P(op) -> P(op), and self R -> R or P(avg|max|min) (every
// rank then holds the full result; valid, though other's placement then
// carries no information, and not degenerate by DESIGN.md's definition
// since other is Partial).
#include <vector>

#include "c10/core/ScalarType.h"
#include "shrt/strategies/partial_algebra.h"
#include "shrt/strategies/pointwise_rules.h"
#include "shrt/strategies/registry.h"
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

absl::StatusOr<std::vector<Rule>> ViewDtypeRules(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() != 1 || args.outputs().size() != 1) return rules.Take();
  const TensorMeta& in = args.inputs()[0];
  const TensorMeta& out = args.outputs()[0];
  const bool same_size = c10::elementSize(in.dtype) == c10::elementSize(out.dtype);
  for (int64_t d = 0; d < in.ndim(); ++d) {
    if (same_size || d + 1 < in.ndim()) rules.Add({Placement::Shard(d)}, {Placement::Shard(d)});
  }
  if (in.dtype == out.dtype) {
    for (ReduceOp op : kAllReduceOps) rules.Add({Placement::Partial(op)}, {Placement::Partial(op)});
  }
  const bool bytes = (in.dtype == c10::ScalarType::Char && out.dtype == c10::ScalarType::Byte) ||
                     (in.dtype == c10::ScalarType::Byte && out.dtype == c10::ScalarType::Char);
  if (bytes) {
    for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kProduct}) {
      rules.Add({Placement::Partial(op)}, {Placement::Partial(op)});
    }
  }
  return rules.Take();
}

// The rules of op(self, other) -> out with out's shape taken from other's
// local tensor, from the rules `single` of the op with the shape given as
// an argument: S(i) -> S(o) (or R -> S(o)) becomes self S(i) (R), other
// S(o) -> S(o); Partial self rules take other R or any Partial.
absl::StatusOr<std::vector<Rule>> ShapeFromOther(const OpArgs& args,
                                                 absl::StatusOr<std::vector<Rule>> single) {
  if (!single.ok()) return single;
  if (args.inputs().size() != 2) return std::vector<Rule>{};
  std::vector<Placement> full = {Placement::Replicate()};
  for (ReduceOp op : kAllReduceOps) full.push_back(Placement::Partial(op));
  RuleSet rules(args);
  // The shard rules (ViewRules/ExpandRules read inputs()[0] and outputs()[0]
  // only; their Partial rules are dropped for two inputs and added here).
  for (const Rule& r : *single) {
    if (r.inputs.size() == 1 && r.outputs.size() == 1 && r.outputs[0].is_shard()) {
      rules.Add({r.inputs[0], r.outputs[0]}, {r.outputs[0]});
    }
  }
  for (const Placement& o : full) {
    for (ReduceOp op : kAllReduceOps) {
      rules.Add({Placement::Partial(op), o}, {Placement::Partial(op)});
    }
    rules.Add({Placement::Replicate(), o}, {Placement::Replicate()});
    // A replicated result also reads as P(avg|max|min) (identical values).
    for (ReduceOp op : kIdempotentReduceOps) {
      rules.Add({Placement::Replicate(), o}, {Placement::Partial(op)});
    }
  }
  return rules.Take();
}

SHRT_REGISTER_STRATEGY("aten::view", ViewRules);
SHRT_REGISTER_STRATEGY("aten::_unsafe_view", ViewRules);
SHRT_REGISTER_STRATEGY("aten::reshape", ViewRules);
SHRT_REGISTER_STRATEGY("aten::expand", ExpandRules);
SHRT_REGISTER_STRATEGY("aten::view_copy", ViewRules);
SHRT_REGISTER_STRATEGY("aten::expand_copy", ExpandRules);
SHRT_REGISTER_STRATEGY("aten::view.dtype", ViewDtypeRules);
SHRT_REGISTER_STRATEGY("aten::view_copy.dtype", ViewDtypeRules);
SHRT_REGISTER_STRATEGY("aten::view_as",
                       [](const OpArgs& a) { return ShapeFromOther(a, ViewRules(a)); });
SHRT_REGISTER_STRATEGY("aten::reshape_as",
                       [](const OpArgs& a) { return ShapeFromOther(a, ViewRules(a)); });
SHRT_REGISTER_STRATEGY("aten::expand_as",
                       [](const OpArgs& a) { return ShapeFromOther(a, ExpandRules(a)); });

}  // namespace
}  // namespace shrt
