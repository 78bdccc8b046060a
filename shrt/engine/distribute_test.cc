#include "shrt/engine/distribute.h"

#include <cmath>
#include <set>

#include "ATen/TensorOperators.h"
#include "ATen/core/Tensor.h"
#include "ATen/ops/abs.h"
#include "ATen/ops/all.h"
#include "ATen/ops/allclose.h"
#include "ATen/ops/arange.h"
#include "ATen/ops/complex.h"
#include "ATen/ops/div.h"
#include "ATen/ops/equal.h"
#include "ATen/ops/full.h"
#include "ATen/ops/imag.h"
#include "ATen/ops/isfinite.h"
#include "ATen/ops/logical_not.h"
#include "ATen/ops/ones.h"
#include "ATen/ops/pow.h"
#include "ATen/ops/randn.h"
#include "ATen/ops/real.h"
#include "ATen/ops/tensor.h"
#include "ATen/ops/zeros.h"
#include "ATen/ops/zeros_like.h"
#include "gtest/gtest.h"
#include "shrt/spec/generators.h"

namespace shrt {
namespace {

at::Tensor Arange(std::vector<int64_t> shape, at::ScalarType dtype = at::kFloat) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return (at::arange(n, at::kDouble) - n / 3.0).reshape(shape).to(dtype);
}

// An overload that writes its inputs gets them in a buffer of their own,
// whatever layout the tensor they come from already has: with WithLayout
// alone, a local already TRANSPOSED came back as a view of itself, and an
// in-place write would have changed the cached local for later tuples.
TEST(DistributeTest, PrivateWithLayoutNeverSharesTheBuffer) {
  for (const Layout layout : {CONTIGUOUS, TRANSPOSED, STRIDED}) {
    for (const at::Tensor& t : {at::randn({4, 6}), at::randn({5}), at::randn({})}) {
      const at::Tensor laid = WithLayout(t, layout);
      for (const at::Tensor& from : {t, laid}) {
        const at::Tensor own = PrivateWithLayout(from, layout);
        EXPECT_FALSE(own.storage().is_alias_of(from.storage())) << layout << " " << t.sizes();
        EXPECT_TRUE(at::equal(own, from)) << layout << " " << t.sizes();
        EXPECT_EQ(own.strides(), laid.strides()) << layout << " " << t.sizes();
      }
    }
  }
}

TEST(DistributeTest, ReplicateGivesIndependentCopies) {
  const at::Tensor x = Arange({3, 4});
  std::vector<at::Tensor> locals = Distribute(x, Placement::Replicate(), 4, 0);
  ASSERT_EQ(locals.size(), 4u);
  std::set<const void*> storages = {x.data_ptr()};
  for (const at::Tensor& l : locals) {
    EXPECT_TRUE(at::equal(l, x));
    EXPECT_TRUE(storages.insert(l.data_ptr()).second) << "ranks share storage";
  }
}

TEST(DistributeTest, ShardFollowsChunkLayoutWithEmptyTail) {
  const at::Tensor x = Arange({5, 3});
  std::vector<at::Tensor> locals = Distribute(x, Placement::Shard(0), 4, 0);
  const int64_t rows[] = {2, 2, 1, 0};
  for (int r = 0; r < 4; ++r) {
    EXPECT_EQ(locals[r].sizes(), (std::vector<int64_t>{rows[r], 3})) << r;
    EXPECT_TRUE(locals[r].is_contiguous());
  }
  EXPECT_TRUE(at::equal(locals[1], x.narrow(0, 2, 2)));
  // Sharding a non-leading dim copies, so ranks never alias the full tensor.
  std::vector<at::Tensor> cols = Distribute(x, Placement::Shard(1), 3, 0);
  for (int r = 0; r < 3; ++r) EXPECT_EQ(cols[r].sizes(), (std::vector<int64_t>{5, 1}));
}

TEST(DistributeTest, BoolGetsNoPartialCandidates) {
  for (const Placement& p : CandidatePlacements(2, at::kBool)) EXPECT_FALSE(p.is_partial());
  EXPECT_EQ(CandidatePlacements(2, at::kFloat).size(), 1u + 2u + 5u);
  EXPECT_EQ(CandidatePlacements(0, at::kFloat).size(), 1u + 5u);
  EXPECT_FALSE(PlacementApplies(Placement::Partial(ReduceOp::kAvg), 1, at::kChar));
  EXPECT_TRUE(PlacementApplies(Placement::Partial(ReduceOp::kAvg), 1, at::kLong));
}

TEST(DistributeTest, ComplexTakesOnlySumAndAvgPartials) {
  const std::vector<Placement> c = CandidatePlacements(1, at::kComplexFloat);
  EXPECT_EQ(c.size(), 1u + 1u + 2u);
  EXPECT_TRUE(PlacementApplies(Placement::Partial(ReduceOp::kSum), 1, at::kComplexDouble));
  EXPECT_FALSE(PlacementApplies(Placement::Partial(ReduceOp::kMax), 1, at::kComplexFloat));
  EXPECT_FALSE(PlacementApplies(Placement::Partial(ReduceOp::kProduct), 1, at::kComplexFloat));
}

TEST(DistributeTest, ComplexPartsAreComplexAndSumBack) {
  const at::Tensor x = at::complex(Arange({4, 5}), Arange({4, 5}) * 0.5 + 1);
  for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kAvg}) {
    std::vector<at::Tensor> parts = Distribute(x, Placement::Partial(op), 3, 7);
    ASSERT_EQ(parts.size(), 3u);
    for (const at::Tensor& part : parts) {
      EXPECT_EQ(part.scalar_type(), at::kComplexFloat);
      EXPECT_EQ(part.sizes(), x.sizes());
      // Both the real and the imaginary parts are split, not one of them.
      EXPECT_FALSE(at::allclose(at::real(part), at::real(x)));
      EXPECT_FALSE(at::allclose(at::imag(part), at::imag(x)));
    }
    const at::Tensor reduced = ReducePartial(parts, Placement::Partial(op));
    EXPECT_EQ(reduced.scalar_type(), at::kComplexDouble);
    EXPECT_TRUE(at::allclose(reduced, x.to(at::kComplexDouble), 1e-5, 1e-4));
  }
}

