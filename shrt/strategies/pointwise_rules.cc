#include "shrt/strategies/pointwise_rules.h"

#include <algorithm>

#include "shrt/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {

std::vector<Rule> PointwiseShardRules(const OpArgs& args) {
  std::vector<Rule> rules;
  if (args.outputs().empty()) return rules;
  const TensorMeta& out = args.outputs()[0];
  const size_t n = args.inputs().size();
  for (int64_t d = 0; d < out.ndim(); ++d) {
    // The input dim aligned with output dim d, or -1 where the input
    // broadcasts along d.
    std::vector<int64_t> aligned(n, -1);
    std::vector<size_t> optional;  // size-1 inputs on a size-1 output dim
    for (size_t i = 0; i < n; ++i) {
      const TensorMeta& in = args.inputs()[i];
      const int64_t a = d - (out.ndim() - in.ndim());
      if (a >= 0 && in.sizes[a] == out.sizes[d]) aligned[i] = a;
      if (aligned[i] >= 0 && out.sizes[d] == 1) optional.push_back(i);
    }
    // On a size-1 output dim, a size-1 input may be sharded (rank 0 holds it)
    // or replicated (it broadcasts against the empty chunks): every
    // non-empty subset of them sharded is a rule.
    const size_t variants = optional.empty() ? 1 : (size_t{1} << optional.size()) - 1;
    for (size_t v = 0; v < variants; ++v) {
      std::vector<int64_t> dims = aligned;
      for (size_t j = 0; j < optional.size(); ++j) {
        if (!(((v + 1) >> j) & 1)) dims[optional[j]] = -1;
      }
      Rule rule;
      for (int64_t a : dims) {
        rule.inputs.push_back(a >= 0 ? Placement::Shard(a) : Placement::Replicate());
      }
      rule.outputs.assign(args.outputs().size(), Placement::Shard(d));
      rules.push_back(std::move(rule));
    }
  }
  return rules;
}

absl::StatusOr<std::vector<Rule>> ApplicableRules(const OpArgs& args,
                                                  absl::Span<const absl::string_view> rules) {
  RuleSet kept(args);
  for (absl::string_view text : rules) {
    absl::StatusOr<Rule> rule = ParseRule(text);
    if (!rule.ok()) return rule.status();
    kept.Add(std::move(rule->inputs), std::move(rule->outputs));
  }
  return kept.Take();
}

absl::StatusOr<std::vector<Rule>> PointwiseRules(const OpArgs& args,
                                                 absl::Span<const absl::string_view> partial_rules,
                                                 bool in_place) {
  std::vector<Rule> rules = PointwiseShardRules(args);
  absl::StatusOr<std::vector<Rule>> partial = ApplicableRules(args, partial_rules);
  if (!partial.ok()) return partial.status();
  rules.insert(rules.end(), partial->begin(), partial->end());
  if (in_place) {
    rules.erase(std::remove_if(rules.begin(), rules.end(),
                               [](const Rule& r) {
                                 return r.inputs.empty() || r.outputs[0] != r.inputs[0];
                               }),
                rules.end());
  }
  return rules;
}

bool RegisterPointwiseOps(const std::vector<PointwiseOp>& ops) {
  for (const PointwiseOp& op : ops) {
    StrategyRegistrar(op.overload, [&op](const OpArgs& args) {
      return PointwiseRules(args, op.partial_rules, op.in_place);
    });
  }
  return true;
}

}  // namespace shrt
