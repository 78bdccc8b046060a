// Strategies for the `_foreach_*` list ops: op(self[0..n), other[0..n), ...)
// returns out[0..n) with out[i] = elem_op(self[i], other[i], ...), each
// position computed by the element op on that position's tensors alone
// (on CPU libtorch 1.13 runs the slow path, literally one element-op call
// per position: ATen/native/ForeachOpsKernels.cpp).
//
// Tensor[] arguments are flattened in order (DESIGN.md §5): for list
// arguments L_0 .. L_{k-1} of length n the rule inputs are L_0[0..n), then
// L_1[0..n), ..., and the outputs are out[0..n).
//
// Since position i's output depends only on position i's inputs, a rule of
// the list op is any choice, per position, of one of that position's element
// rules, and every such choice holds: the positions do not interact, so each
// rank's locals are correct position by position. The strategy is therefore
// the product over positions of each position's element rules, minus the one
// all-R rule overall. This is DTensor's list strategy
// (torch/distributed/tensor/_ops/_pointwise_ops.py, `list_pointwise_strategy`
// for the ops of `for_each_ops`), which builds a TupleStrategy holding one
// pointwise strategy per list position, so each position gets its own
// placement.
//
// Each position's element rules include its replicated ones: all-R inputs
// -> R, and all-R inputs -> P(avg), P(max), P(min) (every rank computes the
// full out[i]; the mean, max and min of W identical values are that value).
// The latter are degenerate for a single op (DESIGN.md §3), but in a list
// they combine with another position's real rule, e.g. abs on two tensors:
// `S(0), R -> S(0), P(max)`; DTensor does not produce them, but they hold.
//
// The element rules of position i are those of the corresponding pointwise
// op on (self[i], other[i], ...) -> out[i] (shrt/strategies/binary.cc,
// unary.cc, ternary.cc give the algebra; the lists are repeated here since
// those files keep them file-local):
//   shard rules: PointwiseShardRules of the position (pointwise_rules.h),
//     which also handles broadcasting between self[i] and other[i];
//   _foreach_add.List / _foreach_sub.List: add.Tensor / sub.Tensor,
//     a * x + b * y with a = 1, b = +-alpha: TwoTensorAffineRules(1, b);
//   _foreach_mul.List: mul.Tensor (bilinear: P(sum) or P(avg) on one
//     factor with the other R; multiplicative);
//   _foreach_div.List: div.Tensor (linear in self off zero divisors, which
//     the specs draw from the "nonzero" recipe; multiplicative);
//   _foreach_maximum.List / _foreach_minimum.List: maximum / minimum
//     commute with max / min over ranks, and are non-decreasing in each;
//   _foreach_{add,sub,mul,div}.Scalar: the one-tensor affine map
//     a * x + b of add/sub/mul/div.Scalar (add: a = 1, b = c; sub: a = 1,
//     b = -c; mul: a = c, b = 0; div: a = 1 / c, b = 0, nothing for c = 0):
//     P(avg) always, P(sum) iff b == 0, identity rules for a == 1, b == 0,
//     monotone by the sign of a;
//   _foreach_addcmul.Scalar / _foreach_addcdiv.Scalar: addcmul / addcdiv
//     (ternary.cc): linear in (self, tensor1) jointly (and in (self,
//     tensor2) for addcmul), affine in each alone (tensor2 excepted for
//     addcdiv), non-decreasing in self;
//   unary ops, as unary.cc: abs, reciprocal: multiplicative; neg: linear
//     and non-increasing; ceil, floor, round, trunc, erf, exp, expm1,
//     sigmoid, tanh, atan, sinh: non-decreasing; erfc: non-increasing;
//     log, log10, log1p, log2, sqrt: non-decreasing on a half-line, only
//     P(min) -> P(min) (P(min) parts are >= x and stay in the domain);
//     acos, asin, cos, cosh, sin, tan, frac, lgamma: no Partial rule;
//     ceil, floor, round, trunc are the identity on integer tensors, so a
//     position with an integral input gets every identity rule
//     (P(op) -> P(op) for sum, avg, max, min, product);
//   _foreach_norm.Scalar: out[i] = linalg_vector_norm(self[i], ord), 0-d.
//     DTensor (torch/distributed/tensor/_ops/_math_ops.py,
//     `foreach_norm_strategy`) gives each position vector_norm's reduction
//     strategy with a _NormPartial(ord) output; ShRT has P(sum) and P(max)
//     only, so: for ord 1 (sum of |x|) and ord 0 (count of nonzeros) the
//     norms of disjoint chunks add up: S(d) -> P(sum) on every dim (an
//     empty chunk gives 0). On a size-1 dim rank 0 holds all of self[i] and
//     the other ranks' chunks are empty, whose norm is 0 for a finite
//     ord >= 0, so S(d) -> P(sum) and S(d) -> P(max) (norms are >= 0).
//     ord +-inf gives S(d) -> P(max) / P(min) only when no chunk is empty
//     (the norm of an empty tensor raises), which depends on W: not
//     claimed. A one-element self[i] has norm |x| (ord != 0) or [x != 0]
//     (ord 0), both multiplicative: P(product) -> P(product).
//
// Not covered, and why:
//   - the in-place variants (_foreach_add_.List, ...) return () and write
//     self: ShRT's rules place outputs (returns) only, so they would have
//     zero outputs; their specs exclude them;
//   - the out= variants (_foreach_add.List_out, ...) take a Tensor(a!)[]
//     out list, which ShRT fills with one tensor (libtorch rejects it);
//     their specs exclude them;
//   - the ScalarList overloads (_foreach_add.ScalarList, ...) take a
//     Scalar[], which a spec cannot give (spec.proto has no such value);
//   - _foreach_zero returns all zeros: no case is informative (DESIGN.md
//     §3), so no rule could be verified.
#include <cmath>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "c10/core/ScalarType.h"
#include "shrt/strategies/pointwise_rules.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

