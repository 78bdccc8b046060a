#include "shrt/engine/output_check.h"

#include <cmath>

#include "ATen/core/Tensor.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "shrt/engine/distribute.h"
#include "shrt/engine/test_tensors.h"

namespace shrt {
namespace {

at::Tensor Full() { return Arange(15, at::kFloat).reshape({5, 3}); }
const Tolerance kTol = DefaultTolerance(at::kFloat);

TEST(OutputCheckTest, ShardAcceptsTheChunkLayout) {
  const at::Tensor full = Full();
  EXPECT_TRUE(CheckOutput(full, Distribute(full, Placement::Shard(0), 4, 0), Placement::Shard(0),
                          {kTol}).ok);
  EXPECT_TRUE(CheckOutput(full, Distribute(full, Placement::Shard(1), 2, 0), Placement::Shard(1),
                          {kTol}).ok);
}

TEST(OutputCheckTest, ShardRejectsWrongChunksNamingTheRank) {
  const at::Tensor full = Full();
  std::vector<at::Tensor> locals = Distribute(full, Placement::Shard(0), 4, 0);
  locals[2] = locals[2].add(1);
  OutputCheck c = CheckOutput(full, locals, Placement::Shard(0), {kTol});
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.rank, 2);
  EXPECT_DOUBLE_EQ(c.max_abs_diff, 1);
}

TEST(OutputCheckTest, EmptyChunkMustBeEmpty) {
  const at::Tensor full = Full();
  std::vector<at::Tensor> locals = Distribute(full, Placement::Shard(0), 4, 0);
  locals[3] = Zeros({1, 3});  // rank 3 should hold a [0, 3] chunk
  OutputCheck c = CheckOutput(full, locals, Placement::Shard(0), {kTol});
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.rank, 3);
  EXPECT_NE(c.detail.find("shape"), std::string::npos);
}

TEST(OutputCheckTest, ReplicateNeedsEveryRankWhole) {
  const at::Tensor full = Full();
  std::vector<at::Tensor> locals = Distribute(full, Placement::Replicate(), 3, 0);
  EXPECT_TRUE(CheckOutput(full, locals, Placement::Replicate(), {kTol}).ok);
  EXPECT_FALSE(CheckOutput(full, locals, Placement::Shard(0), {kTol}).ok);
}

// A case of special values checks R and S outputs for their shapes only
// (CheckContext::special_inputs), its Partial outputs in full.
TEST(OutputCheckTest, SpecialInputsCheckShardShapesOnlyAndPartialValues) {
  const at::Tensor full = Full();
  CheckContext special{kTol};
  special.special_inputs = true;
  std::vector<at::Tensor> locals = Distribute(full, Placement::Shard(0), 4, 0);
  locals[1] = locals[1].add(1);  // a kernel's other value for nan
  EXPECT_FALSE(CheckOutput(full, locals, Placement::Shard(0), {kTol}).ok);
  EXPECT_TRUE(CheckOutput(full, locals, Placement::Shard(0), special).ok);
  locals[3] = Zeros({1, 3});  // rank 3 should hold a [0, 3] chunk
  EXPECT_FALSE(CheckOutput(full, locals, Placement::Shard(0), special).ok);
  std::vector<at::Tensor> parts = Distribute(full, Placement::Partial(ReduceOp::kMax), 4, 0);
  parts[0] = parts[0].add(100);
  EXPECT_FALSE(CheckOutput(full, parts, Placement::Partial(ReduceOp::kMax), special).ok);
}

TEST(OutputCheckTest, PartialChecksTheReduction) {
  const at::Tensor full = Full();
  for (ReduceOp op : kAllReduceOps) {
    const Placement p = Placement::Partial(op);
    std::vector<at::Tensor> locals = Distribute(full, p, 4, 5);
    EXPECT_TRUE(CheckOutput(full, locals, p, {kTol}).ok) << p.ToString();
  }
  // Sum parts are not max parts.
  std::vector<at::Tensor> sum_parts = Distribute(full, Placement::Partial(ReduceOp::kSum), 4, 5);
  OutputCheck c = CheckOutput(full, sum_parts, Placement::Partial(ReduceOp::kMax), {kTol});
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.rank, -1);
  // Replicated values are P(max) but not P(sum).
  std::vector<at::Tensor> copies = Distribute(full, Placement::Replicate(), 4, 0);
  EXPECT_TRUE(CheckOutput(full, copies, Placement::Partial(ReduceOp::kMax), {kTol}).ok);
  EXPECT_FALSE(CheckOutput(full, copies, Placement::Partial(ReduceOp::kSum), {kTol}).ok);
}

