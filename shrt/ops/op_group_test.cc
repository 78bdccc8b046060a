#include "shrt/ops/op_group.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shrt/ops/overload_name.h"

namespace shrt {
namespace {

std::vector<std::string> GroupOf(const char* text) {
  absl::StatusOr<OpGroup> group = FindOpGroup(*ParseOverloadName(text));
  EXPECT_TRUE(group.ok()) << group.status();
  std::vector<std::string> out;
  for (const c10::OperatorName& o : group->Overloads()) out.push_back(OverloadToString(o));
  return out;
}

TEST(OpGroupTest, FindsTorchgensGroupsFromSchemas) {
  EXPECT_THAT(GroupOf("aten::add.Tensor"),
              ::testing::ElementsAre("aten::add.Tensor", "aten::add_.Tensor", "aten::add.out"));
  // The in-place overload name may differ (matched by signature).
  EXPECT_THAT(GroupOf("aten::pow.Tensor_Tensor"),
              ::testing::ElementsAre("aten::pow.Tensor_Tensor", "aten::pow_.Tensor",
                                     "aten::pow.Tensor_Tensor_out"));
  EXPECT_THAT(FindOpGroup(*ParseOverloadName("aten::max.dim"))->out_arguments,
              ::testing::ElementsAre("max", "max_values"));
  EXPECT_THAT(GroupOf("aten::sum.dim_IntList"),
              ::testing::ElementsAre("aten::sum.dim_IntList", "aten::sum.IntList_out"));
  // No in-place or out= variant: a group of one.
  EXPECT_THAT(GroupOf("aten::view"), ::testing::ElementsAre("aten::view"));
  // Not functional: a group of one.
  EXPECT_THAT(GroupOf("aten::add_.Tensor"), ::testing::ElementsAre("aten::add_.Tensor"));
}

TEST(OpGroupTest, KindsAndFunctionalOf) {
  EXPECT_EQ(*KindOf(*ParseOverloadName("aten::relu")), VariantKind::kFunctional);
  EXPECT_EQ(*KindOf(*ParseOverloadName("aten::relu_")), VariantKind::kInPlace);
  EXPECT_EQ(*KindOf(*ParseOverloadName("aten::relu.out")), VariantKind::kOut);
  EXPECT_EQ(OverloadToString(**FunctionalOf(*ParseOverloadName("aten::add.out"))),
            "aten::add.Tensor");
  EXPECT_EQ(OverloadToString(**FunctionalOf(*ParseOverloadName("aten::pow_.Tensor"))),
            "aten::pow.Tensor_Tensor");
  EXPECT_FALSE(FunctionalOf(*ParseOverloadName("aten::add.Tensor"))->has_value());
  EXPECT_EQ(FindOpGroup(c10::OperatorName("aten::nope", "")).status().code(),
            absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace shrt
