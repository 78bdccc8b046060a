// The list strategy (foreach_list.h): the layout of a list op's tensors,
// each position's element rules, and their product over positions.
#include "shrt/strategies/foreach_list.h"

#include <map>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/strings/str_cat.h"
#include "shrt/strategies/rule_set.h"

namespace shrt::foreach {
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

}  // namespace

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

}  // namespace shrt::foreach