TEST(OutputCheckTest, PartialNeedsTheFullShapeOnEveryRank) {
  const at::Tensor full = Full();
  std::vector<at::Tensor> locals = Distribute(full, Placement::Shard(0), 2, 0);
  OutputCheck c = CheckOutput(full, locals, Placement::Partial(ReduceOp::kSum), {kTol});
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.rank, 0);
}

TEST(OutputCheckTest, DtypeMustMatch) {
  const at::Tensor full = Full();
  std::vector<at::Tensor> locals = Distribute(full.to(at::kDouble), Placement::Replicate(), 2, 0);
  EXPECT_FALSE(CheckOutput(full, locals, Placement::Replicate(), {kTol}).ok);
}

TEST(OutputCheckTest, ZeroDimOutputs) {
  const at::Tensor full = Arange(1, at::kFloat).reshape({}).add(3);
  EXPECT_TRUE(CheckOutput(full, Distribute(full, Placement::Partial(ReduceOp::kSum), 4, 1),
                          Placement::Partial(ReduceOp::kSum), {kTol}).ok);
  EXPECT_TRUE(CheckOutput(full, Distribute(full, Placement::Replicate(), 4, 1),
                          Placement::Replicate(), {kTol}).ok);
}

// DESIGN.md §3: inf - inf = nan, so a non-finite element of the full
// output is no evidence against a Partial output.
TEST(OutputCheckTest, NonFiniteFullElementsAreNoEvidenceForPartials) {
  const at::Tensor full = TensorOf({1.0f, INFINITY, NAN, 4.0f}, at::kFloat);
  const std::vector<at::Tensor> locals = {TensorOf({3.0f, INFINITY, 1.0f, 1.0f}, at::kFloat),
                                          TensorOf({-2.0f, -INFINITY, NAN, 3.0f}, at::kFloat)};
  EXPECT_TRUE(CheckOutput(full, locals, Placement::Partial(ReduceOp::kSum), {kTol}).ok);
  CheckContext reference{kTol};
  reference.reference_paths = true;
  EXPECT_TRUE(CheckOutput(full, locals, Placement::Partial(ReduceOp::kSum), reference).ok);
  // Finite elements still count.
  std::vector<at::Tensor> wrong = locals;
  wrong[0] = TensorOf({3.0f, INFINITY, 1.0f, 2.0f}, at::kFloat);
  EXPECT_FALSE(CheckOutput(full, wrong, Placement::Partial(ReduceOp::kSum), {kTol}).ok);
  EXPECT_FALSE(CheckOutput(full, wrong, Placement::Partial(ReduceOp::kSum), reference).ok);
}

TEST(OutputCheckTest, NonFiniteElementsMustMatchForReplicateAndShard) {
  const at::Tensor full = TensorOf({1.0f, INFINITY, NAN, 4.0f}, at::kFloat);
  std::vector<at::Tensor> locals = {full.clone(), full.clone()};
  EXPECT_TRUE(CheckOutput(full, locals, Placement::Replicate(), {kTol}).ok);
  locals[1] = TensorOf({1.0f, INFINITY, 3.0f, 4.0f}, at::kFloat);  // a number where NaN is
  EXPECT_FALSE(CheckOutput(full, locals, Placement::Replicate(), {kTol}).ok);
  locals[1] = TensorOf({1.0f, -INFINITY, NAN, 4.0f}, at::kFloat);
  EXPECT_FALSE(CheckOutput(full, locals, Placement::Replicate(), {kTol}).ok);
}

