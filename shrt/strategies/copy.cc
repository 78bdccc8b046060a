// Strategies for copies, conversions and fills: clone, _to_copy, to.dtype,
// lift_fresh_copy (a plain copy),
// copy, fill_ and the *_like constructors with a defined value
// (zeros_like, ones_like, full_like; empty_like and rand_like have
// undefined or random values and get no strategy).
//
//   - copies are the identity on values: every S(d) -> S(d), and P(op) ->
//     P(op) when the dtype conversion commutes with the reduction (same
//     dtype; float -> float and int -> float; int widening; float -> int
//     truncates: only max/min; int narrowing wraps: only sum/product; no
//     Partial on bool);
//   - copy(self, src) is src broadcast to self's shape and converted to
//     self's dtype; self's values are never read. Its rules: the pointwise
//     shard rules of (self, src) whose output keeps self's placement (the
//     output has self's local shape), and, with self whole on every rank
//     (R or any Partial), src's placement R or P(op) (the conversion
//     commuting) passed on to the output; self P(avg|max|min) with a
//     Replicate src also gives that Partial (identical values on every
//     rank). copy_ and copy.out derive theirs (variant_rules.h): copy_
//     keeps the rules whose output keeps self's placement.
//   - fills and *_like write a constant c that does not depend on the
//     input's values: S(d) -> S(d) keeps the chunk shapes; a Partial input
//     has the full shape, so it gives R; the constant on every rank keeps
//     P(avg|max|min), P(sum) when c == 0 and P(product) when c is 0 or 1.
//     fill_ is in place, so its output keeps self's placement.
#include <optional>
#include <vector>

#include "c10/core/ScalarType.h"
#include "shrt/strategies/partial_algebra.h"
#include "shrt/strategies/pointwise_rules.h"
#include "shrt/strategies/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

using P = Placement;

// clone, _to_copy, to.dtype: one input, one output of the same shape.
absl::StatusOr<std::vector<Rule>> CopyRules(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() != 1 || args.outputs().size() != 1) return rules.Take();
  const TensorMeta& in = args.inputs()[0];
  const TensorMeta& out = args.outputs()[0];
  for (int64_t d = 0; d < in.ndim(); ++d) rules.Add({P::Shard(d)}, {P::Shard(d)});
  for (ReduceOp op : kAllReduceOps) {
    if (ConversionKeeps(in.dtype, out.dtype, op)) rules.Add({P::Partial(op)}, {P::Partial(op)});
  }
  return rules.Take();
}

// copy(self, src): src broadcast to self's shape and converted.
absl::StatusOr<std::vector<Rule>> CopyIntoRules(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() != 2 || args.outputs().size() != 1) return rules.Take();
  const TensorMeta& self = args.inputs()[0];
  const TensorMeta& src = args.inputs()[1];
  for (const Rule& r : PointwiseShardRules(args)) {
    if (r.inputs[0] == r.outputs[0]) rules.Add(r.inputs, r.outputs);
  }
  std::vector<P> whole = {P::Replicate()};  // self's placements that hold its full shape
  for (ReduceOp op : kAllReduceOps) whole.push_back(P::Partial(op));
  for (const P& s : whole) {
    rules.Add({s, P::Replicate()}, {P::Replicate()});
    for (ReduceOp op : kAllReduceOps) {
      if (ConversionKeeps(src.dtype, self.dtype, op)) {
        rules.Add({s, P::Partial(op)}, {P::Partial(op)});
      }
    }
  }
  for (ReduceOp op : kIdempotentReduceOps) rules.Add({P::Partial(op), P::Replicate()}, {P::Partial(op)});
  return rules.Take();
}

// fill_.Scalar / fill_.Tensor / zero_ (self written in place): `value` is
// the scalar filled (nullopt: unknown, or fill_.Tensor's tensor value).
absl::StatusOr<std::vector<Rule>> FillRules(const OpArgs& args, bool tensor_value,
                                            std::optional<double> value) {
  RuleSet rules(args);
  if (args.inputs().size() != (tensor_value ? 2u : 1u)) return rules.Take();
  const TensorMeta& self = args.inputs()[0];
  auto add = [&](Placement s, Placement v) {
    if (tensor_value) {
      rules.Add({s, v}, {s});
    } else {
      rules.Add({s}, {s});
    }
  };
  for (int64_t d = 0; d < self.ndim(); ++d) add(P::Shard(d), P::Replicate());
  for (ReduceOp op : kAllReduceOps) {
    if (ConstantKeeps(value, op)) add(P::Partial(op), P::Replicate());
    if (tensor_value && ConversionKeeps(args.inputs()[1].dtype, self.dtype, op)) {
      add(P::Partial(op), P::Partial(op));
    }
  }
  return rules.Take();
}

// zeros_like / ones_like / full_like: a constant c of self's shape.
absl::StatusOr<std::vector<Rule>> LikeRules(const OpArgs& args, std::optional<double> c) {
  RuleSet rules(args);
  if (args.inputs().size() != 1 || args.outputs().size() != 1) return rules.Take();
  const TensorMeta& self = args.inputs()[0];
  for (int64_t d = 0; d < self.ndim(); ++d) rules.Add({P::Shard(d)}, {P::Shard(d)});
  for (const Rule& rule : ConstantRules(c)) rules.Add(rule.inputs, rule.outputs);
  return rules.Take();
}

SHRT_REGISTER_STRATEGY("aten::clone", CopyRules);
SHRT_REGISTER_STRATEGY("aten::_to_copy", CopyRules);
SHRT_REGISTER_STRATEGY("aten::to.dtype", CopyRules);
SHRT_REGISTER_STRATEGY("aten::lift_fresh_copy", CopyRules);
SHRT_REGISTER_STRATEGY("aten::copy", CopyIntoRules);
SHRT_REGISTER_STRATEGY("aten::fill_.Scalar",
                       [](const OpArgs& a) { return FillRules(a, false, a.GetDouble("value")); });
SHRT_REGISTER_STRATEGY("aten::fill_.Tensor",
                       [](const OpArgs& a) { return FillRules(a, true, std::nullopt); });
SHRT_REGISTER_STRATEGY("aten::zero_", [](const OpArgs& a) { return FillRules(a, false, 0.0); });
SHRT_REGISTER_STRATEGY("aten::zeros_like", [](const OpArgs& a) { return LikeRules(a, 0.0); });
SHRT_REGISTER_STRATEGY("aten::ones_like", [](const OpArgs& a) { return LikeRules(a, 1.0); });
SHRT_REGISTER_STRATEGY("aten::full_like",
                       [](const OpArgs& a) { return LikeRules(a, a.GetDouble("fill_value")); });

}  // namespace
}  // namespace shrt
