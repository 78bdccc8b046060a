// ShRT must report every planted wrong rule as incorrect, and never flag a
// known-correct one, at every usual world size.
#include "testing/wrong_strategies.h"

#include <map>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shrt/engine/spec_tree.h"
#include "shrt/engine/validate.h"
#include "shrt/ops/overload_name.h"

namespace shrt::testing {
namespace {

class WrongStrategiesTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(RegisterWrongStrategies(registry_).ok());
    ASSERT_TRUE(registry_.Check().ok());
    absl::StatusOr<std::vector<LoadedSpec>> specs = LoadSpecTree("testing/specs", "op_specs/recipes");
    ASSERT_TRUE(specs.ok()) << specs.status();
    ValidateOptions options;
    options.world_size = GetParam();
    for (const LoadedSpec& spec : *specs) {
      // The planted rules are the functional overloads'; their in-place and
      // out= variants derive them (registry_test checks the derivation).
      if (spec.is_variant()) continue;
      const c10::OperatorName op = spec.op();
      absl::StatusOr<OpReport> report = ValidateOp(
          spec, [&](const OpArgs& args) { return registry_.Query(op, args); }, options);
      ASSERT_TRUE(report.ok()) << report.status();
      ASSERT_TRUE(report->error.empty()) << report->error;
      for (const RuleVerdict& v : report->rules) {
        verdicts_[{OverloadToString(op), RuleToString(v.rule)}] = v;
      }
    }
  }

  StrategyRegistry registry_;
  std::map<std::pair<std::string, std::string>, RuleVerdict> verdicts_;
};

TEST_P(WrongStrategiesTest, EveryPlantedRuleIsIncorrectWithEvidence) {
  for (const PlantedRule& p : PlantedWrongRules()) {
    auto it = verdicts_.find({p.op, p.rule});
    ASSERT_NE(it, verdicts_.end()) << p.op << " " << p.rule << " was not judged";
    EXPECT_EQ(it->second.verdict, Verdict::kIncorrect) << p.op << " " << p.rule;
    EXPECT_THAT(it->second.evidence, ::testing::HasSubstr("sample ")) << p.op;
    EXPECT_THAT(it->second.evidence, ::testing::HasSubstr("generator ")) << p.op;
  }
}

TEST_P(WrongStrategiesTest, NoOtherRuleIsIncorrect) {
  for (const auto& [key, v] : verdicts_) {
    if (v.verdict != Verdict::kIncorrect) continue;
    bool planted = false;
    for (const PlantedRule& p : PlantedWrongRules()) {
      planted = planted || (p.op == key.first && p.rule == key.second);
    }
    EXPECT_TRUE(planted) << key.first << " " << key.second << ": " << v.evidence;
  }
}

TEST_P(WrongStrategiesTest, KnownCorrectRulesAreNeverFlagged) {
  for (const PlantedRule& p : KnownCorrectRules()) {
    auto it = verdicts_.find({p.op, p.rule});
    ASSERT_NE(it, verdicts_.end()) << p.op << " " << p.rule << " was not judged";
    EXPECT_EQ(it->second.verdict, Verdict::kCorrect) << p.op << " " << p.rule << ": "
                                                      << it->second.evidence;
  }
}

INSTANTIATE_TEST_SUITE_P(WorldSizes, WrongStrategiesTest, ::testing::Values(2, 3, 4, 8),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return "W" + std::to_string(info.param);
                         });

}  // namespace
}  // namespace shrt::testing