// A float32 contraction whose P(sum) parts round beyond the fixed slack
// passes against its float64 reference, but an error of one part in 10^3
// does not.
TEST(OutputCheckTest, ReferenceAllowsTheComputationsRoundingOnly) {
  ManualSeed(3);
  const at::Tensor a = Randn({6, 256}), b = Randn({256, 5});
  const at::Tensor full = a.mm(b);
  RoundingReference ref{a.to(at::kDouble).mm(b.to(at::kDouble)), 0};
  ref.own_error = full.to(at::kDouble).sub(ref.value).abs().max().item<double>();
  // Two parts of a with large magnitudes: each rank's mm rounds relative to
  // them.
  const at::Tensor p0 = a.add(Randn({6, 256}).mul(100));
  const at::Tensor p1 = a.sub(p0);
  const std::vector<at::Tensor> locals = {p0.mm(b), p1.mm(b)};
  const Placement sum = Placement::Partial(ReduceOp::kSum);
  CheckContext context{DefaultTolerance(at::kFloat), Epsilon(at::kFloat)};
  context.input_scale = std::max(p0.abs().max().item<double>(), p1.abs().max().item<double>());
  context.full_input_scale = a.abs().max().item<double>();
  EXPECT_FALSE(CheckOutput(full, locals, sum, context).ok) << "the fixed slack should not suffice";
  EXPECT_TRUE(CheckAgainstReference(full, locals, sum, context, ref,
                                    CheckOutput(full, locals, sum, context)).ok);
  std::vector<at::Tensor> off = locals;
  off[1] = off[1].add(off[1].abs().mul(1e-3));
  EXPECT_FALSE(CheckAgainstReference(full, off, sum, context, ref,
                                    CheckOutput(full, off, sum, context)).ok);
}

TEST(OutputCheckTest, ReferenceStillRejectsAShardOneRowOff) {
  // Rows that differ by one part in 10^3 of their value.
  const at::Tensor full =
      Arange(8, at::kFloat).reshape({8, 1}).expand({8, 3}).contiguous().add(1000);
  // Even for an operator whose float32 result were far from float64 (the
  // relief is capped at kMaxRelativeRounding).
  RoundingReference ref{full.to(at::kDouble), 1.0};
  std::vector<at::Tensor> locals = Distribute(full, Placement::Shard(0), 2, 0);
  locals[1] = full.narrow(0, 3, 4).contiguous();  // rows 3..6 instead of 4..7
  const CheckContext context{DefaultTolerance(at::kFloat), Epsilon(at::kFloat)};
  EXPECT_FALSE(CheckAgainstReference(full, locals, Placement::Shard(0), context, ref,
                                    CheckOutput(full, locals, Placement::Shard(0), context)).ok);
}

// P(max) and P(min) reduce exactly: a rank's rounding is judged relative to
// the output's magnitude, as R's, not to one small element (addbmm's
// P(max) self on a 2x3 mesh: a contraction of large terms with a small
// result, off by 1.1e-4 of it in float32).
TEST(OutputCheckTest, ReferenceJudgesMaxAndMinPartialsLikeReplicate) {
  const at::Tensor want = TensorOf({2.0f, 1000.0f, -500.0f}, at::kFloat);
  RoundingReference ref{want.to(at::kDouble), 0.05};  // the call's own float32 error
  const Placement max = Placement::Partial(ReduceOp::kMax);
  const CheckContext context{DefaultTolerance(at::kFloat), Epsilon(at::kFloat)};
  // The holder of element 0 is off by 3e-4 (1.5e-4 of 2, 3e-7 of 1000).
  std::vector<at::Tensor> locals = {want.clone(), want.sub(7)};
  locals[0][0] = 2.0003f;
  ASSERT_FALSE(CheckOutput(want, locals, max, context).ok);
  EXPECT_TRUE(CheckAgainstReference(want, locals, max, context, ref,
                                    CheckOutput(want, locals, max, context)).ok);
  // Off by one part in 10^3 of the largest value still fails.
  locals[0][0] = 3.0f;
  EXPECT_FALSE(CheckAgainstReference(want, locals, max, context, ref,
                                     CheckOutput(want, locals, max, context)).ok);
}

