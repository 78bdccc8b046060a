// Converting generated values to tensors (generators.h ValuesToTensor).
#include "shrt/spec/generators.h"

#include <cmath>
#include <limits>

#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"

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
                           "magnitude { min_exp: -3 max_exp: 3 }", "ties { values: [-1, 0, 1] }"}) {
    ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &g)) << text;
    const at::Tensor a = *Generate(g, {64}, at::kFloat, 0, 1, context);
    const at::Tensor b = *Generate(g, {64}, at::kFloat, 0, 2, context);
    EXPECT_EQ(DrawsFromSeed(g), !a.equal(b)) << text;
  }
}

}  // namespace
}  // namespace shrt
