#include "shrt/engine/cases.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace shrt {
namespace {

using ::testing::ElementsAre;

const Placement R = Placement::Replicate();
const Placement S0 = Placement::Shard(0);
const Placement S1 = Placement::Shard(1);
const Placement Psum = Placement::Partial(ReduceOp::kSum);
const Placement Pmax = Placement::Partial(ReduceOp::kMax);

TEST(TupleSpaceTest, MixedRadixWithTheLastSlotFastest) {
  const TupleSpace space({{R, S0, S1}, {R, Psum}});
  EXPECT_EQ(space.size(), 6);
  EXPECT_THAT(space.Placements(0), ElementsAre(R, R));
  EXPECT_THAT(space.Placements(1), ElementsAre(R, Psum));
  EXPECT_THAT(space.Placements(2), ElementsAre(S0, R));
  EXPECT_THAT(space.Indices(5), ElementsAre(2, 1));
  for (int64_t t = 0; t < space.size(); ++t) EXPECT_EQ(space.Find(space.Placements(t)), t);
}

TEST(TupleSpaceTest, FindRejectsPlacementsThatAreNotCandidates) {
  const TupleSpace space({{R, S0}, {R}});
  EXPECT_EQ(space.Find({S1, R}), -1);
  EXPECT_EQ(space.Find({R}), -1);  // wrong arity
  EXPECT_EQ(TupleSpace({}).size(), 1);
  EXPECT_EQ(TupleSpace({{R}, {}}).size(), 0);
}

TEST(InputCandidatesTest, IndexInputsTakeNoPartial) {
  const std::vector<Placement> all = InputCandidates(2, at::kLong, false);
  const std::vector<Placement> index = InputCandidates(2, at::kLong, true);
  EXPECT_THAT(index, ElementsAre(R, S0, S1));
  EXPECT_GT(all.size(), index.size());
  // Bool never takes Partial, index or not (candidates.h).
  EXPECT_THAT(InputCandidates(1, at::kBool, false), ElementsAre(R, S0));
}

TEST(PartialVariantsTest, NoPartialInputRunsOnce) {
  const std::vector<PartialVariant> v = PartialVariants({S0, R}, {at::kFloat, at::kFloat}, {40, 40}, 3);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].label, "");
  EXPECT_THAT(v[0].negated, ElementsAre(false, false));
}

TEST(PartialVariantsTest, PartialInputsRunEveryRedraw) {
  const std::vector<PartialVariant> v = PartialVariants({Psum, R}, {at::kFloat, at::kFloat}, {40, 1}, 3);
  ASSERT_EQ(v.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(v[i].redraw, i);
    EXPECT_EQ(v[i].label, "redraw " + std::to_string(i));
  }
}

TEST(PartialVariantsTest, TinyPartialInputsGetMoreDraws) {
  // A 0-d Partial input: kMinPartialDraws one-element draws.
  EXPECT_EQ(PartialVariants({Psum, R}, {at::kFloat, at::kFloat}, {1, 40}, 3).size(),
            static_cast<size_t>(kMinPartialDraws));
  // 2 elements: ceil(12 / 2) = 6 draws; a tiny replicated input changes
  // nothing, nor does a tiny Partial input beside a large one.
  EXPECT_EQ(PartialVariants({Psum, R}, {at::kFloat, at::kFloat}, {2, 1}, 3).size(), 6u);
  EXPECT_EQ(PartialVariants({Psum, R}, {at::kFloat, at::kFloat}, {40, 1}, 3).size(), 3u);
  EXPECT_EQ(PartialVariants({Psum, Psum}, {at::kFloat, at::kFloat}, {40, 1}, 3).size(), 3u);
}

TEST(PartialVariantsTest, MaxAndMinInputsAreAlsoNegated) {
  const std::vector<PartialVariant> v =
      PartialVariants({Pmax, Psum, R}, {at::kFloat, at::kFloat, at::kFloat}, {30, 30, 30}, 2);
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[2].label, "negated inputs, redraw 0");
  EXPECT_THAT(v[2].negated, ElementsAre(true, false, false));
  // uint8 has no negatives: nothing to negate.
  EXPECT_EQ(PartialVariants({Pmax}, {at::kByte}, {30}, 2).size(), 2u);
}

}  // namespace
}  // namespace shrt
