// Strategies for the `_foreach_*` list ops and the fused optimizers: ops
// that compute, at every list position i, one op on the tensors at i (and
// on the tensors every position shares), independently of the other
// positions (on CPU the slow path calls the element op once per position:
// ATen/native/ForeachOpsKernels.cpp; FusedAdamKernel.cpp runs the Adam step
// per tensor).
//
// Tensor[] arguments are flattened in order (DESIGN.md §5): for list
// arguments L_0 .. L_{k-1} of length n the rule inputs are L_0[0..n), then
// L_1[0..n), ..., then the lone Tensor arguments (every position's, in
// schema order: `_foreach_add.Tensor`'s 0-d `other`, the optimizers'
// `grad_scale`, `found_inf` and tensor `lr`); the outputs are the returned
// lists (or the written ones, for `-> ()` variants) likewise.
//
// Since position i's outputs depend only on position i's inputs, a rule of
// the list op is any choice, per position, of one of that position's element
// rules that agree on the shared tensors, and every such choice holds: the
// positions do not interact, so each rank's locals are correct position by
// position. The strategy is therefore the product over positions of each
// position's element rules (per placement of the shared tensors), minus the
// all-R rule overall. This is DTensor's list strategy
// (torch/distributed/tensor/_ops/_pointwise_ops.py, `list_pointwise_strategy`
// for the ops of `for_each_ops`; single-dim registrations are expanded per
// element, _ops/utils.py `expanded_foreach_strategy`), which gives each
// position its own placement.
//
// The element rules of a position are, first, its replicated ones: all-R
// inputs -> R, and, when the list has more than one position, all-R inputs
// -> each output R, P(avg), P(max) or P(min) (every rank computes the full
// output; the mean, max and min of W identical values are that value).
// These are degenerate for a single op (DESIGN.md §3), but in a list they
// combine with another position's real rule, e.g. abs on two tensors:
// `S(0), R -> S(0), P(max)`; DTensor does not produce them, but they hold.
// Then the element op's own rules: for a `_foreach_*` op, the registered
// strategy of the aten op it applies per position (its row below names
// it: `_foreach_add.Scalar` applies `add.Scalar`, its `scalar` argument
// being add's `other`), queried from the registry with the position's
// tensors, so each op's algebra has one home (binary.cc, unary.cc,
// ternary.cc, clamp.cc, ...). The families those ops live in are linked
// with this one (families.bzl FAMILY_DEPS).
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
// The fused optimizers (`_fused_adam`, `_fused_adamw`, and their
// `tensor_lr` overloads) update, at position i, param, grad, exp_avg,
// exp_avg_sq (and max_exp_avg_sq with amsgrad) from those and the 0-d
// state_step (ATen/native/FusedAdam.cpp, `_fused_adam_kernel_cpu_`): every
// output element is a function of the same element of each same-shaped
// input, and of 0-d values (step, lr, grad_scale, found_inf). So their
// element rules are the shard rules of that map (on every dim d, each
// same-shaped tensor S(d), the 0-d ones R, every output S(d)), plus the
// Partial rules of the parts of the step that are affine: in exp_avg, and
// in param where grad does not depend on it (AdamElement). exp_avg_sq
// enters through a sqrt and grad through its square: no rule on either.
//
// A Scalar[] argument with one value per position (`_foreach_add.ScalarList`'s
// `scalars`) gives each position its own value of the element op's scalar.
//
// Not covered, and why:
//   - _foreach_zero returns all zeros: no case is informative (DESIGN.md
//     §3), so no rule could be verified;
//   - the fused optimizers' tensor_lr overloads and amsgrad: a position's
//     tensors have more input placement tuples than limits.h allows a
//     sample (7^5 x 6 with amsgrad's fifth tensor, 7^4 x 6^2 with a tensor
//     lr).
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/strings/str_cat.h"
#include "shrt/ops/overload_name.h"
#include "shrt/strategies/pointwise_rules.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

// Where a list op's tensors sit among its rule inputs: per element input,
// the offset of its list (position i's tensor is at offset + i) or of the
// lone tensor every position shares. Read from the args (Tensor[] and
// Tensor values, in schema order); an empty list (the optimizers'
// max_exp_avg_sqs without amsgrad) has no position.
struct ListLayout {
  struct Slot {
    size_t offset;
    bool shared;
  };
  std::vector<Slot> slots;
  size_t n = 0;  // the list length
  size_t outputs_per_position = 0;
};

