// Strategies for comparison and logical overloads: every shard rule, plus
// the Partial rules of a 0/1 result written in a dtype that has Partial
// placements.
//
// A functional result is bool, which has no Partial placement (a RuleSet
// drops Partial outputs on bool), and no Partial input survives into a bool
// result: the functional overloads have exactly the pointwise shard rules.
// The registry derives the in-place forms (gt_, logical_and_, ...) from
// them, with the in-place args: they write 0/1 into self's dtype, and keep
// the rules whose output keeps self's placement. So the rows below list the
// rules a 0/1 result in a non-bool dtype allows, and those survive where
// that result is self (in place) or an out= tensor of a non-bool dtype:
//   - gt/ge are non-decreasing in self (min_r [p_r > y] = [min_r p_r > y])
//     and map nan to 0, their least value: P(min), R -> P(min) (one input
//     for the Scalar overloads). The max over ranks would hold too, but a
//     Partial(max) nan is nan on one rank only, [nan > y] = 0 there, and
//     the other ranks' finite parts may exceed y: P(max) on integers only
//     (NanFree). lt/le are non-increasing in
//     self, which turns P(max) into P(min): no rule keeps self's placement,
//     none is listed. eq/ne and logical_xor/not are not monotone.
//   - logical_and and logical_or see their inputs only through [v != 0],
//     and a product is non-zero iff every factor is: prod_r [p_r != 0] =
//     [x != 0]. So logical_and has P(product), R -> P(product) and
//     P(product), P(product) -> P(product) ([a != 0][b != 0] multiplies
//     across ranks), and logical_or has P(product), R -> P(product) (each
//     rank gives 1 where y != 0, and [p_r != 0] where y == 0).
//   - ne.Scalar(x, 0) is [x != 0], which a product of parts keeps:
//     P(product) -> P(product). Other scalars have no Partial rule.
// The aliases greater, greater_equal, less, less_equal and not_equal
// (.Tensor and .Scalar) share the rows of gt, ge, lt, le and ne.
#include "shrt/strategies/pointwise_rules.h"

namespace shrt {
namespace {

const Rules kNone = {};
const Rules kIncreasingSelf = ParseRules({"P(max), R -> P(max)", "P(min), R -> P(min)"});
const Rules kMinSelf = ParseRules({"P(min), R -> P(min)"});
const Rules kMinScalar = ParseRules({"P(min) -> P(min)"});
Rules IncreasingSelf(const OpArgs& args) { return NanFree(args) ? kIncreasingSelf : kMinSelf; }
Rules IncreasingScalar(const OpArgs& args) { return NanFree(args) ? IncreasingRules() : kMinScalar; }
const Rules kLogicalAnd =
    ParseRules({"P(product), R -> P(product)", "P(product), P(product) -> P(product)"});
const Rules kLogicalOr = ParseRules({"P(product), R -> P(product)"});

Rules NeScalar(const OpArgs& args) {
  return args.GetDouble("other").value_or(1.0) == 0 ? MultiplicativeRules() : kNone;
}

const bool kRegistered = RegisterPointwiseOps({
    {"aten::gt.Tensor", IncreasingSelf},
    {"aten::gt.Scalar", IncreasingScalar},
    {"aten::ge.Tensor", IncreasingSelf},
    {"aten::ge.Scalar", IncreasingScalar},
    {"aten::lt.Tensor", kNone},
    {"aten::lt.Scalar", kNone},
    {"aten::le.Tensor", kNone},
    {"aten::le.Scalar", kNone},
    {"aten::eq.Tensor", kNone},
    {"aten::eq.Scalar", kNone},
    {"aten::ne.Tensor", kNone},
    {"aten::ne.Scalar", NeScalar},
    {"aten::logical_and", kLogicalAnd},
    {"aten::logical_or", kLogicalOr},
    {"aten::logical_xor", kNone},
    {"aten::logical_not", kNone},
    {"aten::greater.Tensor", IncreasingSelf},
    {"aten::greater.Scalar", IncreasingScalar},
    {"aten::greater_equal.Tensor", IncreasingSelf},
    {"aten::greater_equal.Scalar", IncreasingScalar},
    {"aten::less.Tensor", kNone},
    {"aten::less.Scalar", kNone},
    {"aten::less_equal.Tensor", kNone},
    {"aten::less_equal.Scalar", kNone},
    {"aten::not_equal.Tensor", kNone},
    {"aten::not_equal.Scalar", NeScalar},
});

}  // namespace
}  // namespace shrt
