// Strategies for the `_foreach_*` list ops, as list strategies
// (foreach_list.h): the element op's own rules per position. For a
// `_foreach_*` op they are the registered strategy of the aten op it applies
// per position (its row below names it: `_foreach_add.Scalar` applies
// `add.Scalar`, its `scalar` argument being add's `other`), queried from
// the registry with the position's tensors, so each op's algebra has one
// home (binary.cc, unary.cc, ternary.cc, clamp.cc, ...). The families those
// ops live in are linked with this one (families.bzl FAMILY_DEPS). The
// fused optimizers are in foreach_optimizers.cc.
//
// `_foreach_norm.Scalar`: out[i] = linalg_vector_norm(self[i], ord), 0-d.
//   DTensor (torch/distributed/tensor/_ops/_math_ops.py,
//   `foreach_norm_strategy`) gives each position vector_norm's reduction
//   strategy with a _NormPartial(ord) output; ShRT has P(sum) and P(max)
//   only, so: for ord 1 (sum of |x|) and ord 0 (count of nonzeros) the
//   norms of disjoint chunks add up: S(d) -> P(sum) on every dim (an
//   empty chunk gives 0). On a size-1 dim rank 0 holds all of self[i] and
//   the other ranks' chunks are empty, whose norm is 0 for a finite
//   ord >= 0, so S(d) -> P(sum) and S(d) -> P(max) (norms are >= 0).
//   ord +-inf gives S(d) -> P(max) / P(min) only when no chunk is empty
//   (the norm of an empty tensor raises), which depends on W: not
//   claimed. A one-element self[i] has norm |x| (ord != 0) or [x != 0]
//   (ord 0), both multiplicative: P(product) -> P(product).
//
// `_foreach_addcmul.Tensor` and `_foreach_addcdiv.Tensor` take their values
// per position (a ScalarList's, foreach_list.h) from a 1-d tensor `scalars` of one element per position, which every
// position shares (ForeachOpsKernels.cpp, `convert_tensor_to_scalar_list`,
// checks its length against the list's): position i computes
// self + scalars[i] * t1 (* or /) t2 with a value ShRT does not see. Its
// element rules are the element op's with `scalars` R (its value unknown,
// so none that needs value != 0 or its sign), and, as the position is
// linear in (self, value) jointly with t1, t2 R, `P(op), R, R, P(op) ->
// P(op)` for sum and avg, and affine in value, `R, R, R, P(avg) -> P(avg)`;
// `scalars` sharded gives a rank fewer values than
// positions, which ATen refuses.
//
// `_foreach_zero` writes zeros, on which no case is informative (DESIGN.md
// §3): its rules, zero_'s per position, can be refuted but stay unverified,
// as zero_'s do.
//
// `_foreach_zero` writes zeros, on which no case is informative (DESIGN.md
// §3): its rules, zero_'s per position, can be refuted but stay unverified,
// as zero_'s do.
#include <cmath>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "shrt/ops/overload_name.h"
#include "shrt/strategies/foreach_list.h"
#include "shrt/strategies/registry.h"

