#include "shrt/strategies/rule_set.h"

#include <algorithm>
#include <optional>

#include "c10/core/WrapDimMinimal.h"
#include "shrt/ops/candidates.h"

namespace shrt {
namespace {

// Normalises the negative shard dims of `ps` against the tensors of `metas`
// (one each), and returns true if every placement then applies to its
// tensor.
bool NormaliseAndApply(std::vector<Placement>& ps, const std::vector<TensorMeta>& metas) {
  for (size_t i = 0; i < ps.size(); ++i) {
    const int64_t ndim = metas[i].ndim();
    if (ps[i].is_shard() && ps[i].dim() < 0) ps[i] = Placement::Shard(ps[i].dim() + ndim);
    if (!PlacementApplies(ps[i], ndim, metas[i].dtype)) return false;
  }
  return true;
}

}  // namespace

void RuleSet::Add(std::vector<Placement> in, std::vector<Placement> out) {
  Rule rule{std::move(in), std::move(out)};
  if (rule.inputs.size() != args_.inputs().size() ||
      rule.outputs.size() != args_.outputs().size() || rule.outputs.empty() ||
      !NormaliseAndApply(rule.inputs, args_.inputs()) ||
      !NormaliseAndApply(rule.outputs, args_.outputs()) || IsAllReplicate(rule) ||
      std::find(rules_.begin(), rules_.end(), rule) != rules_.end()) {
    return;
  }
  rules_.push_back(std::move(rule));
}

std::vector<Rule> KeepApplicable(const OpArgs& args, std::vector<Rule> rules) {
  RuleSet kept(args);
  for (Rule& rule : rules) kept.Add(std::move(rule.inputs), std::move(rule.outputs));
  return kept.Take();
}

std::vector<Rule> ShardOffDimRules(const OpArgs& args, bool* unit) {
  std::vector<Rule> rules;
  *unit = false;
  const std::optional<int64_t> dim_arg = args.GetInt("dim");
  if (!dim_arg || args.inputs().empty()) return rules;
  const int64_t n = args.inputs()[0].ndim();
  const int64_t dim = c10::maybe_wrap_dim(*dim_arg, n);
  *unit = n == 0 || args.inputs()[0].sizes[dim] == 1;
  for (int64_t d = 0; d < n; ++d) {
    if (d == dim && !*unit) continue;
    Rule rule;
    rule.inputs.assign(args.inputs().size(), Placement::Shard(d));
    rule.outputs.assign(args.outputs().size(), Placement::Shard(d));
    rules.push_back(std::move(rule));
  }
  return rules;
}

}  // namespace shrt