// The rules of one position's element op on the position's own args
// (inputs: per slot, the position's list element or the shared tensor;
// outputs: the position's outputs).
using ElementFn = std::function<absl::StatusOr<Rules>(const OpArgs& element)>;

absl::StatusOr<ListLayout> LayoutOf(const OpArgs& args) {
  ListLayout layout;
  size_t offset = 0;
  for (const OpArg& a : args.args()) {
    if (std::holds_alternative<TensorMeta>(a.value)) {
      layout.slots.push_back({offset++, true});
    } else if (const auto* list = std::get_if<std::vector<TensorMeta>>(&a.value)) {
      if (list->empty()) continue;
      if (layout.n != 0 && list->size() != layout.n) {
        return absl::InvalidArgumentError(absl::StrCat(
            "list '", a.name, "' has ", list->size(), " tensors, another ", layout.n));
      }
      layout.n = list->size();
      layout.slots.push_back({offset, false});
      offset += list->size();
    }
  }
  if (layout.n == 0 || offset != args.inputs().size() || args.outputs().size() % layout.n != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the tensors do not form lists of one length (", args.inputs().size(), " inputs, ",
        args.outputs().size(), " outputs)"));
  }
  layout.outputs_per_position = args.outputs().size() / layout.n;
  return layout;
}

// The replicated rules of a position: all-R -> R, and, with `combine`,
// all-R -> every combination of R and P(avg|max|min) over the outputs.
Rules ReplicatedRules(const OpArgs& element, bool combine) {
  const size_t k = element.outputs().size();
  const std::vector<Placement> all_r(element.inputs().size(), Placement::Replicate());
  const std::vector<Placement> choices = {
      Placement::Replicate(), Placement::Partial(ReduceOp::kAvg),
      Placement::Partial(ReduceOp::kMax), Placement::Partial(ReduceOp::kMin)};
  Rules rules = {Rule{all_r, std::vector<Placement>(k, Placement::Replicate())}};
  if (!combine) return rules;
  std::vector<size_t> pick(k, 0);
  Rules partial;
  while (true) {
    size_t i = 0;
    while (i < k && ++pick[i] == choices.size()) pick[i++] = 0;
    if (i == k) break;
    Rule rule{all_r, {}};
    for (size_t o = 0; o < k; ++o) rule.outputs.push_back(choices[pick[o]]);
    partial.push_back(std::move(rule));
  }
  Append(rules, KeepApplicable(element, std::move(partial)));
  return rules;
}

// The element rules of every position, each list starting with that
// position's replicated rules.
absl::StatusOr<std::vector<Rules>> ElementRules(const OpArgs& args, const ListLayout& layout,
                                                const ElementFn& fn) {
  const size_t n = layout.n, k = layout.outputs_per_position;
  std::vector<Rules> per_position;
  for (size_t i = 0; i < n; ++i) {
    std::vector<TensorMeta> inputs, outputs;
    for (const ListLayout::Slot& s : layout.slots) {
      inputs.push_back(args.inputs()[s.shared ? s.offset : s.offset + i]);
    }
    for (size_t o = 0; o < k; ++o) outputs.push_back(args.outputs()[o * n + i]);
    // The position's own args: each list argument as its tensor at i, a
    // Scalar[] of one value per position (`scalars`) as its value at i.
    std::vector<OpArg> own_args;
    for (const OpArg& a : args.args()) {
      const auto* list = std::get_if<std::vector<TensorMeta>>(&a.value);
      const auto* scalars = std::get_if<std::vector<double>>(&a.value);
      if (list != nullptr) {
        if (!list->empty()) own_args.push_back({a.name, (*list)[i]});
      } else if (scalars != nullptr && scalars->size() == n) {
        own_args.push_back({a.name, (*scalars)[i]});
      } else {
        own_args.push_back(a);
      }
    }
    const OpArgs element(std::move(own_args), std::move(inputs), std::move(outputs));
    Rules rules = ReplicatedRules(element, n > 1);
    absl::StatusOr<Rules> own = fn(element);
    if (!own.ok()) return own.status();
    Append(rules, KeepApplicable(element, *std::move(own)));
    per_position.push_back(std::move(rules));
  }
  return per_position;
}

