#include "shrt/engine/nd_transpose.h"

#include <optional>
#include <string>
#include <vector>

#include "ATen/core/Tensor.h"
#include "gtest/gtest.h"
#include "shrt/engine/test_tensors.h"
#include "shrt/vocab/mesh.h"
#include "shrt/vocab/nd_rule.h"

namespace shrt {
namespace {

NdRule Rule2(const std::string& text) {
  absl::StatusOr<NdRule> rule = ParseNdRule(text);
  EXPECT_TRUE(rule.ok()) << text << ": " << rule.status();
  return *rule;
}

std::vector<NdRule> Rules(const std::vector<std::string>& texts) {
  std::vector<NdRule> rules;
  for (const std::string& t : texts) rules.push_back(Rule2(t));
  return rules;
}

TEST(NdTransposeTest, TransposedSwapsTheMeshDimsWhenEveryTensorTransposes) {
  const std::optional<NdRule> t = Transposed(Rule2("[S(0), P(sum)], [R, S(1)] -> [S(0), P(sum)]"));
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(NdRuleToString(*t), "[P(sum), S(0)], [S(1), R] -> [P(sum), S(0)]");
  // A rule can be its own transpose.
  EXPECT_EQ(Transposed(Rule2("[R, R] -> [R, R]")), Rule2("[R, R] -> [R, R]"));
  // One tensor that does not transpose (a chunk of a chunk; parts of
  // parts) is enough for none.
  EXPECT_FALSE(Transposed(Rule2("[S(0), S(0)], [R, S(1)] -> [S(0), S(0)]")).has_value());
  EXPECT_FALSE(Transposed(Rule2("[P(sum), P(sum)] -> [P(sum), P(sum)]")).has_value());
  // Not a 2-D rule.
  EXPECT_FALSE(Transposed(Rule2("[S(0), S(1), R] -> [S(0), S(1), R]")).has_value());
}

TEST(NdTransposeTest, ALaterRuleFollowsTheFirstEarlierTransposeThatRuns) {
  const std::vector<NdRule> rules = Rules({
      "[S(0), P(sum)] -> [S(0), P(sum)]",  // 0: runs
      "[R, R] -> [R, R]",                  // 1: its own transpose: runs
      "[P(sum), S(0)] -> [P(sum), S(0)]",  // 2: follows 0
      "[S(0), P(sum)] -> [S(0), P(sum)]",  // 3: a repeat of 0; its transpose's first
                                           //    (2) follows, so 3 runs
      "[S(1), R] -> [S(1), R]",            // 4: runs (its transpose comes later)
      "[R, S(1)] -> [R, S(1)]",            // 5: follows 4
      "[S(0), S(1)] -> [S(0), S(1)]",      // 6: not open: judged statically
      "[S(1), S(0)] -> [S(1), S(0)]",      // 7: its transpose is not open: runs
      "[S(0), R] -> [S(0), R]",            // 8: runs
      "[R, S(0)] -> [R, S(0)]",            // 9: follows 8
      "[R, S(0)] -> [R, S(0)]",            // 10: a repeat of 9; follows 8 too
  });
  std::vector<bool> needs_calls(rules.size(), true);
  needs_calls[6] = false;
  const std::vector<std::optional<size_t>> leaders =
      TransposeLeaders(rules, needs_calls, *MeshShape::Parse("2x2"));
  const std::vector<std::optional<size_t>> want = {
      std::nullopt, std::nullopt, 0, std::nullopt, std::nullopt, 4, std::nullopt, std::nullopt,
      std::nullopt, 8, 8};
  ASSERT_EQ(leaders.size(), want.size());
  for (size_t r = 0; r < want.size(); ++r) EXPECT_EQ(leaders[r], want[r]) << "rule " << r;
}

TEST(NdTransposeTest, OnlySquare2DMeshesPair) {
  const std::vector<NdRule> rules = Rules({"[S(0), R] -> [S(0), R]", "[R, S(0)] -> [R, S(0)]"});
  const std::vector<bool> needs_calls(rules.size(), true);
  EXPECT_EQ(TransposeLeaders(rules, needs_calls, *MeshShape::Parse("3x3"))[1], 0u);
  for (const char* mesh : {"2x3", "3x2"}) {
    const MeshShape shape = *MeshShape::Parse(mesh);
    for (const std::optional<size_t>& l : TransposeLeaders(rules, needs_calls, shape)) {
      EXPECT_FALSE(l.has_value()) << mesh;
    }
  }
}

TEST(NdTransposeTest, TransposedRankSwapsTheCoordinates) {
  for (const char* text : {"2x2", "3x3"}) {
    const MeshShape mesh = *MeshShape::Parse(text);
    std::vector<at::Tensor> ranks;
    for (int r = 0; r < mesh.size(); ++r) {
      const std::vector<int> c = mesh.Coordinates(r);
      const int t = TransposedRank(mesh, r);
      EXPECT_EQ(mesh.Coordinates(t), (std::vector<int>{c[1], c[0]})) << text << " rank " << r;
      EXPECT_EQ(TransposedRank(mesh, t), r);
      ranks.push_back(ScalarTensor(r, at::kLong));
    }
    const std::vector<at::Tensor> moved = TransposeRanks(ranks, mesh);
    for (int r = 0; r < mesh.size(); ++r) {
      EXPECT_EQ(moved[r].item<int64_t>(), TransposedRank(mesh, r)) << text;
    }
  }
}

}  // namespace
}  // namespace shrt
