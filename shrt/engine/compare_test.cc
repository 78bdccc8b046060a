#include "shrt/engine/compare.h"

#include <cmath>

#include "ATen/core/Tensor.h"
#include "gtest/gtest.h"
#include "shrt/engine/test_tensors.h"

namespace shrt {
namespace {

at::Tensor F(std::vector<double> v) { return TensorOf(v, at::kFloat); }

TEST(CompareTest, TorchTestingDefaults) {
  EXPECT_DOUBLE_EQ(DefaultTolerance(at::kFloat).rtol, 1.3e-6);
  EXPECT_DOUBLE_EQ(DefaultTolerance(at::kFloat).atol, 1e-5);
  EXPECT_DOUBLE_EQ(DefaultTolerance(at::kDouble).atol, 1e-7);
  EXPECT_DOUBLE_EQ(DefaultTolerance(at::kHalf).rtol, 1e-3);
  EXPECT_DOUBLE_EQ(DefaultTolerance(at::kLong).rtol, 0);
}

TEST(CompareTest, FloatsWithinTolerance) {
  const Tolerance tol = DefaultTolerance(at::kFloat);
  EXPECT_TRUE(CompareTensors(F({1.0f, 100.0f}), F({1.000001f, 100.0001f}), tol).equal);
  Comparison c = CompareTensors(F({1.0f, 2.0f}), F({1.0f, 2.5f}), tol);
  EXPECT_FALSE(c.equal);
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_NEAR(c.max_abs_diff, 0.5, 1e-6);
  EXPECT_NE(c.detail.find("[1]"), std::string::npos) << c.detail;
}

TEST(CompareTest, NanEqualsNanInTheSamePlaceOnly) {
  const Tolerance tol = DefaultTolerance(at::kFloat);
  EXPECT_TRUE(CompareTensors(F({NAN, 1}), F({NAN, 1}), tol).equal);
  EXPECT_FALSE(CompareTensors(F({NAN, 1}), F({1, NAN}), tol).equal);
  EXPECT_TRUE(CompareTensors(F({INFINITY}), F({INFINITY}), tol).equal);
  EXPECT_FALSE(CompareTensors(F({INFINITY}), F({-INFINITY}), tol).equal);
}

TEST(CompareTest, ComplexComparesRealAndImaginaryParts) {
  const at::Tensor e = Complex(Arange(6, at::kFloat), Arange(6, at::kFloat).add(10));
  EXPECT_EQ(DefaultTolerance(at::kComplexFloat).rtol, DefaultTolerance(at::kFloat).rtol);
  EXPECT_EQ(Epsilon(at::kComplexDouble), Epsilon(at::kDouble));
  EXPECT_TRUE(CompareTensors(e.clone(), e, DefaultTolerance(at::kFloat)).equal);
  // An error in the imaginary part alone is found, and named by its place
  // in the real view (trailing index 1).
  at::Tensor a = e.clone();
  Imag(a)[4] += 1e-3;
  const Comparison c = CompareTensors(a, e, DefaultTolerance(at::kFloat));
  EXPECT_FALSE(c.equal);
  EXPECT_NEAR(c.max_abs_diff, 1e-3, 1e-6);
  EXPECT_NE(c.detail.find("at [4, 1]"), std::string::npos) << c.detail;
  // A complex128 reduction against a complex64 expectation, with slack.
  const at::Tensor slack = Full({6}, 2e-3, at::kDouble);
  EXPECT_TRUE(CompareTensors(a.to(at::kComplexDouble), e, DefaultTolerance(at::kFloat), slack).equal);
}

TEST(CompareTest, IntegersAreExact) {
  const at::Tensor a = TensorOf({1, 2, 3}, at::kLong);
  const at::Tensor b = TensorOf({1, 2, 4}, at::kLong);
  EXPECT_TRUE(CompareTensors(a, a.clone(), DefaultTolerance(at::kLong)).equal);
  EXPECT_FALSE(CompareTensors(a, b, DefaultTolerance(at::kLong)).equal);
}

TEST(CompareTest, ShapeMismatchIsUnequalAndMixedDtypesCompareAsDoubles) {
  const Tolerance tol = DefaultTolerance(at::kFloat);
  Comparison c = CompareTensors(F({1, 2}), F({1, 2, 3}), tol);
  EXPECT_FALSE(c.equal);
  EXPECT_NE(c.detail.find("shape"), std::string::npos);
  // An integer P(avg) reduction (float64) against an integer expectation.
  EXPECT_TRUE(CompareTensors(F({3}).to(at::kDouble), TensorOf({3}, at::kLong),
                             DefaultTolerance(at::kLong)).equal);
  EXPECT_FALSE(CompareTensors(F({3.5}).to(at::kDouble), TensorOf({3}, at::kLong),
                              DefaultTolerance(at::kLong)).equal);
  // A float64 reduction may be compared with a float32 expectation.
  EXPECT_TRUE(CompareTensors(F({1, 2}).to(at::kDouble), F({1, 2}), tol).equal);
}

TEST(CompareTest, SlackWidensTheAllowancePerElement) {
  const Tolerance tol = DefaultTolerance(at::kFloat);
  const at::Tensor slack = TensorOf({0.0, 1.0}, at::kDouble);
  EXPECT_TRUE(CompareTensors(F({1, 2.5}), F({1, 2}), tol, slack).equal);
  EXPECT_FALSE(CompareTensors(F({1.5, 2}), F({1, 2}), tol, slack).equal);
}

TEST(CompareTest, ChunkMatchesComparingTheNarrowedView) {
  const at::Tensor full = Arange(60, at::kFloat).reshape({3, 4, 5});
  for (at::ScalarType dt : {at::kFloat, at::kDouble, at::kLong, at::kBool}) {
    const at::Tensor f = full.to(dt);
    const Tolerance tol = DefaultTolerance(dt);
    for (int64_t dim = 0; dim < 3; ++dim) {
      const int64_t begin = 1, len = 2;
      at::Tensor chunk = f.narrow(dim, begin, len).contiguous();
      std::optional<Comparison> same = CompareChunk(chunk, f, dim, begin, tol);
      ASSERT_TRUE(same.has_value());
      EXPECT_TRUE(same->equal);
      // One wrong element: the same verdict, difference and detail as the
      // narrowed view gives.
      chunk.view({-1})[7] = dt == at::kBool ? at::Scalar(false) : at::Scalar(-1);
      std::optional<Comparison> fast = CompareChunk(chunk, f, dim, begin, tol);
      const Comparison slow = CompareTensors(chunk, f.narrow(dim, begin, len), tol);
      ASSERT_TRUE(fast.has_value());
      EXPECT_EQ(fast->equal, slow.equal) << dt << " dim " << dim;
      EXPECT_EQ(fast->mismatches, slow.mismatches);
      EXPECT_EQ(fast->max_abs_diff, slow.max_abs_diff);
      EXPECT_EQ(fast->detail, slow.detail);
    }
  }
  // Preconditions not met: the caller falls back to CompareTensors.
  const at::Tensor f = full.to(at::kFloat);
  EXPECT_FALSE(CompareChunk(f.narrow(1, 0, 2), f, 1, 0, {}).has_value());  // not contiguous
  EXPECT_FALSE(CompareChunk(f.narrow(1, 0, 2).contiguous(), f, 1, 3, {}).has_value());
  EXPECT_FALSE(CompareChunk(f.narrow(1, 0, 2).contiguous().to(at::kDouble), f, 1, 0, {})
                   .has_value());
}

}  // namespace
}  // namespace shrt
