#include "tools/plugin_registration.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shrt/ops/op_args.h"
#include "shrt/strategies/registry.h"
#include "shrt/vocab/placement.h"

namespace shrt {
namespace {

using ::testing::HasSubstr;

// Two [6, 4] inputs, one output, scale=2.5.
OpArgs TwoMatrices() {
  TensorMeta m;
  m.sizes = {6, 4};
  m.strides = {4, 1};
  return OpArgs({{"self", m}, {"other", m}, {"scale", 2.5}}, {m, m}, {m});
}

std::vector<std::string> ShardEveryDim(const plugin::Args& args) {
  std::vector<std::string> rules = {plugin::Rule({plugin::P(), plugin::R()}, {plugin::P()})};
  for (int64_t d = 0; d < args.input_ndim(0); ++d) {
    rules.push_back(plugin::Rule({plugin::S(d), plugin::S(d)}, {plugin::S(d)}));
  }
  if (args.GetDouble("scale") != 2.5 || args.num_outputs() != 1 || !args.input_sizes(7).empty()) {
    rules.push_back("the arguments are not what the sample gave");
  }
  return rules;
}

std::vector<std::string> Malformed(const plugin::Args&) { return {"S(0), S(0) => S(0)"}; }

std::vector<std::string> Throws(const plugin::Args&) { throw std::runtime_error("no rules today"); }

TEST(PluginRegistrationTest, RuleTextsParseAndSeeTheSample) {
  absl::StatusOr<std::vector<Rule>> rules = FromPlugin(&ShardEveryDim)(TwoMatrices());
  ASSERT_TRUE(rules.ok()) << rules.status();
  std::vector<std::string> texts;
  for (const Rule& r : *rules) texts.push_back(RuleToString(r));
  EXPECT_EQ(texts, (std::vector<std::string>{"P(sum), R -> P(sum)", "S(0), S(0) -> S(0)",
                                             "S(1), S(1) -> S(1)"}));
}

TEST(PluginRegistrationTest, AMalformedRuleIsAnErrorNamingIt) {
  absl::StatusOr<std::vector<Rule>> rules = FromPlugin(&Malformed)(TwoMatrices());
  ASSERT_FALSE(rules.ok());
  EXPECT_EQ(rules.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(rules.status().message(), HasSubstr("rule 'S(0), S(0) => S(0)'"));
}

TEST(PluginRegistrationTest, AnExceptionIsAnError) {
  absl::StatusOr<std::vector<Rule>> rules = FromPlugin(&Throws)(TwoMatrices());
  ASSERT_FALSE(rules.ok());
  EXPECT_THAT(rules.status().message(), HasSubstr("the strategy threw: no rules today"));
}

TEST(PluginRegistrationTest, RegistrationsAreCountedAndErrorsDeferred) {
  const int before = PluginRegistrations();
  shrt_plugin_register_strategy_v1(nullptr, &ShardEveryDim);
  EXPECT_EQ(PluginRegistrations(), before + 1);
  absl::Status check = StrategyRegistry::Global().Check();
  EXPECT_THAT(check.message(), HasSubstr("null overload name or strategy"));
}

}  // namespace
}  // namespace shrt