const Rules kNone = {};
const Rules& kIncreasing = IncreasingRules();
const Rules& kDecreasing = DecreasingRules();
const Rules& kMultiplicative = MultiplicativeRules();
const Rules& kIncreasingFromBelow = IncreasingFromBelowRules();
const Rules kLinearDecreasing = Concat({LinearRules(), DecreasingRules()});

const Rules& kMul = MulRules();
const Rules& kDiv = DivRules();
const Rules& kMaximum = MaximumRules();
const Rules& kMinimum = MinimumRules();
const Rules& kAddcmul = AddcmulRules();
const Rules& kAddcdiv = AddcdivRules();

double Alpha(const OpArgs& args) { return args.GetDouble("alpha").value_or(1.0); }
double ScalarArg(const OpArgs& args) { return args.GetDouble("scalar").value_or(0.0); }

Rules AddList(const OpArgs& args) { return TwoTensorAffineRules(1, Alpha(args)); }
Rules SubList(const OpArgs& args) { return TwoTensorAffineRules(1, -Alpha(args)); }
Rules AddScalar(const OpArgs& args) { return ScalarAffineRules(1, ScalarArg(args)); }
Rules SubScalar(const OpArgs& args) { return ScalarAffineRules(1, -ScalarArg(args)); }
Rules MulScalar(const OpArgs& args) { return ScalarAffineRules(ScalarArg(args), 0); }
Rules DivScalar(const OpArgs& args) {
  const double c = ScalarArg(args);
  return c == 0 ? kNone : ScalarAffineRules(1 / c, 0);
}

// The element Partial rules of a row: fixed, or a function of the list
// op's non-tensor arguments (the same at every position).
struct ForeachOp {
  ForeachOp(const char* overload, Rules partial_rules)
      : overload(overload), fixed(std::move(partial_rules)) {}
  ForeachOp(const char* overload, PartialRulesFn partial_rules)
      : overload(overload), from_args(partial_rules) {}

  const char* overload;
  Rules fixed;
  PartialRulesFn from_args = nullptr;
  // Rounding ops (ceil, floor, round, trunc) are the identity on integer
  // tensors: a position with an integral input gets IdentityRules.
  bool identity_on_integers = false;
};

ForeachOp Rounding(const char* overload) {
  ForeachOp op(overload, IncreasingRules());
  op.identity_on_integers = true;
  return op;
}

// The rules of one position's element op, shards and Partial ones, on the
// position's own args (inputs: self[i], other[i], ...; output: out[i]).
using ElementFn = std::function<Rules(const OpArgs& element)>;

