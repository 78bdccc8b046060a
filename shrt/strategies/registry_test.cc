#include "shrt/strategies/registry.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace shrt {
namespace {

using ::testing::HasSubstr;

OpArgs TwoInputs() {
  TensorMeta m{{8, 16}, {16, 1}, c10::ScalarType::Float};
  return OpArgs({}, {m, m}, {m});
}

Strategy Returning(std::vector<const char*> texts) {
  return [texts](const OpArgs&) -> absl::StatusOr<std::vector<Rule>> {
    std::vector<Rule> rules;
    for (const char* t : texts) rules.push_back(*ParseRule(t));
    return rules;
  };
}

TEST(RegistryTest, RejectsDuplicatesAndBadNames) {
  StrategyRegistry registry;
  EXPECT_TRUE(registry.Add("aten::add.Tensor", Returning({})).ok());
  EXPECT_EQ(registry.Add("aten::add.Tensor", Returning({})).code(),
            absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(registry.Add("add", Returning({})).code(), absl::StatusCode::kInvalidArgument);
}

TEST(RegistryTest, DefaultAliasMapsToEmptyOverload) {
  StrategyRegistry registry;
  ASSERT_TRUE(registry.Add("aten::relu.default", Returning({})).ok());
  EXPECT_TRUE(registry.Contains(c10::OperatorName("aten::relu", "")));
  EXPECT_TRUE(registry.Check().ok());
}

TEST(RegistryTest, CheckNamesUnknownOverloadsWithCloseMatches) {
  StrategyRegistry registry;
  ASSERT_TRUE(registry.Add("aten::add.Tensr", Returning({})).ok());
  absl::Status s = registry.Check();
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(s.message()), HasSubstr("aten::add.Tensr"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("aten::add.Tensor"));
}

TEST(RegistryTest, StaticRegistrarRecordsErrorsForCheck) {
  StrategyRegistry registry;
  StrategyRegistrar("aten::mul.Tensor", Returning({}), registry);
  StrategyRegistrar("aten::mul.Tensor", Returning({}), registry);
  EXPECT_THAT(std::string(registry.Check().message()), HasSubstr("already registered"));
}

TEST(RegistryTest, QueryNormalisesShardPlaceholders) {
  StrategyRegistry registry;
  ASSERT_TRUE(registry.Add("aten::add.Tensor", Returning({"S(-1), S(-1) -> S(-1)"})).ok());
  absl::StatusOr<std::vector<Rule>> rules =
      registry.Query(c10::OperatorName("aten::add", "Tensor"), TwoInputs());
  ASSERT_TRUE(rules.ok()) << rules.status();
  ASSERT_EQ(rules->size(), 1u);
  EXPECT_EQ(RuleToString((*rules)[0]), "S(1), S(1) -> S(1)");
}

TEST(RegistryTest, QueryRejectsContractViolations) {
  struct Case {
    const char* rule;
    const char* message;
  };
  for (const Case& c : {Case{"S(0) -> S(0)", "has 1 input placement but the overload has 2 tensor inputs"},
                        Case{"S(0), S(0) -> S(0), S(0)", "has 2 output placements but the overload has 1 tensor output"},
                        Case{"S(2), R -> S(0)", "has 2 dims"},
                        Case{"R, R -> R", "implicit all-Replicate"}}) {
    StrategyRegistry registry;
    ASSERT_TRUE(registry.Add("aten::add.Tensor", Returning({c.rule})).ok());
    absl::StatusOr<std::vector<Rule>> rules =
        registry.Query(c10::OperatorName("aten::add", "Tensor"), TwoInputs());
    ASSERT_FALSE(rules.ok()) << c.rule;
    EXPECT_EQ(rules.status().code(), absl::StatusCode::kFailedPrecondition);
    EXPECT_THAT(std::string(rules.status().message()), HasSubstr(c.message)) << c.rule;
  }
}

TEST(RegistryTest, QueryRejectsDuplicateRulesAfterNormalisation) {
  StrategyRegistry registry;
  ASSERT_TRUE(registry.Add("aten::add.Tensor",
                           Returning({"S(1), S(1) -> S(1)", "S(-1), S(-1) -> S(-1)"})).ok());
  EXPECT_THAT(std::string(registry.Query(c10::OperatorName("aten::add", "Tensor"), TwoInputs())
                              .status()
                              .message()),
              HasSubstr("listed twice"));
}

TEST(RegistryTest, AThrowingStrategyIsAnErrorNotACrash) {
  StrategyRegistry registry;
  ASSERT_TRUE(registry
                  .Add("aten::add.Tensor",
                       [](const OpArgs&) -> absl::StatusOr<std::vector<Rule>> {
                         throw std::runtime_error("boom");
                       })
                  .ok());
  absl::StatusOr<std::vector<Rule>> rules =
      registry.Query(c10::OperatorName("aten::add", "Tensor"), TwoInputs());
  EXPECT_EQ(rules.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(rules.status().message()), HasSubstr("threw: boom"));
}

TEST(RegistryTest, QueryWithoutStrategyIsNotFound) {
  StrategyRegistry registry;
  EXPECT_EQ(registry.Query(c10::OperatorName("aten::add", "Tensor"), TwoInputs()).status().code(),
            absl::StatusCode::kNotFound);
}

TEST(RegistryTest, InPlaceAndOutVariantsDeriveFromTheFunctional) {
  StrategyRegistry registry;
  ASSERT_TRUE(registry
                  .Add("aten::add.Tensor", Returning({"S(0), S(0) -> S(0)", "R, S(-1) -> S(1)",
                                                      "S(1), S(1) -> S(1)", "P(sum), P(sum) -> P(sum)",
                                                      "R, P(sum) -> P(sum)"}))
                  .ok());
  ASSERT_TRUE(registry.Check().ok()) << registry.Check();
  const c10::OperatorName inplace("aten::add_", "Tensor"), out("aten::add", "out");
  EXPECT_TRUE(registry.Contains(inplace));
  EXPECT_TRUE(registry.Contains(out));
  EXPECT_THAT(registry.Overloads(),
              ::testing::ElementsAre(c10::OperatorName("aten::add", "Tensor"), out, inplace));
  auto texts = [&](const c10::OperatorName& name) {
    std::vector<std::string> t;
    absl::StatusOr<std::vector<Rule>> rules = registry.Query(name, TwoInputs());
    EXPECT_TRUE(rules.ok()) << rules.status();
    for (const Rule& r : rules.value_or(std::vector<Rule>{})) t.push_back(RuleToString(r));
    return t;
  };
  // In place: self's placement is the output's (after normalising S(-1)).
  EXPECT_THAT(texts(inplace), ::testing::ElementsAre("S(0), S(0) -> S(0)", "S(1), S(1) -> S(1)",
                                                     "P(sum), P(sum) -> P(sum)"));
  // out=: unchanged.
  EXPECT_THAT(texts(out), ::testing::SizeIs(5));
}

TEST(RegistryTest, RegisteringADerivedVariantIsAContractError) {
  StrategyRegistry registry;
  ASSERT_TRUE(registry.Add("aten::mul.Tensor", Returning({})).ok());
  ASSERT_TRUE(registry.Add("aten::mul_.Tensor", Returning({})).ok());
  EXPECT_THAT(std::string(registry.Check().message()),
              HasSubstr("'aten::mul_.Tensor' is a variant of 'aten::mul.Tensor'"));
  // A variant whose functional has no strategy registers on its own.
  StrategyRegistry alone;
  ASSERT_TRUE(alone.Add("aten::div_.Tensor", Returning({})).ok());
  EXPECT_TRUE(alone.Check().ok());
  EXPECT_FALSE(alone.Contains(c10::OperatorName("aten::div", "Tensor")));
}

}  // namespace
}  // namespace shrt
