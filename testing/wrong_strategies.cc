#include "testing/wrong_strategies.h"

#include <map>

namespace shrt::testing {
namespace {

// Per overload: every rule it claims, wrong ones included.
const std::map<std::string, std::vector<std::string>>& Claims() {
  static const auto* claims = new std::map<std::string, std::vector<std::string>>{
      {"aten::mul.Tensor",
       {"S(0), S(0) -> S(0)", "S(1), S(1) -> S(1)", "P(sum), R -> P(sum)",
        "P(sum), P(sum) -> P(sum)"}},
      {"aten::argmax", {"S(0) -> S(0)", "S(1) -> P(max)"}},
      {"aten::add.Tensor",
       {"S(0), S(0) -> S(0)", "P(sum), P(sum) -> P(sum)", "S(0), S(0) -> S(1)"}},
      {"aten::abs", {"S(0) -> S(0)", "P(sum) -> P(sum)"}},
      {"aten::mean.dim", {"S(1) -> S(0)", "S(0) -> P(avg)"}},
      {"aten::mm", {"S(0), R -> S(0)", "R, S(1) -> S(1)", "S(1), S(0) -> P(sum)"}},
  };
  return *claims;
}

}  // namespace

std::vector<PlantedRule> PlantedWrongRules() {
  return {{"aten::mul.Tensor", "P(sum), P(sum) -> P(sum)"},
          {"aten::argmax", "S(1) -> P(max)"},
          {"aten::add.Tensor", "S(0), S(0) -> S(1)"},
          {"aten::abs", "P(sum) -> P(sum)"},
          {"aten::mean.dim", "S(0) -> P(avg)"}};
}

std::vector<PlantedRule> KnownCorrectRules() {
  return {{"aten::mm", "S(1), S(0) -> P(sum)"},
          {"aten::mm", "S(0), R -> S(0)"},
          {"aten::mul.Tensor", "P(sum), R -> P(sum)"},
          {"aten::add.Tensor", "P(sum), P(sum) -> P(sum)"},
          {"aten::mean.dim", "S(1) -> S(0)"},
          {"aten::argmax", "S(0) -> S(0)"}};
}

absl::Status RegisterWrongStrategies(StrategyRegistry& registry) {
  for (const auto& [op, texts] : Claims()) {
    absl::Status s = registry.Add(op, [texts = texts](const OpArgs&)
                                           -> absl::StatusOr<std::vector<Rule>> {
      std::vector<Rule> rules;
      for (const std::string& t : texts) {
        absl::StatusOr<Rule> r = ParseRule(t);
        if (!r.ok()) return r.status();
        rules.push_back(*r);
      }
      return rules;
    });
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace shrt::testing