// The element rules of every position, each list starting with that
// position's replicated rules: all-R, and all-R inputs -> P(avg|max|min)
// (every rank computes the full out[i], and the mean, max and min of W
// identical values are that value; degenerate for a single op, but in a
// list they combine with other positions' non-trivial rules). Tensor[]
// inputs are split evenly into `lists` lists (the op's Tensor[] arguments;
// a foreach op has no lone Tensor argument).
absl::StatusOr<std::vector<Rules>> ElementRules(const OpArgs& args, const ElementFn& fn) {
  const size_t n = args.outputs().size();
  const size_t total = args.inputs().size();
  if (n == 0) {
    // The in-place variants (_foreach_add_.List: `-> ()`) have no output
    // that a rule could place; their specs exclude them.
    return absl::InvalidArgumentError(
        "a foreach overload without outputs (an in-place `-> ()` variant) has no rule");
  }
  if (total % n != 0) {
    return absl::InvalidArgumentError("a foreach op needs lists of one length as inputs and output");
  }
  const size_t lists = total / n;
  std::vector<Rules> per_position;
  for (size_t i = 0; i < n; ++i) {
    std::vector<TensorMeta> inputs;
    for (size_t l = 0; l < lists; ++l) inputs.push_back(args.inputs()[l * n + i]);
    const OpArgs element({}, std::move(inputs), {args.outputs()[i]});
    const std::vector<Placement> all_r(lists, Placement::Replicate());
    Rules rules = {Rule{all_r, {Placement::Replicate()}}};
    for (ReduceOp op : {ReduceOp::kAvg, ReduceOp::kMax, ReduceOp::kMin}) {
      Append(rules, KeepApplicable(element, {Rule{all_r, {Placement::Partial(op)}}}));
    }
    Append(rules, KeepApplicable(element, fn(element)));
    per_position.push_back(std::move(rules));
  }
  return per_position;
}

// The product over positions of their element rules, flattened in rule
// order, without the all-R rule.
Rules Product(const std::vector<Rules>& per_position, size_t lists) {
  const size_t n = per_position.size();
  Rules out;
  std::vector<size_t> pick(n, 0);
  while (true) {
    Rule rule;
    rule.inputs.assign(lists * n, Placement::Replicate());
    rule.outputs.assign(n, Placement::Replicate());
    for (size_t i = 0; i < n; ++i) {
      const Rule& e = per_position[i][pick[i]];
      for (size_t l = 0; l < lists; ++l) rule.inputs[l * n + i] = e.inputs[l];
      rule.outputs[i] = e.outputs[0];
    }
    if (!IsAllReplicate(rule)) out.push_back(std::move(rule));
    size_t i = 0;
    while (i < n && ++pick[i] == per_position[i].size()) pick[i++] = 0;
    if (i == n) break;
  }
  return out;
}

absl::StatusOr<Rules> ForeachRules(const OpArgs& args, const ElementFn& fn) {
  absl::StatusOr<std::vector<Rules>> per_position = ElementRules(args, fn);
  if (!per_position.ok()) return per_position.status();
  return Product(*per_position, args.inputs().size() / args.outputs().size());
}

// A pointwise element op: PointwiseShardRules plus `partial` (IdentityRules
// on an integral input when `identity_on_integers`).
absl::StatusOr<Rules> PointwiseForeachRules(const OpArgs& args, const Rules& partial,
                                            bool identity_on_integers) {
  return ForeachRules(args, [&](const OpArgs& element) {
    const bool identity = identity_on_integers &&
                          c10::isIntegralType(element.inputs()[0].dtype, /*includeBool=*/false);
    return Concat({PointwiseShardRules(element), identity ? IdentityRules() : partial});
  });
}

