#include "shrt/coverage.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shrt/overload_name.h"

namespace shrt {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

c10::OperatorName Op(const char* text) { return *ParseOverloadName(text); }

TEST(CoverageTest, CountsByNamespaceAndFamilyAndListsGaps) {
  const std::vector<c10::OperatorName> dispatcher = {
      Op("aten::add.Tensor"), Op("aten::mul.Tensor"), Op("aten::relu"), Op("aten::sin"),
      Op("shrt_example::scaled_add"), Op("prim::Constant")};
  const std::vector<c10::OperatorName> strategies = {Op("aten::add.Tensor"), Op("aten::relu"),
                                                     Op("shrt_example::scaled_add")};
  const std::vector<SpecEntry> specs = {{Op("aten::add.Tensor"), "binary"},
                                        {Op("aten::mul.Tensor"), "binary"},
                                        {Op("aten::relu"), "unary"}};
  const CoverageReport r = ComputeCoverage(dispatcher, strategies, specs, "", true);

  ASSERT_EQ(r.namespaces_size(), 3);
  const CoverageGroup& aten = r.namespaces(0);
  EXPECT_EQ(aten.name(), "aten");
  EXPECT_EQ(aten.overloads(), 4);
  EXPECT_EQ(aten.with_spec(), 3);
  EXPECT_EQ(aten.with_strategy(), 2);
  EXPECT_EQ(aten.checked(), 2);
  EXPECT_EQ(r.namespaces(1).name(), "prim");
  EXPECT_EQ(r.namespaces(1).checked(), 0);
  EXPECT_EQ(r.namespaces(2).name(), "shrt_example");
  EXPECT_EQ(r.namespaces(2).with_strategy(), 1);

  ASSERT_EQ(r.families_size(), 2);
  EXPECT_EQ(r.families(0).name(), "binary");
  EXPECT_EQ(r.families(0).overloads(), 2);
  EXPECT_EQ(r.families(0).checked(), 1);
  EXPECT_EQ(r.families(1).name(), "unary");
  EXPECT_EQ(r.families(1).checked(), 1);

  EXPECT_THAT(r.strategy_without_spec(), ElementsAre("shrt_example::scaled_add"));
  EXPECT_THAT(r.spec_without_strategy(), ElementsAre("aten::mul.Tensor"));
  EXPECT_THAT(r.uncovered(), ElementsAre("aten::sin", "prim::Constant"));
}

TEST(CoverageTest, NamespaceFilterKeepsOneNamespaceAndUncoveredIsOptIn) {
  const std::vector<c10::OperatorName> dispatcher = {Op("aten::sin"), Op("prim::Constant")};
  const CoverageReport r = ComputeCoverage(dispatcher, {}, {}, "aten", false);
  ASSERT_EQ(r.namespaces_size(), 1);
  EXPECT_EQ(r.namespaces(0).name(), "aten");
  EXPECT_THAT(r.uncovered(), IsEmpty());
  EXPECT_THAT(ComputeCoverage(dispatcher, {}, {}, "aten", true).uncovered(), ElementsAre("aten::sin"));
}

}  // namespace
}  // namespace shrt
