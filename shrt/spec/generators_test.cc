// Converting generated values to tensors (generators.h ValuesToTensor).
#include "shrt/spec/generators.h"

#include <cfloat>
#include <cmath>
#include <limits>

#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "shrt/spec/aten_functions.h"

namespace shrt {
namespace {

// Found by //shrt/fuzz:recipe_fuzz (corpus regression_int64_overflow): a
// recipe's values past int64's range converted to 2^63, which no int64
// holds (undefined behaviour; UBSan stops there).
TEST(GeneratorsTest, IntegerDtypesClampOutOfRangeValuesAndNanIsZero) {
  const double inf = std::numeric_limits<double>::infinity();
  const at::Tensor t = ValuesToTensor({1e19, -1e19, inf, -inf, std::nan(""), 9.2233720368547748e18, -2.5},
                                      {7}, at::kLong);
  const int64_t max = std::numeric_limits<int64_t>::max(), lowest = std::numeric_limits<int64_t>::lowest();
  const std::vector<int64_t> want = {max, lowest, max, lowest, 0, 9223372036854774784, -2};
  EXPECT_EQ(std::vector<int64_t>(t.data_ptr<int64_t>(), t.data_ptr<int64_t>() + 7), want);
  const at::Tensor b = ValuesToTensor({300, -300, std::nan("")}, {3}, at::kByte);
  EXPECT_EQ(std::vector<uint8_t>(b.data_ptr<uint8_t>(), b.data_ptr<uint8_t>() + 3),
            (std::vector<uint8_t>{255, 0, 0}));
}

// Only arange and constant give the same values at every seed (CaseMaker
// skips their repeats in a tiny sample's later rounds).
TEST(GeneratorsTest, DrawsFromSeedIsFalseExactlyWhenTheSeedChangesNoValue) {
  Generator g;
  const GenContext context;
  for (const char* text : {"arange { start: 1 step: 1 }", "constant { value: -2 }",
                           "normal {}", "uniform { low: 1 high: 2 random_sign: true }",
                           "sparse { density: 0.5 low: 1 high: 10 }",
                           "magnitude { min_exp: -3 max_exp: 3 }", "ties { values: [-1, 0, 1] }",
                           "special { values: [NOT_A_NUMBER] density: 0.2 }"}) {
    ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &g)) << text;
    const at::Tensor a = *Generate(g, {64}, at::kFloat, 0, 1, context);
    const at::Tensor b = *Generate(g, {64}, at::kFloat, 0, 2, context);
    EXPECT_EQ(DrawsFromSeed(g), !a.equal(b)) << text;
  }
}

// The special values are the dtype's own (std::numeric_limits of its C++
// type), so that float16's largest finite value is 65504, not inf.
TEST(GeneratorsTest, SpecialValuesAreTheDtypesOwn) {
  EXPECT_EQ(SpecialValueOf(LARGEST_FINITE, at::kHalf), 65504.0);
  EXPECT_EQ(SpecialValueOf(LOWEST_FINITE, at::kFloat), -static_cast<double>(FLT_MAX));
  EXPECT_EQ(SpecialValueOf(SMALLEST_NORMAL, at::kDouble), DBL_MIN);
  EXPECT_EQ(SpecialValueOf(SMALLEST_SUBNORMAL, at::kFloat), static_cast<double>(FLT_TRUE_MIN));
  EXPECT_EQ(SpecialValueOf(LARGEST_FINITE, at::kComplexFloat), static_cast<double>(FLT_MAX));
  EXPECT_TRUE(std::signbit(SpecialValueOf(NEGATIVE_ZERO, at::kBFloat16)));
  EXPECT_TRUE(std::isnan(SpecialValueOf(NOT_A_NUMBER, at::kFloat)));
}

// Every input of a floating dtype holds every listed value (when it has as
// many elements); an integer input gets the normal draws alone.
TEST(GeneratorsTest, SpecialPutsEveryValueInEveryFloatingInput) {
  Generator g;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(
      "special { values: [POSITIVE_INFINITY, NEGATIVE_INFINITY, NOT_A_NUMBER, NEGATIVE_ZERO] "
      "density: 0.01 }",
      &g));
  const GenContext context;
  for (int input = 0; input < 3; ++input) {
    const at::Tensor t = *Generate(g, {5, 3}, at::kFloat, input, 9, context);
    EXPECT_TRUE(t.isposinf().any().item<bool>()) << input;
    EXPECT_TRUE(t.isneginf().any().item<bool>()) << input;
    EXPECT_TRUE(t.isnan().any().item<bool>()) << input;
    EXPECT_TRUE(t.eq(0).logical_and(t.signbit()).any().item<bool>()) << input;
  }
  const at::Tensor scalar = *Generate(g, {}, at::kDouble, 1, 9, context);
  EXPECT_FALSE(std::isfinite(scalar.item<double>()) && !std::signbit(scalar.item<double>()));
  const at::Tensor ints = *Generate(g, {64}, at::kLong, 0, 9, context);
  EXPECT_LT(ints.abs().max().item<int64_t>(), 10);
}

// Every matrix of a batch is Hermitian and positive definite: cholesky,
// which raises on any other, factors it (recipe.proto
// PositiveDefiniteGen), in real and complex dtypes, within the range
// GeneratedRange gives; a shape without square matrices is refused.
TEST(GeneratorsTest, PositiveDefiniteMatricesFactor) {
  Generator g;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString("positive_definite {}", &g));
  const GenContext context;
  const ValueRange range = *GeneratedRange(g, 96, 0, context);
  for (c10::ScalarType dtype : {at::kFloat, at::kDouble, at::kComplexFloat}) {
    for (uint64_t seed : {1, 2, 3}) {
      const at::Tensor t = *Generate(g, {3, 2, 4, 4}, dtype, 1, seed, context);
      EXPECT_TRUE(t.equal(t.mH())) << dtype << " seed " << seed;
      const at::Tensor l = t.cholesky();  // throws c10::Error unless positive definite
      EXPECT_TRUE(l.isfinite().all().item<bool>()) << dtype << " seed " << seed;
      const at::Tensor parts = dtype == at::kComplexFloat ? ViewAsReal(t) : t;
      EXPECT_GE(parts.min().item<double>(), range.lo);
      EXPECT_LE(parts.max().item<double>(), range.hi);
    }
  }
  EXPECT_EQ(Generate(g, {2, 0, 0}, at::kFloat, 0, 1, context)->numel(), 0);
  for (std::vector<int64_t> shape : {std::vector<int64_t>{4, 3}, {4}, {}}) {
    absl::StatusOr<at::Tensor> t = Generate(g, shape, at::kFloat, 0, 1, context);
    ASSERT_FALSE(t.ok());
    EXPECT_NE(t.status().message().find("positive_definite needs square matrices"), std::string::npos)
        << t.status();
  }
}

}  // namespace
}  // namespace shrt
