// A sample's OpArgs as `validate --dtensor` request arguments: every
// argument kind, out= arguments from the outputs, and the errors.
#include "tools/dtensor/request.h"

#include <cmath>

#include "ATen/core/operator_name.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"

namespace shrt {
namespace {

using ::testing::HasSubstr;

std::string Json(const google::protobuf::Struct& s) {
  std::string json;
  google::protobuf::util::JsonPrintOptions options;
  EXPECT_TRUE(google::protobuf::util::MessageToJsonString(s, &json, options).ok());
  return json;
}

TensorMeta Meta(std::vector<int64_t> sizes, std::vector<int64_t> strides, c10::ScalarType dtype) {
  return {std::move(sizes), std::move(strides), dtype};
}

// Whether `got` holds the fields of `json` (map order aside: protobuf's
// JSON printer writes a Struct's fields in no fixed order).
::testing::AssertionResult Same(const google::protobuf::Struct& got, const std::string& json) {
  google::protobuf::Struct want;
  if (!google::protobuf::util::JsonStringToMessage(json, &want).ok()) {
    return ::testing::AssertionFailure() << "bad JSON: " << json;
  }
  if (google::protobuf::util::MessageDifferencer::Equals(got, want)) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << Json(got) << "\n  is not\n" << json;
}

TEST(TorchDtypeNameTest, NamesAsTorchDoes) {
  EXPECT_EQ(*TorchDtypeName(c10::ScalarType::Float), "float32");
  EXPECT_EQ(*TorchDtypeName(c10::ScalarType::Long), "int64");
  EXPECT_EQ(*TorchDtypeName(c10::ScalarType::Bool), "bool");
  EXPECT_EQ(*TorchDtypeName(c10::ScalarType::ComplexFloat), "complex64");
  EXPECT_EQ(*TorchDtypeName(c10::ScalarType::BFloat16), "bfloat16");
  EXPECT_THAT(TorchDtypeName(c10::ScalarType::QInt8).status().message(),
              HasSubstr("QInt8 has no torch name"));
}

TEST(RequestArgsTest, EveryArgumentKindByName) {
  const OpArgs args({{"self", Meta({7, 5}, {5, 1}, c10::ScalarType::Float)},
                     {"dim", std::vector<int64_t>{0, -1}},
                     {"keepdim", true},
                     {"dtype", c10::ScalarType::Double}},
                    {Meta({7, 5}, {5, 1}, c10::ScalarType::Float)},
                    {Meta({}, {}, c10::ScalarType::Double)});
  absl::StatusOr<google::protobuf::Struct> got =
      RequestArgs(c10::OperatorName("aten::sum", "dim_IntList"), args);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_TRUE(Same(*got, R"({
      "self": {"tensor": {"shape": [7, 5], "stride": [5, 1], "dtype": "float32"}},
      "dim": [0, -1], "keepdim": true, "dtype": {"dtype": "float64"}})"));
}

TEST(RequestArgsTest, NoneScalarsAndTensorLists) {
  const TensorMeta a = Meta({3}, {1}, c10::ScalarType::Long);
  const OpArgs args({{"tensors", std::vector<TensorMeta>{a, a}}, {"dim", int64_t{0}}}, {a, a},
                    {Meta({6}, {1}, c10::ScalarType::Long)});
  absl::StatusOr<google::protobuf::Struct> got =
      RequestArgs(c10::OperatorName("aten::cat", ""), args);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_TRUE(Same(*got, R"({"tensors": {"tensors": [
      {"shape": [3], "stride": [1], "dtype": "int64"},
      {"shape": [3], "stride": [1], "dtype": "int64"}]}, "dim": 0})"));

  const TensorMeta f = Meta({3}, {1}, c10::ScalarType::Float);
  absl::StatusOr<google::protobuf::Struct> add = RequestArgs(
      c10::OperatorName("aten::add", "Tensor"), OpArgs({{"self", f}, {"other", f}, {"alpha", 2.5}}, {f, f}, {f}));
  ASSERT_TRUE(add.ok()) << add.status();
  EXPECT_EQ(add->fields().at("alpha").number_value(), 2.5);
  absl::StatusOr<google::protobuf::Struct> sum =
      RequestArgs(c10::OperatorName("aten::sum", "dim_IntList"),
                  OpArgs({{"self", f}, {"dim", std::monostate{}}}, {f}, {Meta({}, {}, c10::ScalarType::Float)}));
  ASSERT_TRUE(sum.ok()) << sum.status();
  EXPECT_TRUE(sum->fields().at("dim").has_null_value());