// The product over positions of their element rules that agree on the
// shared tensors, flattened in rule order, without the all-R rule.
Rules Product(const std::vector<Rules>& per_position, const ListLayout& layout,
              size_t total_inputs) {
  const size_t n = layout.n, k = layout.outputs_per_position;
  // Each position's rules by their shared tensors' placements.
  using Key = std::vector<Placement>;
  auto key = [&](const Rule& e) {
    Key shared;
    for (size_t j = 0; j < layout.slots.size(); ++j) {
      if (layout.slots[j].shared) shared.push_back(e.inputs[j]);
    }
    return shared;
  };
  std::vector<std::map<Key, std::vector<const Rule*>>> by_shared(n);
  for (size_t i = 0; i < n; ++i) {
    for (const Rule& e : per_position[i]) by_shared[i][key(e)].push_back(&e);
  }
  Rules out;
  for (const auto& [shared, first] : by_shared[0]) {
    std::vector<const std::vector<const Rule*>*> choices;
    for (size_t i = 0; i < n; ++i) {
      auto it = by_shared[i].find(shared);
      if (it == by_shared[i].end()) break;
      choices.push_back(&it->second);
    }
    if (choices.size() != n) continue;
    std::vector<size_t> pick(n, 0);
    while (true) {
      Rule rule;
      rule.inputs.assign(total_inputs, Placement::Replicate());
      rule.outputs.assign(k * n, Placement::Replicate());
      for (size_t i = 0; i < n; ++i) {
        const Rule& e = *(*choices[i])[pick[i]];
        for (size_t j = 0; j < layout.slots.size(); ++j) {
          const ListLayout::Slot& s = layout.slots[j];
          rule.inputs[s.shared ? s.offset : s.offset + i] = e.inputs[j];
        }
        for (size_t o = 0; o < k; ++o) rule.outputs[o * n + i] = e.outputs[o];
      }
      if (!IsAllReplicate(rule)) out.push_back(std::move(rule));
      size_t i = 0;
      while (i < n && ++pick[i] == choices[i]->size()) pick[i++] = 0;
      if (i == n) break;
    }
  }
  return out;
}

// The list strategy: ElementRules, then Product.
Strategy ListStrategy(ElementFn fn) {
  return [fn = std::move(fn)](const OpArgs& args) -> absl::StatusOr<Rules> {
    absl::StatusOr<ListLayout> layout = LayoutOf(args);
    if (!layout.ok()) return layout.status();
    absl::StatusOr<std::vector<Rules>> per_position = ElementRules(args, *layout, fn);
    if (!per_position.ok()) return per_position.status();
    return Product(*per_position, *layout, args.inputs().size());
  };
}

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

// Every choice of R, P(avg), P(max) or P(min) for the outputs of `rule`
// listed in `full`, which every rank computes in full under it (identical
// values reduce to themselves by mean, max and min).
Rules WithFullOutputs(const Rule& rule, const std::vector<size_t>& full) {
  const Placement choices[] = {Placement::Replicate(), Placement::Partial(ReduceOp::kAvg),
                               Placement::Partial(ReduceOp::kMax),
                               Placement::Partial(ReduceOp::kMin)};
  Rules rules;
  std::vector<size_t> pick(full.size(), 0);
  while (true) {
    Rule r = rule;
    for (size_t f = 0; f < full.size(); ++f) r.outputs[full[f]] = choices[pick[f]];
    rules.push_back(std::move(r));
    size_t i = 0;
    while (i < full.size() && ++pick[i] == 4) pick[i++] = 0;
    if (i == full.size()) return rules;
  }
}