class PartialTest : public ::testing::TestWithParam<std::tuple<ReduceOp, at::ScalarType, int>> {};

TEST_P(PartialTest, PartsReduceBackAndAreNotUniform) {
  const auto [op, dtype, w] = GetParam();
  const at::Tensor x = Arange({4, 5}, dtype);
  std::vector<at::Tensor> a = Distribute(x, Placement::Partial(op), w, 1);
  std::vector<at::Tensor> b = Distribute(x, Placement::Partial(op), w, 2);
  ASSERT_EQ(static_cast<int>(a.size()), w);
  const at::Tensor reduced = ReducePartial(a, Placement::Partial(op));
  if (at::isFloatingType(dtype)) {
    EXPECT_TRUE(at::allclose(reduced.to(at::kDouble), x.to(at::kDouble), 1e-5, 1e-4))
        << ReduceOpName(op);
  } else {
    EXPECT_TRUE(at::equal(reduced.to(at::kLong), x.to(at::kLong))) << ReduceOpName(op);
  }
  for (int r = 0; r < w; ++r) {
    EXPECT_EQ(a[r].scalar_type(), dtype);
    EXPECT_EQ(a[r].sizes(), x.sizes());
    // Never the full value on every element, never a uniform split, and a
    // different draw with another seed.
    EXPECT_FALSE(at::equal(a[r], x)) << "rank " << r;
    if (at::isFloatingType(dtype)) {
      EXPECT_FALSE(at::allclose(a[r], at::div(x, w))) << "rank " << r;
    }
    EXPECT_FALSE(at::equal(a[r], b[r])) << "rank " << r;
  }
}

