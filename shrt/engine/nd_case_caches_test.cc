#include "shrt/engine/nd_case_caches.h"

#include "gtest/gtest.h"
#include "shrt/engine/compare.h"
#include "shrt/engine/test_tensors.h"

namespace shrt {
namespace {

// Rank outputs of a 2x2 mesh, with their keys.
struct RankOutputs {
  Tensors outs;
  BytesKeys keys;
};
RankOutputs Outputs(double value) {
  RankOutputs r;
  for (int rank = 0; rank < 4; ++rank) {
    r.outs.push_back(Full({3}, value, at::kFloat));
    r.keys.push_back(BytesKey(r.outs.back()));
  }
  return r;
}

CheckContext Scales(double input_scale, double full_input_scale) {
  CheckContext c{DefaultTolerance(at::kFloat), Epsilon(at::kFloat)};
  c.input_scale = input_scale;
  c.full_input_scale = full_input_scale;
  return c;
}

// A check that read no input scale (R, S, P(max): output_check.h
// ReadsInputScales) is made once for the same rank outputs at every input
// scale; a P(sum) check and a re-judged one are made once per scale; other
// rank outputs, another output or other negated inputs make their own.
TEST(NdCheckCacheTest, KeysAChecksInputScalesOnlyWhenItReadThem) {
  NdCallMemo memo;
  NdCheckCache cache;
  const RankOutputs ones = Outputs(1), twos = Outputs(2);
  int made = 0;
  auto pass = [&]() {
    ++made;
    return OutputCheck{};
  };
  auto rejudged = [&]() {
    ++made;
    OutputCheck c;
    c.rejudged = true;
    return c;
  };
  const NdPlacements rr = {Placement::Replicate(), Placement::Replicate()};
  const NdPlacements sum = {Placement::Partial(ReduceOp::kSum), Placement::Partial(ReduceOp::kSum)};
  const NdPlacements max = {Placement::Shard(0), Placement::Partial(ReduceOp::kMax)};
  const std::vector<bool> plain = {false}, negated = {true};
  for (const CheckContext& c : {Scales(0, 0), Scales(5, 1), Scales(7, 2), Scales(5, 1)}) {
    cache.Get(plain, 0, rr, c, ones.outs, ones.keys, pass, memo);
    cache.Get(plain, 0, max, c, ones.outs, ones.keys, pass, memo);
  }
  EXPECT_EQ(made, 2) << "R and [S(0), P(max)] read no scale";
  made = 0;
  for (const CheckContext& c : {Scales(0, 0), Scales(5, 1), Scales(7, 2), Scales(5, 1)}) {
    cache.Get(plain, 0, sum, c, ones.outs, ones.keys, pass, memo);
  }
  EXPECT_EQ(made, 3) << "P(sum) reads the scales: three distinct pairs";
  made = 0;
  for (const CheckContext& c : {Scales(0, 0), Scales(5, 1), Scales(5, 1)}) {
    cache.Get(plain, 1, rr, c, ones.outs, ones.keys, rejudged, memo);
  }
  EXPECT_EQ(made, 2) << "a re-judged check reads the scales";
  made = 0;
  cache.Get(plain, 0, rr, Scales(0, 0), twos.outs, twos.keys, pass, memo);
  cache.Get(negated, 0, rr, Scales(0, 0), ones.outs, ones.keys, pass, memo);
  cache.Get(plain, 2, rr, Scales(0, 0), ones.outs, ones.keys, pass, memo);
  EXPECT_EQ(made, 3) << "other rank outputs, negated inputs or output";
}

}  // namespace
}  // namespace shrt