// What ReadsInputScales says is what CheckOutput does: for every placement
// it calls scale-free, a check passes or fails alike, by the same largest
// difference, whatever the input scales; P(sum) and P(avg) read them (a
// slightly wrong sum passes with large enough parts); a re-judged check
// reads them whatever its placement.
TEST(OutputCheckTest, ReadsInputScalesSaysWhichChecksDependOnThem) {
  const at::Tensor full = TensorOf({2.0f, 3.0f, 5.0f}, at::kFloat);
  const CheckContext small{DefaultTolerance(at::kFloat), Epsilon(at::kFloat)};
  CheckContext large = small;
  large.input_scale = 1e6;
  large.full_input_scale = 1;
  const std::vector<std::vector<at::Tensor>> cases = {
      {full.clone(), full.clone()},          // R, P(max), P(min): right
      {full.add(1e-3), full.clone()},        // off by 1e-3 on a rank
      {full.div(2), full.div(2).add(1e-3)},  // P(sum) off by 1e-3
      {full.sqrt(), full.sqrt().add(1e-3)},  // P(product) off
      {full.narrow(0, 0, 2).clone(), full.narrow(0, 2, 1).clone()},  // S(0)
  };
  for (const Placement& p :
       {Placement::Replicate(), Placement::Shard(0), Placement::Partial(ReduceOp::kMax),
        Placement::Partial(ReduceOp::kMin), Placement::Partial(ReduceOp::kProduct),
        Placement::Partial(ReduceOp::kSum), Placement::Partial(ReduceOp::kAvg)}) {
    bool changed = false;
    for (const std::vector<at::Tensor>& locals : cases) {
      const OutputCheck a = CheckOutput(full, locals, p, small);
      const OutputCheck b = CheckOutput(full, locals, p, large);
      EXPECT_EQ(ReadsInputScales(a, p), ReadsInputScales(b, p)) << p.ToString();
      if (a.ok != b.ok || a.max_abs_diff != b.max_abs_diff) changed = true;
      if (!ReadsInputScales(a, p)) {
        EXPECT_EQ(a.ok, b.ok) << p.ToString();
        EXPECT_EQ(a.max_abs_diff, b.max_abs_diff) << p.ToString();
      }
    }
    const bool reads = p.is_partial() && (p.reduce_op() == ReduceOp::kSum ||
                                          p.reduce_op() == ReduceOp::kAvg);
    EXPECT_EQ(ReadsInputScales(OutputCheck{}, p), reads) << p.ToString();
    if (reads) {
      EXPECT_TRUE(changed) << p.ToString() << ": no case shows the scales read";
    }
    OutputCheck rejudged;
    rejudged.rejudged = true;
    EXPECT_TRUE(ReadsInputScales(rejudged, p)) << p.ToString();
  }
}

// CheckAgainstReference marks the checks it re-judges, and only those.
TEST(OutputCheckTest, ReferenceMarksTheChecksItRejudges) {
  const at::Tensor want = TensorOf({2.0f, 1000.0f}, at::kFloat);
  const RoundingReference ref{want.to(at::kDouble), 0.05};
  const CheckContext context{DefaultTolerance(at::kFloat), Epsilon(at::kFloat)};
  std::vector<at::Tensor> locals = {want.clone(), want.clone()};
  const Placement r = Placement::Replicate();
  EXPECT_FALSE(CheckAgainstReference(want, locals, r, context, ref,
                                     CheckOutput(want, locals, r, context)).rejudged);
  locals[0][0] = 2.0003f;
  const OutputCheck plain = CheckOutput(want, locals, r, context);
  ASSERT_FALSE(plain.ok);
  EXPECT_FALSE(plain.rejudged);
  const OutputCheck again = CheckAgainstReference(want, locals, r, context, ref, plain);
  EXPECT_TRUE(again.ok);
  EXPECT_TRUE(again.rejudged);
}

