#include "tools/dtensor/unjudged.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace shrt {
namespace {

using ::testing::ElementsAre;
using ::testing::FieldsAre;

TEST(UnjudgedRegistrationsTest, EachWithTheFirstReasonThatApplies) {
  absl::StatusOr<NotCheckableFile> file = NotCheckableFile::Parse(
      R"(entry { op: "aten::nonzero" category: DATA_DEPENDENT_SHAPE reason: "one row per nonzero element" })",
      "nc.textproto");
  ASSERT_TRUE(file.ok()) << file.status();
  const std::map<std::string, std::string> registered = {
      {"aten::add.Tensor", "single_dim"},
      {"prims::xor_sum", "single_dim"},
      {"aten::bernoulli", "single_dim"},
      {"aten::_scaled_dot_product_flash_attention", "op_strategy"},
      {"aten::nonzero", "op_strategy"},
      {"aten::_fused_adam.out", "single_dim"},
      {"aten::_fused_adam.tensor_lr", "single_dim"},
      {"aten::_fused_adamw.tensor_lr", "single_dim"},
  };
  const std::vector<UnjudgedRegistration> got = UnjudgedRegistrations(
      registered, {"aten::add.Tensor"}, {"aten::_fused_adamw.tensor_lr"},
      {{"aten::_fused_adam.out", "one out= list for five"}}, *file);
  EXPECT_THAT(got,
              ElementsAre(FieldsAre("aten::_fused_adam.out", "excluded by its spec: one out= list for five"),
                          FieldsAre("aten::_fused_adam.tensor_lr", "no spec"),
                          FieldsAre("aten::_fused_adamw.tensor_lr",
                                    "no sample asked: each has more input tuples than are asked "
                                    "per sample"),
                          FieldsAre("aten::_scaled_dot_product_flash_attention", "backend only"),
                          FieldsAre("aten::bernoulli", "random"),
                          FieldsAre("aten::nonzero",
                                    "data dependent shape: one row per nonzero element"),
                          FieldsAre("prims::xor_sum",
                                    "not in libtorch's dispatcher (registered from Python)")));
}

TEST(UnjudgedLinesTest, MostFrequentReasonFirst) {
  EXPECT_THAT(UnjudgedLines({{"aten::a", "random"}, {"aten::b", "no spec"}, {"aten::c", "no spec"}}),
              ElementsAre("no spec (2): aten::b, aten::c", "random (1): aten::a"));
}

}  // namespace
}  // namespace shrt
