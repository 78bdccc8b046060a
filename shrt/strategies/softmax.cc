// Strategies for softmax and log_softmax, forward and backward, and
// _safe_softmax (softmax giving 0, not NaN, on a slice that is all -inf).
//
// Shard rules: any dim other than the softmax dim may be sharded (every
// input alike, the output follows). The softmax dim must not be: each rank
// would normalise over its chunk only. On a size-1 softmax dim the op is
// local along it (rank 0 holds the element, the others empty chunks), so
// S(dim) holds there as well.
//
// Partial inputs: softmax is not linear and not monotone per element
// (softmax(x + c) = softmax(x)), so the forward ops keep no Partial. The
// backward ops are linear in grad_output for a fixed output:
//   _softmax_backward_data:     output * (g - sum(g * output, dim))
//   _log_softmax_backward_data: g - exp(output) * sum(g, dim)
// so P(sum), R -> P(sum) and P(avg), R -> P(avg).
#include <algorithm>
#include <optional>
#include <vector>

#include "shrt/strategies/pointwise_rules.h"
#include "shrt/strategies/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

const Rules kLinearInGrad = ParseRules({"P(sum), R -> P(sum)", "P(avg), R -> P(avg)"});

absl::StatusOr<std::vector<Rule>> SoftmaxRules(const OpArgs& args, bool backward) {
  bool unit = false;
  std::vector<Rule> rules = ShardOffDimRules(args, &unit);
  if (!args.GetInt("dim")) return rules;
  if (backward) {
    Append(rules, KeepApplicable(args, kLinearInGrad));
  }
  return rules;
}

const bool kRegistered = [] {
  for (const char* op : {"aten::_softmax", "aten::_log_softmax", "aten::softmax.int",
                         "aten::log_softmax.int", "aten::_safe_softmax"}) {
    StrategyRegistrar(op, [](const OpArgs& args) { return SoftmaxRules(args, false); });
  }
  for (const char* op : {"aten::_softmax_backward_data", "aten::_log_softmax_backward_data"}) {
    StrategyRegistrar(op, [](const OpArgs& args) { return SoftmaxRules(args, true); });
  }
  return true;
}();

}  // namespace
}  // namespace shrt
