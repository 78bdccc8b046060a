#include "shrt/report/coverage.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shrt/ops/overload_name.h"

namespace shrt {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

c10::OperatorName Op(const char* text) { return *ParseOverloadName(text); }

std::vector<DispatcherOverload> Checkable(std::initializer_list<const char*> names) {
  std::vector<DispatcherOverload> out;
  for (const char* n : names) out.push_back({Op(n), UNCHECKABLE_CATEGORY_UNSPECIFIED});
  return out;
}

TEST(CoverageTest, CountsByNamespaceAndFamilyAndListsGaps) {
  const std::vector<DispatcherOverload> dispatcher =
      Checkable({"aten::add.Tensor", "aten::mul.Tensor", "aten::relu", "aten::sin",
                 "shrt_example::scaled_add", "prim::Constant"});
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
  // Not checked and checkable: a spec or a strategy alone does not check.
  EXPECT_THAT(r.uncovered(), ElementsAre("aten::mul.Tensor", "aten::sin", "prim::Constant",
                                         "shrt_example::scaled_add"));
  EXPECT_EQ(aten.not_yet_covered(), 2);
  EXPECT_EQ(aten.not_checkable(), 0);
}

TEST(CoverageTest, NotCheckableOverloadsCountByCategoryAndAreNotUncovered) {
  const std::vector<DispatcherOverload> dispatcher = {
      {Op("aten::relu"), UNCHECKABLE_CATEGORY_UNSPECIFIED},
      {Op("aten::sin"), UNCHECKABLE_CATEGORY_UNSPECIFIED},
      {Op("aten::bernoulli"), RANDOM},
      {Op("aten::rand_like"), RANDOM},
      {Op("aten::arange"), FACTORY},
      {Op("aten::_foreach_add_.List"), UNCHECKABLE_CATEGORY_UNSPECIFIED},
      {Op("aten::nonzero"), DATA_DEPENDENT_SHAPE},
      // Checked wins over a category (a spec for an op the facts exclude).
      {Op("aten::exp"), METADATA_QUERY},
  };
  const std::vector<c10::OperatorName> strategies = {Op("aten::relu"), Op("aten::exp")};
  const std::vector<SpecEntry> specs = {{Op("aten::relu"), "unary"}, {Op("aten::exp"), "unary"}};
  const CoverageReport r = ComputeCoverage(dispatcher, strategies, specs, "aten", true);
  ASSERT_EQ(r.namespaces_size(), 1);
  EXPECT_EQ(r.namespaces(0).overloads(), 8);
  EXPECT_EQ(r.namespaces(0).checked(), 2);
  EXPECT_EQ(r.namespaces(0).not_checkable(), 4);
  EXPECT_EQ(r.namespaces(0).not_yet_covered(), 2);
  ASSERT_EQ(r.not_checkable_size(), 3);
  EXPECT_EQ(r.not_checkable(0).category(), "random");  // largest first
  EXPECT_EQ(r.not_checkable(0).overloads(), 2);
  EXPECT_THAT(r.uncovered(), ElementsAre("aten::_foreach_add_.List", "aten::sin"));
  ASSERT_EQ(r.uncovered_families_size(), 2);
  EXPECT_EQ(r.uncovered_families(0).family(), "foreach");
  EXPECT_EQ(r.uncovered_families(1).family(), "other");
  EXPECT_THAT(r.uncovered_families(1).overloads(), ElementsAre("aten::sin"));
}

TEST(CoverageTest, FamilyOfNameTakesTheFirstMatchingPattern) {
  EXPECT_EQ(FamilyOfName(Op("aten::_foreach_norm.Scalar")), "foreach");
  EXPECT_EQ(FamilyOfName(Op("aten::native_layer_norm_backward")), "backward");
  EXPECT_EQ(FamilyOfName(Op("aten::permute_copy")), "view copies");
  EXPECT_EQ(FamilyOfName(Op("aten::special_erfcx")), "special functions");
  EXPECT_EQ(FamilyOfName(Op("aten::nll_loss2d_forward")), "losses");
  EXPECT_EQ(FamilyOfName(Op("aten::max_pool2d_with_indices")), "pooling");
  EXPECT_EQ(FamilyOfName(Op("aten::roll")), "other");
}

TEST(CoverageTest, NamespaceFilterKeepsOneNamespaceAndUncoveredIsOptIn) {
  const std::vector<DispatcherOverload> dispatcher = Checkable({"aten::sin", "prim::Constant"});
  const CoverageReport r = ComputeCoverage(dispatcher, {}, {}, "aten", false);
  ASSERT_EQ(r.namespaces_size(), 1);
  EXPECT_EQ(r.namespaces(0).name(), "aten");
  EXPECT_THAT(r.uncovered(), IsEmpty());
  EXPECT_THAT(ComputeCoverage(dispatcher, {}, {}, "aten", true).uncovered(), ElementsAre("aten::sin"));
}

}  // namespace
}  // namespace shrt