// A fused Adam position (inputs param, grad, exp_avg, exp_avg_sq, step and
// the shared 0-d tensors; outputs param, grad, exp_avg, exp_avg_sq, with
// max_exp_avg_sq after each under amsgrad). `decoupled`: AdamW.
absl::StatusOr<Rules> AdamElement(const OpArgs& e, bool decoupled) {
  const TensorMeta& param = e.inputs()[0];
  const size_t n_in = e.inputs().size();
  Rules rules;
  for (int64_t d = 0; d < param.ndim(); ++d) {
    Rule rule;
    for (const TensorMeta& t : e.inputs()) {
      rule.inputs.push_back(t.sizes == param.sizes ? Placement::Shard(d) : Placement::Replicate());
    }
    rule.outputs.assign(e.outputs().size(), Placement::Shard(d));
    rules.push_back(std::move(rule));
  }
  // Partial rules on the plain step only: a float lr, no amsgrad (four
  // outputs), no grad_scale or found_inf (which unscale grad in place and
  // skip the step), beta1 in [0, 1) (a positive bias correction).
  const std::optional<double> lr = e.GetDouble("lr");
  const double beta1 = e.GetDouble("beta1").value_or(-1);
  const double wd = e.GetDouble("weight_decay").value_or(0);
  auto present = [&](const char* name) {
    const ArgValue* v = e.Find(name);
    return v != nullptr && std::holds_alternative<TensorMeta>(*v);
  };
  if (!lr.has_value() || !std::isfinite(*lr) || *lr == 0 || e.outputs().size() != 4 ||
      present("grad_scale") || present("found_inf") || !(beta1 >= 0 && beta1 < 1)) {
    return rules;
  }
  const Placement kR = Placement::Replicate();
  auto rule = [&](Placement p, Placement m, Placement p_out, Placement m_out) {
    Rule r{std::vector<Placement>(n_in, kR), {p_out, kR, m_out, kR}};
    r.inputs[0] = p;
    r.inputs[2] = m;
    return r;
  };
  const Placement kAvg = Placement::Partial(ReduceOp::kAvg);
  const Placement kMax = Placement::Partial(ReduceOp::kMax);
  const Placement kMin = Placement::Partial(ReduceOp::kMin);
  // exp_avg' = beta1 * exp_avg + (1 - beta1) * grad is affine and
  // non-decreasing in exp_avg; param' = param - step * exp_avg' / denom
  // (step = lr / (1 - beta1^t), denom > 0) is affine in exp_avg' and
  // monotone by the sign of lr. grad and exp_avg_sq are computed in full.
  Append(rules, WithFullOutputs(rule(kR, kAvg, kAvg, kAvg), {1, 3}));
  Append(rules, WithFullOutputs(rule(kR, kMax, *lr > 0 ? kMin : kMax, kMax), {1, 3}));
  Append(rules, WithFullOutputs(rule(kR, kMin, *lr > 0 ? kMax : kMin, kMin), {1, 3}));
  // param' = a * param + (what the rest gives) when grad does not depend on
  // param: Adam without weight decay (a = 1), AdamW (a = 1 - lr * wd,
  // torch/optim/adamw.py's param.mul_(1 - lr * weight_decay)). Adam's L2
  // decay adds wd * param to grad, whose square exp_avg_sq takes: no rule.
  const double a = decoupled ? 1 - *lr * wd : (wd == 0 ? 1 : 0);
  if (a != 0) {
    Append(rules, WithFullOutputs(rule(kAvg, kR, kAvg, kR), {1, 2, 3}));
    Append(rules, WithFullOutputs(rule(kMax, kR, a > 0 ? kMax : kMin, kR), {1, 2, 3}));
    Append(rules, WithFullOutputs(rule(kMin, kR, a > 0 ? kMin : kMax, kR), {1, 2, 3}));
    Append(rules, WithFullOutputs(rule(kAvg, kAvg, kAvg, kAvg), {1, 3}));
  }
  return rules;
}

bool RegisterForeachOps(std::vector<ForeachOp> ops) {
  for (const ForeachOp& op : ops) StrategyRegistrar(op.overload, ListStrategy(ElementOp(op)));
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
    {"aten::_foreach_pow.List", "aten::pow.Tensor_Tensor"},
    {"aten::_foreach_pow.Scalar", "aten::pow.Tensor_Scalar"},
    {"aten::_foreach_pow.ScalarList", "aten::pow.Tensor_Scalar"},
    {"aten::_foreach_pow.ScalarAndTensor", "aten::pow.Scalar"},
    // A 0-d max per position: reductions.cc's full max.
    {"aten::_foreach_max", "aten::max"},
    // A 0-d sum(|x|^ord) per position: reductions.cc's linalg__powsum over
    // every dim.
    {"aten::_foreach_powsum.Scalar", "aten::linalg__powsum"},
});

SHRT_REGISTER_STRATEGY("aten::_foreach_norm.Scalar",
                       ListStrategy(NormElement));
SHRT_REGISTER_STRATEGY("aten::_fused_adam", ListStrategy([](const OpArgs& e) {
                         return AdamElement(e, /*decoupled=*/false);
                       }));
SHRT_REGISTER_STRATEGY("aten::_fused_adamw", ListStrategy([](const OpArgs& e) {
                         return AdamElement(e, /*decoupled=*/true);
                       }));

}  // namespace
}  // namespace shrt
