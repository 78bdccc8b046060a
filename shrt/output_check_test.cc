#include "shrt/output_check.h"

#include "ATen/ATen.h"
#include "gtest/gtest.h"
#include "shrt/distribute.h"

namespace shrt {
namespace {

at::Tensor Full() { return at::arange(15, at::kFloat).reshape({5, 3}); }
const Tolerance kTol = DefaultTolerance(at::kFloat);

TEST(OutputCheckTest, ShardAcceptsTheChunkLayout) {
  const at::Tensor full = Full();
  EXPECT_TRUE(CheckOutput(full, Distribute(full, Placement::Shard(0), 4, 0), Placement::Shard(0),
                          kTol).ok);
  EXPECT_TRUE(CheckOutput(full, Distribute(full, Placement::Shard(1), 2, 0), Placement::Shard(1),
                          kTol).ok);
}

TEST(OutputCheckTest, ShardRejectsWrongChunksNamingTheRank) {
  const at::Tensor full = Full();
  std::vector<at::Tensor> locals = Distribute(full, Placement::Shard(0), 4, 0);
  locals[2] = locals[2] + 1;
  OutputCheck c = CheckOutput(full, locals, Placement::Shard(0), kTol);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.rank, 2);
  EXPECT_DOUBLE_EQ(c.max_abs_diff, 1);
}

TEST(OutputCheckTest, EmptyChunkMustBeEmpty) {
  const at::Tensor full = Full();
  std::vector<at::Tensor> locals = Distribute(full, Placement::Shard(0), 4, 0);
  locals[3] = at::zeros({1, 3});  // rank 3 should hold a [0, 3] chunk
  OutputCheck c = CheckOutput(full, locals, Placement::Shard(0), kTol);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.rank, 3);
  EXPECT_NE(c.detail.find("shape"), std::string::npos);
}

TEST(OutputCheckTest, ReplicateNeedsEveryRankWhole) {
  const at::Tensor full = Full();
  std::vector<at::Tensor> locals = Distribute(full, Placement::Replicate(), 3, 0);
  EXPECT_TRUE(CheckOutput(full, locals, Placement::Replicate(), kTol).ok);
  EXPECT_FALSE(CheckOutput(full, locals, Placement::Shard(0), kTol).ok);
}

TEST(OutputCheckTest, PartialChecksTheReduction) {
  const at::Tensor full = Full();
  for (ReduceOp op : kAllReduceOps) {
    const Placement p = Placement::Partial(op);
    std::vector<at::Tensor> locals = Distribute(full, p, 4, 5);
    EXPECT_TRUE(CheckOutput(full, locals, p, kTol).ok) << p.ToString();
  }
  // Sum parts are not max parts.
  std::vector<at::Tensor> sum_parts = Distribute(full, Placement::Partial(ReduceOp::kSum), 4, 5);
  OutputCheck c = CheckOutput(full, sum_parts, Placement::Partial(ReduceOp::kMax), kTol);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.rank, -1);
  // Replicated values are P(max) but not P(sum).
  std::vector<at::Tensor> copies = Distribute(full, Placement::Replicate(), 4, 0);
  EXPECT_TRUE(CheckOutput(full, copies, Placement::Partial(ReduceOp::kMax), kTol).ok);
  EXPECT_FALSE(CheckOutput(full, copies, Placement::Partial(ReduceOp::kSum), kTol).ok);
}

TEST(OutputCheckTest, PartialNeedsTheFullShapeOnEveryRank) {
  const at::Tensor full = Full();
  std::vector<at::Tensor> locals = Distribute(full, Placement::Shard(0), 2, 0);
  OutputCheck c = CheckOutput(full, locals, Placement::Partial(ReduceOp::kSum), kTol);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.rank, 0);
}

TEST(OutputCheckTest, DtypeMustMatch) {
  const at::Tensor full = Full();
  std::vector<at::Tensor> locals = Distribute(full.to(at::kDouble), Placement::Replicate(), 2, 0);
  EXPECT_FALSE(CheckOutput(full, locals, Placement::Replicate(), kTol).ok);
}

TEST(OutputCheckTest, ZeroDimOutputs) {
  const at::Tensor full = at::arange(1, at::kFloat).reshape({}) + 3;
  EXPECT_TRUE(CheckOutput(full, Distribute(full, Placement::Partial(ReduceOp::kSum), 4, 1),
                          Placement::Partial(ReduceOp::kSum), kTol).ok);
  EXPECT_TRUE(CheckOutput(full, Distribute(full, Placement::Replicate(), 4, 1),
                          Placement::Replicate(), kTol).ok);
}

}  // namespace
}  // namespace shrt
