// The indexing family's strategies on metadata the operators reject: each
// answers with rules or none, and never reads outside an input's shape.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shrt/strategies/registry.h"
#include "shrt/strategies/test_util.h"

namespace shrt {
namespace {

using ::testing::IsEmpty;

absl::StatusOr<std::vector<Rule>> IndexPut(std::vector<TensorMeta> inputs) {
  const TensorMeta self = inputs.front();
  return StrategyRegistry::Global().Query(
      c10::OperatorName("aten::index_put", ""),
      OpArgs({{"accumulate", true}}, std::move(inputs), {self}));
}

TEST(IndexingTest, IndexPutWithMoreIndicesThanSelfDimsClaimsNothing) {
  // self [4], indices x3 of [2]: torch raises "too many indices".
  absl::StatusOr<std::vector<Rule>> rules = IndexPut(
      {Meta({4}), Meta({2}, c10::kLong), Meta({2}, c10::kLong), Meta({2}, c10::kLong),
       Meta({2, 3, 5})});
  ASSERT_TRUE(rules.ok()) << rules.status();
  EXPECT_THAT(Texts(*rules), IsEmpty());
}

TEST(IndexingTest, IndexPutWithValuesOfTooManyDimsClaimsNothing) {
  // self [4, 6] indexed on dim 0 by [2]: values broadcast to [2, 6], not [7, 2, 6].
  absl::StatusOr<std::vector<Rule>> rules =
      IndexPut({Meta({4, 6}), Meta({2}, c10::kLong), Meta({7, 2, 6})});
  ASSERT_TRUE(rules.ok()) << rules.status();
  EXPECT_THAT(Texts(*rules), IsEmpty());
}

TEST(IndexingTest, IndexPutOnValidMetadataStillShardsTheUnindexedDim) {
  absl::StatusOr<std::vector<Rule>> rules =
      IndexPut({Meta({4, 6}), Meta({2}, c10::kLong), Meta({2, 6})});
  ASSERT_TRUE(rules.ok()) << rules.status();
  EXPECT_THAT(Texts(*rules), ::testing::Contains("S(1), R, S(1) -> S(1)"));
}

}  // namespace
}  // namespace shrt