INSTANTIATE_TEST_SUITE_P(
    AllOps, PartialTest,
    ::testing::Combine(::testing::Values(ReduceOp::kSum, ReduceOp::kAvg, ReduceOp::kMax,
                                         ReduceOp::kMin, ReduceOp::kProduct),
                       ::testing::Values(at::kFloat, at::kDouble, at::kLong, at::kInt),
                       ::testing::Values(2, 3, 4, 8)));

// _NormP(p), DTensor's _NormPartial (torch/distributed/tensor/_ops/
// _math_ops.py): the value is (sum_r x_r ** p) ** (1 / p).
TEST(NormPartialTest, PartsReduceBackAsDTensorReducesThem) {
  const at::Tensor x = at::abs(Arange({4, 5}, at::kDouble));  // a norm's values: >= 0
  for (double p : {1.0, 2.0, 3.0, 0.5, -1.0}) {
    for (int w : {2, 3, 4}) {
      const Placement norm = Placement::NormPartial(p);
      std::vector<at::Tensor> parts = Distribute(x, norm, w, 5);
      ASSERT_EQ(static_cast<int>(parts.size()), w);
      // DTensor's reduction, written out: x ** p, all-reduce sum, ** (1/p).
      at::Tensor sum = at::zeros_like(x);
      for (const at::Tensor& part : parts) {
        EXPECT_EQ(part.sizes(), x.sizes());
        EXPECT_TRUE(at::all(part >= 0).item<bool>()) << p;
        EXPECT_FALSE(at::allclose(part, x)) << p;
        sum = sum + at::pow(part, p);
      }
      EXPECT_TRUE(at::allclose(at::pow(sum, 1 / p), x, 1e-9, 1e-9)) << p << " W=" << w;
      EXPECT_TRUE(at::allclose(ReducePartial(parts, norm), x, 1e-9, 1e-9)) << p << " W=" << w;
      // Not DTensor's even split x / W ** (1/p): the parts vary per element.
      EXPECT_FALSE(at::allclose(parts[0], x / std::pow(w, 1 / p))) << p;
    }
  }
}

TEST(NormPartialTest, IsNotAPlainSumAndKeepsNoSignUnderAnEvenP) {
  const at::Tensor a = at::full({3}, 3.0, at::kDouble), b = at::full({3}, 4.0, at::kDouble);
  // 2-norm of (3, 4) is 5; a P(sum) of the same parts would be 7.
  EXPECT_TRUE(at::allclose(ReducePartial({a, b}, Placement::NormPartial(2)),
                           at::full({3}, 5.0, at::kDouble)));
  EXPECT_TRUE(at::allclose(ReducePartial({-a, b}, Placement::NormPartial(2)),
                           at::full({3}, 5.0, at::kDouble)));
  EXPECT_TRUE(PlacementApplies(Placement::NormPartial(2), 2, at::kFloat));
  EXPECT_FALSE(PlacementApplies(Placement::NormPartial(2), 2, at::kLong));
  EXPECT_FALSE(PlacementApplies(Placement::NormPartial(2), 2, at::kComplexFloat));
}

// _MaskP(sum, n), DTensor's _MaskPartial (placement_types.py):
// _partition_value on an index input, MaskBuffer.apply_mask on an output.
TEST(MaskPartialTest, IndicesAreShiftedIntoEachRanksRangeOrZeroed) {
  const at::Tensor index = at::tensor({0, 3, 4, 7, 9, 2}, at::kLong);
  const Placement p = Placement::MaskPartial(ReduceOp::kSum, 10);  // W=3: [0,4) [4,8) [8,10)
  const std::vector<at::Tensor> locals = Distribute(index, p, 3, 0);
  ASSERT_EQ(locals.size(), 3u);
  EXPECT_TRUE(at::equal(locals[0], at::tensor({0, 3, 0, 0, 0, 2}, at::kLong)));
  EXPECT_TRUE(at::equal(locals[1], at::tensor({0, 0, 0, 3, 0, 0}, at::kLong)));
  EXPECT_TRUE(at::equal(locals[2], at::tensor({0, 0, 0, 0, 1, 0}, at::kLong)));
  EXPECT_TRUE(at::equal(MaskOf(index, p, 3, 1),
                        at::tensor({1, 1, 0, 0, 1, 1}, at::kLong).to(at::kBool)));
  // Every index is in exactly one rank's range.
  at::Tensor kept = at::zeros({6}, at::kLong);
  for (int r = 0; r < 3; ++r) kept = kept + at::logical_not(MaskOf(index, p, 3, r)).to(at::kLong);
  EXPECT_TRUE(at::equal(kept, at::ones({6}, at::kLong)));
  EXPECT_TRUE(PlacementApplies(p, 1, at::kLong));
  EXPECT_FALSE(PlacementApplies(p, 1, at::kBool));
}