namespace shrt::foreach {
namespace {

// One row: a `_foreach_*` overload, the aten overload each position
// applies, and the list op's argument names that the element op spells
// differently.
struct ForeachOp {
  const char* overload;
  const char* element;
  std::vector<std::pair<const char*, const char*>> renames = {};
};

// The element op's registered rules for a position, its args renamed. The
// element's name is parsed once, here; a malformed one fails every query.
ElementFn ElementOp(const ForeachOp& row) {
  return [name = ParseOverloadName(row.element), renames = row.renames](
             const OpArgs& e) -> absl::StatusOr<Rules> {
    if (!name.ok()) return name.status();
    std::vector<OpArg> renamed = e.args();
    for (OpArg& a : renamed) {
      for (const auto& [from, to] : renames) {
        if (a.name == from) a.name = to;
      }
    }
    return StrategyRegistry::Global().Query(*name, OpArgs(renamed, e.inputs(), e.outputs()));
  };
}

// A row whose last element input is the shared 1-d `scalars` tensor (see
// the header): the element op's rules on the other inputs, `scalars` R,
// and the Partial rules linear or affine in value.
ElementFn TensorOfScalarsOp(const ForeachOp& row) {
  return [op = ElementOp(row)](const OpArgs& e) -> absl::StatusOr<Rules> {
    std::vector<TensorMeta> inputs = e.inputs();
    if (inputs.size() != 4) return Rules{};
    inputs.pop_back();
    std::vector<OpArg> args;
    for (const OpArg& a : e.args()) {
      if (a.name != "scalars") args.push_back(a);
    }
    absl::StatusOr<Rules> rules = op(OpArgs(std::move(args), std::move(inputs), e.outputs()));
    if (!rules.ok()) return rules.status();
    for (Rule& r : *rules) r.inputs.push_back(Placement::Replicate());
    const Placement r = Placement::Replicate(), avg = Placement::Partial(ReduceOp::kAvg);
    for (ReduceOp linear : {ReduceOp::kSum, ReduceOp::kAvg}) {
      const Placement p = Placement::Partial(linear);
      rules->push_back(Rule{{p, r, r, p}, {p}});
    }
    rules->push_back(Rule{{r, r, r, avg}, {avg}});  // affine in value
    return rules;
  };
}

// _foreach_norm.Scalar: out[i] = linalg_vector_norm(self[i], ord), 0-d.
absl::StatusOr<Rules> NormElement(const OpArgs& element) {
  const double p = element.GetDouble("ord").value_or(2.0);
  static const Rules kProduct = ParseRules({"P(product) -> P(product)"});
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
}

// Registers each row's list strategy, its element rules made by `element`.
bool RegisterForeachOps(std::vector<ForeachOp> ops, ElementFn (*element)(const ForeachOp&)) {
  for (const ForeachOp& op : ops) StrategyRegistrar(op.overload, ListStrategy(element(op)));
  return true;
}

const bool kRegistered = RegisterForeachOps({
    // Two lists: binary.cc's Tensor overloads.
    {"aten::_foreach_add.List", "aten::add.Tensor"},
    {"aten::_foreach_sub.List", "aten::sub.Tensor"},
    {"aten::_foreach_mul.List", "aten::mul.Tensor"},
    {"aten::_foreach_div.List", "aten::div.Tensor"},
    {"aten::_foreach_maximum.List", "aten::maximum"},
    {"aten::_foreach_minimum.List", "aten::minimum"},
    {"aten::_foreach_clamp_min.List", "aten::clamp_min.Tensor"},
    {"aten::_foreach_clamp_max.List", "aten::clamp_max.Tensor"},
    // One list and a Tensor every position shares (0-d).
    {"aten::_foreach_add.Tensor", "aten::add.Tensor"},
    {"aten::_foreach_mul.Tensor", "aten::mul.Tensor"},
    {"aten::_foreach_div.Tensor", "aten::div.Tensor"},
    // One list and a Scalar: binary.cc's and clamp.cc's Scalar overloads.
    {"aten::_foreach_add.Scalar", "aten::add.Scalar", {{"scalar", "other"}}},
    {"aten::_foreach_sub.Scalar", "aten::sub.Scalar", {{"scalar", "other"}}},
    {"aten::_foreach_mul.Scalar", "aten::mul.Scalar", {{"scalar", "other"}}},
    {"aten::_foreach_div.Scalar", "aten::div.Scalar", {{"scalar", "other"}}},
    {"aten::_foreach_clamp_min.Scalar", "aten::clamp_min", {{"scalar", "min"}}},
    {"aten::_foreach_clamp_max.Scalar", "aten::clamp_max", {{"scalar", "max"}}},
    // One list and a Scalar per position (Scalar[]).
    {"aten::_foreach_add.ScalarList", "aten::add.Scalar", {{"scalars", "other"}}},
    {"aten::_foreach_sub.ScalarList", "aten::sub.Scalar", {{"scalars", "other"}}},
    {"aten::_foreach_mul.ScalarList", "aten::mul.Scalar", {{"scalars", "other"}}},
    {"aten::_foreach_div.ScalarList", "aten::div.Scalar", {{"scalars", "other"}}},
    {"aten::_foreach_clamp_min.ScalarList", "aten::clamp_min", {{"scalars", "min"}}},
    {"aten::_foreach_clamp_max.ScalarList", "aten::clamp_max", {{"scalars", "max"}}},
    {"aten::_foreach_addcmul.ScalarList", "aten::addcmul", {{"scalars", "value"}}},
    {"aten::_foreach_addcdiv.ScalarList", "aten::addcdiv", {{"scalars", "value"}}},
    {"aten::_foreach_lerp.ScalarList", "aten::lerp.Scalar"},
    // Three lists (or two and a Scalar): ternary.cc's.
    {"aten::_foreach_addcmul.Scalar", "aten::addcmul"},
    {"aten::_foreach_addcdiv.Scalar", "aten::addcdiv"},
    {"aten::_foreach_lerp.List", "aten::lerp.Tensor"},
    {"aten::_foreach_lerp.Scalar", "aten::lerp.Scalar"},
    // One list: unary.cc's rows, copy.cc's clone, matrix.cc's mm.
    {"aten::_foreach_abs", "aten::abs"},
    {"aten::_foreach_reciprocal", "aten::reciprocal"},
    {"aten::_foreach_neg", "aten::neg"},
    {"aten::_foreach_ceil", "aten::ceil"},
    {"aten::_foreach_floor", "aten::floor"},
    {"aten::_foreach_round", "aten::round"},
    {"aten::_foreach_trunc", "aten::trunc"},
    {"aten::_foreach_erf", "aten::erf"},
    {"aten::_foreach_exp", "aten::exp"},
    {"aten::_foreach_expm1", "aten::expm1"},
    {"aten::_foreach_sigmoid", "aten::sigmoid"},
    {"aten::_foreach_tanh", "aten::tanh"},
    {"aten::_foreach_atan", "aten::atan"},
    {"aten::_foreach_sinh", "aten::sinh"},
    {"aten::_foreach_erfc", "aten::erfc"},
    {"aten::_foreach_log", "aten::log"},
    {"aten::_foreach_log10", "aten::log10"},
    {"aten::_foreach_log1p", "aten::log1p"},
    {"aten::_foreach_log2", "aten::log2"},
    {"aten::_foreach_sqrt", "aten::sqrt"},
    {"aten::_foreach_rsqrt", "aten::rsqrt"},
    {"aten::_foreach_acos", "aten::acos"},
    {"aten::_foreach_asin", "aten::asin"},
    {"aten::_foreach_cos", "aten::cos"},
    {"aten::_foreach_cosh", "aten::cosh"},
    {"aten::_foreach_sin", "aten::sin"},
    {"aten::_foreach_tan", "aten::tan"},
    {"aten::_foreach_frac", "aten::frac"},
    {"aten::_foreach_lgamma", "aten::lgamma"},
    {"aten::_foreach_clone", "aten::clone"},
    {"aten::_foreach_mm", "aten::mm"},
    {"aten::_foreach_sign", "aten::sign"},
    {"aten::_foreach_zero", "aten::zero_"},
    {"aten::_foreach_pow.List", "aten::pow.Tensor_Tensor"},
    {"aten::_foreach_pow.Scalar", "aten::pow.Tensor_Scalar"},
    {"aten::_foreach_pow.ScalarList", "aten::pow.Tensor_Scalar"},
    {"aten::_foreach_pow.ScalarAndTensor", "aten::pow.Scalar"},
    // A 0-d max per position: reductions.cc's full max.
    {"aten::_foreach_max", "aten::max"},
    // A 0-d sum(|x|^ord) per position: reductions.cc's linalg__powsum over
    // every dim.
    {"aten::_foreach_powsum.Scalar", "aten::linalg__powsum"},
}, ElementOp);

// Three lists and a 1-d tensor of one value per position.
const bool kTensorOfScalarsRegistered = RegisterForeachOps({
    {"aten::_foreach_addcmul.Tensor", "aten::addcmul"},
    {"aten::_foreach_addcdiv.Tensor", "aten::addcdiv"},
}, TensorOfScalarsOp);

SHRT_REGISTER_STRATEGY("aten::_foreach_norm.Scalar",
                       ListStrategy(NormElement));

}  // namespace
}  // namespace shrt::foreach
