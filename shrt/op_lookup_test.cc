#include "shrt/op_lookup.h"

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shrt/overload_name.h"

namespace shrt {
namespace {

// "min_inputs..max_inputs -> min_outputs..max_outputs", * for kAny.
std::string ArityOf(const char* overload) {
  absl::StatusOr<RuleArity> a = SchemaArity(*ParseOverloadName(overload));
  if (!a.ok()) return std::string(a.status().message());
  auto bound = [](int n) { return n == RuleArity::kAny ? std::string("*") : std::to_string(n); };
  return absl::StrCat(a->min_inputs, "..", bound(a->max_inputs), " -> ", a->min_outputs, "..",
                      bound(a->max_outputs));
}

TEST(SchemaArityTest, CountsTensorArgumentsAndReturns) {
  EXPECT_EQ(ArityOf("aten::relu"), "1..1 -> 1..1");
  EXPECT_EQ(ArityOf("aten::add.Tensor"), "2..2 -> 1..1");
  // In place, self is an input; out= arguments are not.
  EXPECT_EQ(ArityOf("aten::add_.Tensor"), "2..2 -> 1..1");
  EXPECT_EQ(ArityOf("aten::add.out"), "2..2 -> 1..1");
  EXPECT_EQ(ArityOf("aten::max.dim_max"), "1..1 -> 2..2");
  // Tensor? weight and bias; three returns.
  EXPECT_EQ(ArityOf("aten::native_layer_norm"), "1..3 -> 3..3");
  // Tensor[] and Tensor?[] arguments, a Tensor[] return.
  EXPECT_EQ(ArityOf("aten::cat"), "0..* -> 1..1");
  EXPECT_EQ(ArityOf("aten::index.Tensor"), "1..* -> 1..1");
  EXPECT_EQ(ArityOf("aten::split.Tensor"), "1..1 -> 0..*");
}

TEST(SchemaArityTest, UnknownOverloadIsNotFound) {
  absl::StatusOr<RuleArity> a = SchemaArity(c10::OperatorName("aten::reluu", ""));
  EXPECT_EQ(a.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(a.status().message()), ::testing::HasSubstr("did you mean aten::relu"));
}

}  // namespace
}  // namespace shrt