TEST(MaskPartialTest, ApplyMaskZeroesElementsOrWholeRows) {
  const at::Tensor mask = at::tensor({1, 0}, at::kLong).to(at::kBool);
  EXPECT_TRUE(at::equal(ApplyMask(at::tensor({5.0, 6.0}), mask), at::tensor({0.0, 6.0})));
  const at::Tensor rows = at::ones({2, 3});
  const at::Tensor masked = ApplyMask(rows, mask);
  EXPECT_TRUE(at::equal(masked[0], at::zeros({3})));
  EXPECT_TRUE(at::equal(masked[1], at::ones({3})));
  EXPECT_TRUE(at::equal(rows, at::ones({2, 3})));  // a new tensor
}

TEST(PartialTest, SmallIntegersWrapBackExactly) {
  const at::Tensor x = Arange({6}, at::kChar) * 20;  // values near int8's range
  for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kMax, ReduceOp::kMin, ReduceOp::kProduct}) {
    std::vector<at::Tensor> parts = Distribute(x, Placement::Partial(op), 4, 3);
    EXPECT_TRUE(at::equal(ReducePartial(parts, Placement::Partial(op)), x)) << ReduceOpName(op);
  }
}

TEST(PartialTest, MaxPartsAreBoundedAttainedAndVaryTheirRank) {
  const at::Tensor x = at::randn({64});
  std::vector<at::Tensor> parts = Distribute(x, Placement::Partial(ReduceOp::kMax), 4, 7);
  std::set<int> attaining;
  const double range = (x.max() - x.min()).item<double>();
  for (int64_t e = 0; e < x.numel(); ++e) {
    int holders = 0;
    for (int r = 0; r < 4; ++r) {
      const float v = parts[r][e].item<float>(), want = x[e].item<float>();
      EXPECT_LE(v, want);
      if (v == want) {
        ++holders;
        attaining.insert(r);
      } else {
        EXPECT_GE(want - v, 0.4 * range) << "gap too small";
      }
    }
    EXPECT_GE(holders, 1);
  }
  EXPECT_EQ(attaining.size(), 4u) << "the attaining rank should vary over elements";
}

TEST(PartialTest, ReportsTheLargestFinitePart) {
  const at::Tensor x = at::tensor(std::vector<float>{1, NAN, 3});
  double scale = 0;
  std::vector<at::Tensor> parts = Distribute(x, Placement::Partial(ReduceOp::kSum), 4, 5, &scale);
  double want = 0;
  for (const at::Tensor& p : parts) {
    const at::Tensor finite = p.masked_select(at::isfinite(p));
    want = std::max(want, finite.abs().max().item<double>());
  }
  EXPECT_NEAR(scale, want, 1e-5 * want);
  EXPECT_TRUE(std::isfinite(scale));
  double untouched = 7;
  Distribute(x, Placement::Shard(0), 4, 5, &untouched);
  EXPECT_EQ(untouched, 7);
}

TEST(PartialTest, SumPartsHaveMixedSigns) {
  const at::Tensor x = at::ones({100});
  std::vector<at::Tensor> parts = Distribute(x, Placement::Partial(ReduceOp::kSum), 4, 9);
  for (int r = 0; r < 4; ++r) {
    EXPECT_GT((parts[r] < 0).sum().item<int64_t>(), 10) << r;
    EXPECT_GT((parts[r] > 0).sum().item<int64_t>(), 10) << r;
  }
}

}  // namespace
}  // namespace shrt
