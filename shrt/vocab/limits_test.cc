#include "shrt/vocab/limits.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace shrt {
namespace {

using ::testing::HasSubstr;

std::string Message(const absl::Status& s) { return std::string(s.message()); }

TEST(LimitsTest, UsualShapesPass) {
  for (const std::vector<int64_t>& shape :
       std::vector<std::vector<int64_t>>{{}, {0}, {7, 1, 5}, {1024, 1024}, std::vector<int64_t>(16, 1)}) {
    EXPECT_TRUE(CheckShape(shape).ok()) << shape.size();
  }
  EXPECT_EQ(NumElements({7, 1, 5}), 35);
  EXPECT_EQ(NumElements({}), 1);
}

// Issue 14: [100000, 100000] asked for 40 GB; a dim of 2^62 threw an
// uncaught c10::Error; 5,000 dims of size 1 ran without bound.
TEST(LimitsTest, RefusesWhatWouldExhaustTheMachine) {
  EXPECT_EQ(Message(CheckShape({100000, 100000})),
            "shape [100000, 100000] has 10000000000 elements, more than the 1048576 a sample "
            "may hold (shrt/vocab/limits.h)");
  EXPECT_EQ(Message(CheckShape({int64_t{1} << 62})),
            "shape [4611686018427387904] has the size 4611686018427387904 at dim 0, more than "
            "the 1048576 elements a sample may hold (shrt/vocab/limits.h)");
  EXPECT_EQ(Message(CheckShape(std::vector<int64_t>(5000, 1))),
            "shape [1, 1, 1, 1, ...] has 5000 dims, more than the 16 ShRT accepts (shrt/vocab/limits.h)");
  EXPECT_THAT(Message(CheckShape({0, int64_t{1} << 21})), HasSubstr("at dim 1"));
  EXPECT_THAT(Message(CheckShape({3, -1})), HasSubstr("negative size -1 at dim 1"));
}

TEST(LimitsTest, NoOverflowWhateverTheShape) {
  // 16 dims of 2^20: the product overflows int64 and is still refused.
  EXPECT_THAT(Message(CheckShape(std::vector<int64_t>(16, int64_t{1} << 20))),
              HasSubstr("more than 2^63 elements"));
}

TEST(LimitsTest, SizeArguments) {
  EXPECT_TRUE(CheckSizeList({-1, 4, 3}).ok());  // view's -1
  EXPECT_THAT(Message(CheckSizeList({100000, 100000})), HasSubstr("size argument [100000, 100000]"));
  EXPECT_TRUE(CheckSize(-3).ok());
  EXPECT_TRUE(CheckSize(kMaxSampleElements).ok());
  EXPECT_THAT(Message(CheckSize(int64_t{1} << 40)), HasSubstr("the size 1099511627776 is more than"));
}

TEST(LimitsTest, PlacementTuplesSaturate) {
  EXPECT_EQ(PlacementTuples({}), 1);
  EXPECT_EQ(PlacementTuples({7, 8}), 56);
  EXPECT_EQ(PlacementTuples({7, 0}), 0);
  EXPECT_EQ(PlacementTuples(std::vector<size_t>(1000, 22)), kMaxPlacementTuples + 1);
  EXPECT_EQ(PlacementTuples({size_t{1} << 40, 0}), 0);
}

}  // namespace
}  // namespace shrt
