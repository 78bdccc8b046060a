// Strategies whose every single-dim rule is correct on a 1-D mesh of the
// spec's world size but whose expansion to a 2x2 mesh is wrong: composition
// failures (DESIGN.md §9), registered globally for //testing/composition
// only. composition_test.sh checks that the generated tests pass at W = 2
// and fail on the 2x2 mesh, naming each as a composition failure with its
// evidence.
#include "shrt/strategies/registry.h"

namespace shrt {
namespace {

// S(0) -> P(avg) for a mean over dim 0 holds when every rank holds as many
// rows (the mean of equal-count means is the mean): 6 rows over 2 ranks,
// but not nested over 2x2 (2 + 1 rows per dim-0 half).
absl::StatusOr<std::vector<Rule>> MeanRows(const OpArgs&) {
  Rule rule;
  rule.inputs = {Placement::Shard(0)};
  rule.outputs = {Placement::Partial(ReduceOp::kAvg)};
  return std::vector<Rule>{rule};
}
SHRT_REGISTER_STRATEGY("aten::mean.dim", MeanRows);

// A flattening view keeps S(0) when the rows split evenly: [6, 4] -> [24]
// over 2 ranks gives [3, 4] -> [12] on each. Over 2x2 a rank holds 2 or 1
// rows (8 or 4 elements) but its output piece has 6: the rule holds for
// the global shape, not for a rank's local one.
absl::StatusOr<std::vector<Rule>> ViewRows(const OpArgs&) {
  Rule rule;
  rule.inputs = {Placement::Shard(0)};
  rule.outputs = {Placement::Shard(0)};
  return std::vector<Rule>{rule};
}
SHRT_REGISTER_STRATEGY("aten::view", ViewRows);

}  // namespace
}  // namespace shrt
