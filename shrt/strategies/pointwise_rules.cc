#include "shrt/strategies/pointwise_rules.h"

#include <algorithm>

#include "shrt/candidates.h"

namespace shrt {

std::vector<Rule> PointwiseShardRules(const OpArgs& args) {
  std::vector<Rule> rules;
  if (args.outputs().empty()) return rules;
  const TensorMeta& out = args.outputs()[0];
  for (int64_t d = 0; d < out.ndim(); ++d) {
    Rule rule;
    for (const TensorMeta& in : args.inputs()) {
      const int64_t aligned = d - (out.ndim() - in.ndim());
      const bool sharded = aligned >= 0 && in.sizes[aligned] == out.sizes[d];
      rule.inputs.push_back(sharded ? Placement::Shard(aligned) : Placement::Replicate());
    }
    rule.outputs.push_back(Placement::Shard(d));
    for (size_t k = 1; k < args.outputs().size(); ++k) rule.outputs.push_back(Placement::Shard(d));
    rules.push_back(std::move(rule));
  }
  return rules;
}

absl::StatusOr<std::vector<Rule>> ApplicableRules(const OpArgs& args,
                                                  absl::Span<const absl::string_view> rules) {
  std::vector<Rule> out;
  for (absl::string_view text : rules) {
    absl::StatusOr<Rule> rule = ParseRule(text);
    if (!rule.ok()) return rule.status();
    if (rule->inputs.size() != args.inputs().size() ||
        rule->outputs.size() != args.outputs().size()) {
      continue;
    }
    bool applies = true;
    for (size_t i = 0; i < rule->inputs.size(); ++i) {
      const TensorMeta& m = args.inputs()[i];
      applies = applies && PlacementApplies(rule->inputs[i], m.ndim(), m.dtype);
    }
    for (size_t k = 0; k < rule->outputs.size(); ++k) {
      const TensorMeta& m = args.outputs()[k];
      applies = applies && PlacementApplies(rule->outputs[k], m.ndim(), m.dtype);
    }
    if (applies) out.push_back(*std::move(rule));
  }
  return out;
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

}  // namespace shrt
