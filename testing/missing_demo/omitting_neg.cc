// A strategy for aten::neg that claims only its shard rules and omits every
// Partial rule (neg is linear and order-reversing), registered globally for
// //testing/missing_demo only: its spec explains all but one of the missing
// rules and carries one stale explanation, so the generated test must fail
// on both (missing_rules_test.sh).
#include "shrt/strategies/pointwise_rules.h"
#include "shrt/strategies/registry.h"

namespace shrt {
namespace {

SHRT_REGISTER_STRATEGY("aten::neg", [](const OpArgs& args) -> absl::StatusOr<std::vector<Rule>> {
  return PointwiseShardRules(args);
});

}  // namespace
}  // namespace shrt
