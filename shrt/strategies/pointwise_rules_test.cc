#include "shrt/strategies/pointwise_rules.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shrt/ops/overload_name.h"
#include "shrt/strategies/registry.h"
#include "shrt/strategies/test_util.h"

namespace shrt {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// The rules of `overload` in `registry` for `args`, as text.
std::vector<std::string> Query(const StrategyRegistry& registry, const char* overload,
                               OpArgs args) {
  absl::StatusOr<c10::OperatorName> name = ParseOverloadName(overload);
  EXPECT_TRUE(name.ok()) << name.status();
  if (!name.ok()) return {};
  absl::StatusOr<std::vector<Rule>> rules = registry.Query(*name, args);
  EXPECT_TRUE(rules.ok()) << rules.status();
  return rules.ok() ? Texts(*rules) : std::vector<std::string>{};
}

// One float input of `sizes`, one output of `sizes` and dtype `out`.
OpArgs Unary(std::vector<int64_t> sizes, c10::ScalarType out = c10::ScalarType::Float,
             std::vector<OpArg> scalars = {}) {
  return OpArgs(std::move(scalars), {Meta(sizes)}, {Meta(sizes, out)});
}

TEST(ParseRulesTest, ParsesInOrder) {
  StrategyRegistry registry;
  EXPECT_THAT(Texts(ParseRules({"P(sum), R -> P(sum)", "P(max)->P(min)"}, registry)),
              ElementsAre("P(sum), R -> P(sum)", "P(max) -> P(min)"));
  EXPECT_TRUE(registry.Check().ok()) << registry.Check();
}

TEST(ParseRulesTest, ATypoIsRecordedForCheck) {
  StrategyRegistry registry;
  EXPECT_THAT(Texts(ParseRules({"P(max) -> P(mx)", "P(min) -> P(min)"}, registry)),
              ElementsAre("P(min) -> P(min)"));
  const absl::Status status = registry.Check();
  EXPECT_FALSE(status.ok());
  EXPECT_THAT(std::string(status.message()), HasSubstr("'P(max) -> P(mx)'"));
}

TEST(ParseRulesTest, SharedListsParse) {
  EXPECT_THAT(Texts(IdentityRules()),
              ElementsAre("P(sum) -> P(sum)", "P(avg) -> P(avg)", "P(max) -> P(max)",
                          "P(min) -> P(min)", "P(product) -> P(product)"));
  EXPECT_THAT(Texts(TwoTensorAffineRules(1, -2)),
              ElementsAre("P(sum), P(sum) -> P(sum)", "P(avg), P(avg) -> P(avg)",
                          "P(avg), R -> P(avg)", "R, P(avg) -> P(avg)", "P(max), R -> P(max)",
                          "P(min), R -> P(min)", "R, P(max) -> P(min)", "R, P(min) -> P(max)"));
}

TEST(RegisterPointwiseOpsTest, FixedRowGivesShardRulesAndApplicablePartials) {
  StrategyRegistry registry;
  RegisterPointwiseOps({{"aten::relu", IncreasingRules()}}, registry);
  EXPECT_THAT(Query(registry, "aten::relu", Unary({4, 6})),
              ElementsAre("S(0) -> S(0)", "S(1) -> S(1)", "P(max) -> P(max)",
                          "P(min) -> P(min)"));
  // A bool output has no Partial placement.
  EXPECT_THAT(Query(registry, "aten::relu", Unary({4}, c10::ScalarType::Bool)),
              ElementsAre("S(0) -> S(0)"));
  EXPECT_TRUE(registry.Check().ok()) << registry.Check();
}

Rules ByScalar(const OpArgs& args) {
  return args.GetDouble("other").value_or(0) > 0 ? IncreasingRules() : DecreasingRules();
}

TEST(RegisterPointwiseOpsTest, ArgDependentRowReadsTheArgs) {
  StrategyRegistry registry;
  RegisterPointwiseOps({{"aten::mul.Scalar", ByScalar}}, registry);
  EXPECT_THAT(Query(registry, "aten::mul.Scalar", Unary({4}, c10::ScalarType::Float,
                                                        {{"other", 2.0}})),
              ElementsAre("S(0) -> S(0)", "P(max) -> P(max)", "P(min) -> P(min)"));
  EXPECT_THAT(Query(registry, "aten::mul.Scalar", Unary({4}, c10::ScalarType::Float,
                                                        {{"other", -2.0}})),
              ElementsAre("S(0) -> S(0)", "P(max) -> P(min)", "P(min) -> P(max)"));
}

TEST(RegisterPointwiseOpsTest, InPlaceVariantKeepsSelfsPlacement) {
  StrategyRegistry registry;
  RegisterPointwiseOps({{"aten::neg", Concat({LinearRules(), DecreasingRules()})}}, registry);
  EXPECT_THAT(Query(registry, "aten::neg_", Unary({4})),
              ElementsAre("S(0) -> S(0)", "P(sum) -> P(sum)", "P(avg) -> P(avg)"));
  EXPECT_THAT(Query(registry, "aten::neg.out", Unary({4})),
              ElementsAre("S(0) -> S(0)", "P(sum) -> P(sum)", "P(avg) -> P(avg)",
                          "P(max) -> P(min)", "P(min) -> P(max)"));
}

TEST(RegisterPointwiseOpsTest, ATypoInARowFailsCheck) {
  StrategyRegistry registry;
  RegisterPointwiseOps({{"aten::relu", ParseRules({"P(max) -> P(max", "P(min) -> P(min)"},
                                                  registry)}},
                       registry);
  EXPECT_THAT(Query(registry, "aten::relu", Unary({4})),
              ElementsAre("S(0) -> S(0)", "P(min) -> P(min)"));
  EXPECT_THAT(std::string(registry.Check().message()), HasSubstr("'P(max) -> P(max'"));
}

TEST(PointwiseRulesTest, TextFormParsesPerCall) {
  absl::StatusOr<Rules> rules = PointwiseRules(Unary({4}), {"P(sum) -> P(sum)"});
  ASSERT_TRUE(rules.ok()) << rules.status();
  EXPECT_THAT(Texts(*rules), ElementsAre("S(0) -> S(0)", "P(sum) -> P(sum)"));
  EXPECT_FALSE(PointwiseRules(Unary({4}), {"P(sum) ->> P(sum)"}).ok());
  EXPECT_THAT(Texts(PointwiseShardRules(OpArgs({}, {Meta({4})}, {}))), IsEmpty());
}

// clamp with crossed bounds is the constant max: its Partial rules are a
// constant's, and R only where no nan can stay on one rank.
TEST(ClampScalarRulesTest, CrossedBoundsAreAConstant) {
  EXPECT_THAT(Texts(ClampScalarRules(-1.0, 1.0, false)),
              ElementsAre("P(max) -> P(max)", "P(min) -> P(min)"));
  EXPECT_THAT(Texts(ClampScalarRules(0.5, std::nullopt, false)),
              ElementsAre("P(max) -> P(max)", "P(min) -> P(min)"));
  const std::vector<std::string> crossed = Texts(ClampScalarRules(0.5, -0.5, false));
  EXPECT_EQ(crossed.size(), 15u);  // five reductions in, avg/max/min out
  EXPECT_THAT(crossed, ::testing::Contains("P(sum) -> P(max)"));
  EXPECT_THAT(crossed, ::testing::Not(::testing::Contains("P(sum) -> R")));
  EXPECT_THAT(crossed, ::testing::Not(::testing::Contains("P(sum) -> P(sum)")));
  const std::vector<std::string> to_zero = Texts(ClampScalarRules(1.0, 0.0, true));
  EXPECT_THAT(to_zero, ::testing::Contains("P(sum) -> R"));
  EXPECT_THAT(to_zero, ::testing::Contains("P(max) -> P(sum)"));      // 0 keeps sum
  EXPECT_THAT(to_zero, ::testing::Contains("P(avg) -> P(product)"));  // and product
}

}  // namespace
}  // namespace shrt
