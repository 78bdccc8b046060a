#include "shrt/ops/op_lookup.h"

#include <algorithm>
#include <memory>

#include "ATen/core/dispatch/Dispatcher.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shrt/ops/overload_name.h"
#include "torch/library.h"

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

std::vector<std::string> Names(const std::vector<c10::OperatorName>& ops) {
  std::vector<std::string> out;
  for (const c10::OperatorName& op : ops) out.push_back(OverloadToString(op));
  return out;
}

TEST(OverloadsNamedTest, MatchesTheDispatchersOperators) {
  std::vector<std::string> want;
  for (const c10::OperatorName& op : c10::Dispatcher::singleton().getAllOpNames()) {
    if (op.name == "aten::add" && c10::Dispatcher::singleton().findSchema(op).has_value()) {
      want.push_back(OverloadToString(op));
    }
  }
  std::sort(want.begin(), want.end());
  std::vector<std::string> got = Names(OverloadsNamed("aten::add"));
  EXPECT_THAT(got, ::testing::IsSupersetOf({"aten::add.Tensor", "aten::add.Scalar", "aten::add.out"}));
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, want);
  EXPECT_TRUE(OverloadsNamed("aten::no_such_operator").empty());
}

// A library registered after the index was built is in it, and leaves it
// when unregistered.
TEST(OverloadsNamedTest, FollowsLaterRegistrations) {
  ASSERT_FALSE(OverloadsNamed("aten::relu").empty());  // the index exists
  auto lib = std::make_unique<torch::Library>(torch::Library::DEF, "shrt_lookup_test", std::nullopt,
                                              __FILE__, __LINE__);
  lib->def("late.two(Tensor x) -> Tensor");
  lib->def("late(Tensor x) -> Tensor");
  EXPECT_EQ(Names(OverloadsNamed("shrt_lookup_test::late")),
            (std::vector<std::string>{"shrt_lookup_test::late", "shrt_lookup_test::late.two"}));
  lib.reset();
  EXPECT_TRUE(OverloadsNamed("shrt_lookup_test::late").empty());
}

TEST(SchemaArityTest, UnknownOverloadIsNotFound) {
  absl::StatusOr<RuleArity> a = SchemaArity(c10::OperatorName("aten::reluu", ""));
  EXPECT_EQ(a.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(a.status().message()), ::testing::HasSubstr("did you mean aten::relu"));
}

}  // namespace
}  // namespace shrt
