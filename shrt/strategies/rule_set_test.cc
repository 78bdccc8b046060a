#include "shrt/strategies/rule_set.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shrt/strategies/test_util.h"

namespace shrt {
namespace {

using P = Placement;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

// One float (8, 16) input and one output of `out`.
OpArgs Unary(TensorMeta out) { return OpArgs({}, {Meta({8, 16})}, {std::move(out)}); }

TEST(RuleSetTest, KeepsRulesInInsertionOrderWithoutDuplicates) {
  const OpArgs args = Unary(Meta({8, 16}));
  RuleSet rules(args);
  rules.Add({P::Shard(1)}, {P::Shard(1)});
  rules.Add({P::Shard(0)}, {P::Shard(0)});
  rules.Add({P::Shard(1)}, {P::Shard(1)});
  EXPECT_THAT(Texts(rules.Take()), ElementsAre("S(1) -> S(1)", "S(0) -> S(0)"));
}

TEST(RuleSetTest, DropsTheAllReplicateRuleAndWrongArity) {
  const OpArgs args = Unary(Meta({8, 16}));
  RuleSet rules(args);
  rules.Add({P::Replicate()}, {P::Replicate()});
  rules.Add({P::Shard(0), P::Shard(0)}, {P::Shard(0)});
  rules.Add({P::Shard(0)}, {P::Shard(0), P::Shard(0)});
  rules.Add({P::Shard(0)}, {});
  EXPECT_THAT(Texts(rules.Take()), IsEmpty());
}

TEST(RuleSetTest, DropsPlacementsThatNeverApply) {
  const OpArgs args = Unary(Meta({8}, c10::ScalarType::Bool));
  RuleSet rules(args);
  rules.Add({P::Partial(ReduceOp::kSum)}, {P::Partial(ReduceOp::kSum)});  // bool output
  rules.Add({P::Shard(2)}, {P::Shard(0)});                                // rank-2 input
  rules.Add({P::Shard(0)}, {P::Shard(1)});                                // rank-1 output
  rules.Add({P::Shard(1)}, {P::Shard(0)});
  EXPECT_THAT(Texts(rules.Take()), ElementsAre("S(1) -> S(0)"));
}

TEST(RuleSetTest, NegativeShardDimsCountFromTheLastDim) {
  const OpArgs args = Unary(Meta({16}));
  RuleSet rules(args);
  rules.Add({P::Shard(-1)}, {P::Shard(-1)});
  rules.Add({P::Shard(1)}, {P::Shard(0)});  // the same rule
  rules.Add({P::Shard(-3)}, {P::Shard(0)});  // beyond the input's rank
  EXPECT_THAT(Texts(rules.Take()), ElementsAre("S(1) -> S(0)"));
}

TEST(RuleSetTest, KeepApplicableFiltersAListInOrder) {
  const OpArgs args = Unary(Meta({8, 16}));
  EXPECT_THAT(Texts(KeepApplicable(args, {Rule{{P::Shard(0)}, {P::Shard(-1)}},
                                          Rule{{P::Replicate()}, {P::Replicate()}},
                                          Rule{{P::Shard(0)}, {P::Shard(1)}},
                                          Rule{{P::Shard(-2)}, {P::Shard(0)}}})),
              ElementsAre("S(0) -> S(1)", "S(0) -> S(0)"));
}

TEST(RuleSetTest, WithoutOutputsNothingIsKept) {
  const OpArgs args({}, {Meta({8, 16})}, {});
  RuleSet rules(args);
  rules.Add({P::Shard(0)}, {});
  EXPECT_THAT(Texts(rules.Take()), IsEmpty());
}

}  // namespace
}  // namespace shrt