  // An empty list (the fused optimizers' max_exp_avg_sqs without amsgrad)
  // is an empty list, not a field without a value.
  absl::StatusOr<google::protobuf::Struct> cat =
      RequestArgs(c10::OperatorName("aten::cat", ""),
                  OpArgs({{"tensors", std::vector<TensorMeta>{}}, {"dim", int64_t{0}}}, {}, {a}));
  ASSERT_TRUE(cat.ok()) << cat.status();
  EXPECT_TRUE(Same(*cat, R"({"tensors": {"tensors": []}, "dim": 0})"));
}

// JSON has no inf or nan: protobuf would print the string "Infinity",
// which the operator takes for a str argument.
TEST(RequestArgsTest, NonFiniteFloatsAreTagged) {
  const TensorMeta f = Meta({7, 5}, {5, 1}, c10::ScalarType::Float);
  for (auto [ord, text] : {std::pair{INFINITY, "inf"}, std::pair{-INFINITY, "-inf"},
                           std::pair{NAN, "nan"}}) {
    absl::StatusOr<google::protobuf::Struct> got =
        RequestArgs(c10::OperatorName("aten::linalg_vector_norm", ""),
                    OpArgs({{"self", f}, {"ord", double{ord}}}, {f}, {Meta({}, {}, c10::ScalarType::Float)}));
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(got->fields().at("ord").struct_value().fields().at("float").string_value(), text);
  }
}

TEST(RequestArgsTest, OutArgumentsAreTheOutputs) {
  const TensorMeta self = Meta({7, 5}, {5, 1}, c10::ScalarType::Float);
  const TensorMeta mat2 = Meta({5, 3}, {3, 1}, c10::ScalarType::Float);
  const TensorMeta out = Meta({7, 3}, {3, 1}, c10::ScalarType::Float);
  absl::StatusOr<google::protobuf::Struct> got = RequestArgs(
      c10::OperatorName("aten::mm", "out"), OpArgs({{"self", self}, {"mat2", mat2}}, {self, mat2}, {out}));
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_TRUE(Same(*got, R"({
      "self": {"tensor": {"shape": [7, 5], "stride": [5, 1], "dtype": "float32"}},
      "mat2": {"tensor": {"shape": [5, 3], "stride": [3, 1], "dtype": "float32"}},
      "out": {"tensor": {"shape": [7, 3], "stride": [3, 1], "dtype": "float32"}}})"));

  // Two out= tensors (max.dim_max: max, max_values).
  const TensorMeta v = Meta({7}, {1}, c10::ScalarType::Float);
  const TensorMeta i = Meta({7}, {1}, c10::ScalarType::Long);
  got = RequestArgs(c10::OperatorName("aten::max", "dim_max"),
                    OpArgs({{"self", self}, {"dim", int64_t{1}}, {"keepdim", false}}, {self}, {v, i}));
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->fields().at("max").struct_value().fields().at("tensor").struct_value()
                .fields().at("dtype").string_value(), "float32");
  EXPECT_EQ(got->fields().at("max_values").struct_value().fields().at("tensor").struct_value()
                .fields().at("dtype").string_value(), "int64");
}

TEST(RequestArgsTest, Errors) {
  const TensorMeta a = Meta({3}, {1}, c10::ScalarType::Float);
  EXPECT_EQ(RequestArgs(c10::OperatorName("aten::no_such_op", ""), OpArgs({}, {}, {}))
                .status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_THAT(RequestArgs(c10::OperatorName("aten::mm", "out"),
                          OpArgs({{"self", a}, {"mat2", a}}, {a, a}, {}))
                  .status().message(),
              HasSubstr("no output for out= argument 'out'"));
  EXPECT_THAT(RequestArgs(c10::OperatorName("aten::abs", ""),
                          OpArgs({{"self", Meta({3}, {1}, c10::ScalarType::QUInt8)}}, {a}, {a}))
                  .status().message(),
              HasSubstr("has no torch name"));
}

}  // namespace
}  // namespace shrt
