#include "shrt/vocab/suggest.h"

#include <chrono>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace shrt {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

const std::vector<std::string> kNames = {"aten::relu", "aten::relu_", "aten::add.Tensor",
                                         "aten::add.Scalar", "aten::mul.Tensor"};

TEST(SuggestTest, ClosestFirst) {
  EXPECT_THAT(CloseMatches("aten::reluu", kNames, 2), ElementsAre("aten::relu", "aten::relu_"));
  EXPECT_THAT(CloseMatches("aten::add.Tensr", kNames, 1), ElementsAre("aten::add.Tensor"));
}

TEST(SuggestTest, IgnoresCase) {
  EXPECT_THAT(CloseMatches("ATEN::RELU", kNames, 1), ElementsAre("aten::relu"));
  EXPECT_THAT(CloseMatches("aten::add.tensor", kNames, 1), ElementsAre("aten::add.Tensor"));
}

TEST(SuggestTest, NothingFarAway) {
  EXPECT_THAT(CloseMatches("torch.nn.functional.gelu", kNames, 3), IsEmpty());
  EXPECT_THAT(CloseMatches("", kNames, 3), IsEmpty());
}

TEST(SuggestTest, MatchesTheFullDistanceInsideTheBand) {
  // A 7-letter name takes suggestions 1 + 7 / 4 = 2 edits away: "kitten"
  // (3 edits) is out, "sittin" (1) is in.
  EXPECT_THAT(CloseMatches("sitting", {"kitten"}, 1), IsEmpty());
  EXPECT_THAT(CloseMatches("sitting", {"sittin", "kitten"}, 2), ElementsAre("sittin"));
  EXPECT_EQ(MaxSuggestionDistance("sitting"), 2u);
  EXPECT_EQ(MaxSuggestionDistance(std::string(1000, 'a')), 8u);
}

TEST(SuggestTest, LongTextIsLinear) {
  // Issue 14: a 10,000-character --op took 22 s against the dispatcher's
  // names; with the band it is a length comparison per name.
  std::vector<std::string> names(3000, std::string(40, 'a'));
  names.push_back(std::string(10000, 'b'));
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THAT(CloseMatches(std::string(10000, 'a'), names, 3), IsEmpty());
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 1.0);
}

}  // namespace
}  // namespace shrt
