// SampleTruth::Valid leaves out the rules another valid rule implies by an
// output: P(avg|max|min) where R holds too (every rank holds the whole
// value). Holds() keeps them: they are true, only not worth claiming.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shrt/engine/ground_truth.h"
#include "shrt/engine/test_recipes.h"

namespace shrt {
namespace {

using ::testing::Contains;
using ::testing::Not;

std::vector<std::string> Texts(const std::vector<Rule>& rules) {
  std::vector<std::string> out;
  for (const Rule& r : rules) out.push_back(RuleToString(r));
  return out;
}

// _linalg_solve_ex(A, B) -> (result, LU, pivots, info): with A replicated,
// LU, pivots and info are equal on every rank, so each may be R or any
// idempotent Partial beside a column shard of B.
TEST(ImpliedRulesTest, AnIdempotentPartialOfAReplicatedOutputIsNotValid) {
  absl::StatusOr<LoadedSpec> spec = LoadedSpec::FromText(R"pb(
    op: "aten::_linalg_solve_ex"
    arg_recipe { arg: "A" recipe: "linalg_matrix" }
    sample {
      name: "batch"
      arg { name: "A" tensor { shape: [ 5, 4, 4 ] } }
      arg { name: "B" tensor { shape: [ 5, 4, 3 ] } }
    }
  )pb",
                                                         "test.textproto", TestRecipes());
  ASSERT_TRUE(spec.ok()) << spec.status();
  TruthOptions options;
  options.world_size = 2;
  absl::StatusOr<std::vector<SampleTruth>> truths = SpecTruth(*spec, options);
  ASSERT_TRUE(truths.ok()) << truths.status();
  ASSERT_EQ(truths->size(), 1u);
  const std::vector<std::string> holds = Texts((*truths)[0].Holds());
  const std::vector<std::string> valid = Texts((*truths)[0].Valid());
  EXPECT_THAT(holds, Contains("R, S(2) -> S(2), R, R, R"));
  EXPECT_THAT(holds, Contains("R, S(2) -> S(2), R, R, P(max)"));
  EXPECT_THAT(holds, Contains("R, S(2) -> S(2), P(avg), R, P(min)"));
  EXPECT_THAT(valid, Contains("R, S(2) -> S(2), R, R, R"));
  EXPECT_THAT(valid, Not(Contains("R, S(2) -> S(2), R, R, P(max)")));
  EXPECT_THAT(valid, Not(Contains("R, S(2) -> S(2), P(avg), R, P(min)")));
  // Not an idempotent reduction: P(sum) of W equal values is W times one.
  EXPECT_THAT(holds, Not(Contains("R, S(2) -> S(2), P(sum), R, R")));
}

}  // namespace
}  // namespace shrt
