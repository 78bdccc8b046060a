// Deliberately wrong strategies on real overloads, for tests only: each
// claims the correct rules of its overload plus one wrong rule that ShRT
// must report as incorrect. They register into a caller-owned registry,
// never the global one.
#ifndef TESTING_WRONG_STRATEGIES_H_
#define TESTING_WRONG_STRATEGIES_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "shrt/strategies/registry.h"

namespace shrt::testing {

// One planted mistake: the overload and the wrong rule's canonical text.
struct PlantedRule {
  std::string op;
  std::string rule;
};

// The wrong rules RegisterWrongStrategies plants:
//   aten::mul.Tensor  P(sum), P(sum) -> P(sum)   (mul is not bilinear in sums)
//   aten::argmax      S(1) -> P(max)             (over dim 1: local indices)
//   aten::add.Tensor  S(0), S(0) -> S(1)         (wrong output dim)
//   aten::abs         P(sum) -> P(sum)           (abs is not linear)
//   aten::mean.dim    S(0) -> P(avg)             (over dim 0, uneven shards)
std::vector<PlantedRule> PlantedWrongRules();

// Known-correct rules the same strategies claim, which must never be
// flagged (e.g. aten::mm's S(1), S(0) -> P(sum)).
std::vector<PlantedRule> KnownCorrectRules();

// Registers the strategies (wrong and correct rules, and aten::mm's correct
// strategy) into `registry`. Errors: those of StrategyRegistry::Add.
absl::Status RegisterWrongStrategies(StrategyRegistry& registry);

}  // namespace shrt::testing

#endif  // TESTING_WRONG_STRATEGIES_H_