// The one-pass Partial check (fused_partial.h) against the ATen path
// (reference_paths): the same verdict, largest difference, rank and first
// mismatch for every dtype it covers, every reduction, W = 2, 3, 4, locals
// contiguous, transposed, broadcast (stride 0) and conjugated, and a full
// output that matches, is off at one element, or holds inf and NaN
// (contiguous or transposed).
TEST(OutputCheckTest, FusedPartialAgreesWithTheATenPath) {
  ManualSeed(11);
  const std::vector<at::ScalarType> dtypes = {
      at::kFloat, at::kDouble, at::kHalf, at::kBFloat16, at::kComplexFloat, at::kComplexDouble,
      at::kLong,  at::kInt,    at::kShort, at::kChar,    at::kByte,         at::kBool};
  const std::vector<ReduceOp> ops = {ReduceOp::kSum, ReduceOp::kAvg, ReduceOp::kMax,
                                     ReduceOp::kMin, ReduceOp::kProduct};
  // A [5, 3] tensor of `t` in one of four layouts.
  auto draw = [](at::ScalarType t, int layout) {
    auto values = [&](std::vector<int64_t> shape) {
      if (t == at::kBool) return Randint(0, 2, shape).to(at::kBool);
      if (t == at::kByte) return Randint(0, 256, shape).to(t);
      if (at::isIntegralType(t, false)) return Randint(-40, 40, shape).to(t);
      return Randn(shape, at::TensorOptions().dtype(t));
    };
    switch (layout) {
      case 1: return values({3, 5}).t();                  // transposed
      case 2: return values({1, 3}).expand({5, 3});       // broadcast
      case 3: return c10::isComplexType(t) ? values({5, 3}).conj() : values({5, 3}).t().t();
      default: return values({5, 3});
    }
  };
  int compared = 0, failing = 0;
  for (at::ScalarType t : dtypes) {
    const bool complex = c10::isComplexType(t);
    for (ReduceOp op : ops) {
      if (complex && (op == ReduceOp::kMax || op == ReduceOp::kMin)) continue;  // no order
      const Placement p = Placement::Partial(op);
      for (int w : {2, 3, 4}) {
        for (int layout = 0; layout < 4; ++layout) {
          std::vector<at::Tensor> locals;
          for (int r = 0; r < w; ++r) locals.push_back(draw(t, (layout + r) % 4));
          // The exact reduction in the output's dtype, then three variants.
          at::Tensor exact = ReducePartial(locals, p).to(t).contiguous();
          std::vector<at::Tensor> fulls = {exact, exact.clone(), exact.clone()};
          fulls[1].view(-1)[4] = t == at::kBool ? at::Scalar(true) : at::Scalar(3);
          if (at::isFloatingType(t) || complex) {
            fulls[2].view(-1)[1] = at::Scalar(INFINITY);
            fulls[2].view(-1)[7] = at::Scalar(NAN);
          }
          fulls.push_back(fulls[2].t().contiguous().t());  // the same values, transposed
          for (const at::Tensor& full : fulls) {
            CheckContext fused{DefaultTolerance(t), Epsilon(t)};
            fused.input_scale = 0.25;
            CheckContext aten = fused;
            aten.reference_paths = true;
            const OutputCheck a = CheckOutput(full, locals, p, fused);
            const OutputCheck b = CheckOutput(full, locals, p, aten);
            const std::string where = absl::StrCat(c10::toString(t), " ", p.ToString(), " W=", w,
                                                   " layout ", layout);
            EXPECT_EQ(a.ok, b.ok) << where << ": " << b.detail;
            EXPECT_EQ(a.rank, b.rank) << where;
            EXPECT_EQ(a.detail, b.detail) << where;
            if (!(std::isnan(a.max_abs_diff) && std::isnan(b.max_abs_diff))) {
              EXPECT_EQ(a.max_abs_diff, b.max_abs_diff) << where;
            }
            ++compared;
            failing += !b.ok;
          }
        }
      }
    }
  }
  // The variants did exercise both outcomes.
  EXPECT_GT(failing, compared / 4);
  EXPECT_LT(failing, compared);
}

}  // namespace
}  // namespace shrt