// _foreach_norm.Scalar: out[i] = linalg_vector_norm(self[i], ord), 0-d.
absl::StatusOr<Rules> NormRules(const OpArgs& args) {
  const double p = args.GetDouble("ord").value_or(2.0);
  static const Rules kProduct = ParseRules({"P(product) -> P(product)"});
  return ForeachRules(args, [p](const OpArgs& element) {
    const TensorMeta& x = element.inputs()[0];
    Rules rules;
    int64_t numel = 1;
    for (int64_t size : x.sizes) numel *= size;
    // An empty chunk's norm is 0 for a finite ord >= 0 (inf for ord < 0,
    // an error for +-inf).
    const bool empty_is_zero = std::isfinite(p) && p >= 0;
    for (int64_t d = 0; d < x.ndim(); ++d) {
      const bool additive = p == 0 || p == 1;
      const bool unit = x.sizes[d] == 1 && empty_is_zero;
      if (additive || unit) {
        rules.push_back(Rule{{Placement::Shard(d)}, {Placement::Partial(ReduceOp::kSum)}});
      }
      if (unit) rules.push_back(Rule{{Placement::Shard(d)}, {Placement::Partial(ReduceOp::kMax)}});
    }
    if (numel == 1) Append(rules, kProduct);
    return rules;
  });
}

bool RegisterForeachOps(std::vector<ForeachOp> ops) {
  for (ForeachOp& op : ops) {
    Strategy strategy;
    if (op.from_args != nullptr) {
      strategy = [fn = op.from_args, id = op.identity_on_integers](const OpArgs& args) {
        return PointwiseForeachRules(args, fn(args), id);
      };
    } else {
      strategy = [rules = std::move(op.fixed), id = op.identity_on_integers](const OpArgs& args) {
        return PointwiseForeachRules(args, rules, id);
      };
    }
    StrategyRegistrar(op.overload, std::move(strategy));
  }
  return true;
}

const bool kRegistered = RegisterForeachOps({
    // Two lists: the element op is binary.cc's Tensor overload.
    {"aten::_foreach_add.List", AddList},
    {"aten::_foreach_sub.List", SubList},
    {"aten::_foreach_mul.List", kMul},
    {"aten::_foreach_div.List", kDiv},
    {"aten::_foreach_maximum.List", kMaximum},
    {"aten::_foreach_minimum.List", kMinimum},
    // One list and a Scalar: binary.cc's Scalar overload.
    {"aten::_foreach_add.Scalar", AddScalar},
    {"aten::_foreach_sub.Scalar", SubScalar},
    {"aten::_foreach_mul.Scalar", MulScalar},
    {"aten::_foreach_div.Scalar", DivScalar},
    // Three lists and a Scalar value: ternary.cc's addcmul / addcdiv.
    {"aten::_foreach_addcmul.Scalar", kAddcmul},
    {"aten::_foreach_addcdiv.Scalar", kAddcdiv},
    // One list: unary.cc's rows.
    {"aten::_foreach_abs", kMultiplicative},
    {"aten::_foreach_reciprocal", kMultiplicative},
    {"aten::_foreach_neg", kLinearDecreasing},
    Rounding("aten::_foreach_ceil"),
    Rounding("aten::_foreach_floor"),
    Rounding("aten::_foreach_round"),
    Rounding("aten::_foreach_trunc"),
    {"aten::_foreach_erf", kIncreasing},
    {"aten::_foreach_exp", kIncreasing},
    {"aten::_foreach_expm1", kIncreasing},
    {"aten::_foreach_sigmoid", kIncreasing},
    {"aten::_foreach_tanh", kIncreasing},
    {"aten::_foreach_atan", kIncreasing},
    {"aten::_foreach_sinh", kIncreasing},
    {"aten::_foreach_erfc", kDecreasing},
    {"aten::_foreach_log", kIncreasingFromBelow},
    {"aten::_foreach_log10", kIncreasingFromBelow},
    {"aten::_foreach_log1p", kIncreasingFromBelow},
    {"aten::_foreach_log2", kIncreasingFromBelow},
    {"aten::_foreach_sqrt", kIncreasingFromBelow},
    {"aten::_foreach_acos", kNone},
    {"aten::_foreach_asin", kNone},
    {"aten::_foreach_cos", kNone},
    {"aten::_foreach_cosh", kNone},
    {"aten::_foreach_sin", kNone},
    {"aten::_foreach_tan", kNone},
    {"aten::_foreach_frac", kNone},
    {"aten::_foreach_lgamma", kNone},
});

const bool kNormRegistered = (StrategyRegistrar("aten::_foreach_norm.Scalar", NormRules), true);

}  // namespace
}  // namespace shrt
