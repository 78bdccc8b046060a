#include "shrt/strategies/partial_algebra.h"

#include "gtest/gtest.h"

namespace shrt {
namespace {

using c10::ScalarType;

TEST(ConversionKeepsTest, SameDtypeKeepsEveryReduction) {
  for (ReduceOp op : kAllReduceOps) EXPECT_TRUE(ConversionKeeps(ScalarType::Int, ScalarType::Int, op));
}

TEST(ConversionKeepsTest, BoolNeverKeeps) {
  EXPECT_FALSE(ConversionKeeps(ScalarType::Bool, ScalarType::Float, ReduceOp::kMax));
  EXPECT_FALSE(ConversionKeeps(ScalarType::Float, ScalarType::Bool, ReduceOp::kMax));
}

TEST(ConversionKeepsTest, FloatConversions) {
  // Widening keeps every reduction: the parts' float32 rounding is the
  // computation's precision (DESIGN.md §3).
  EXPECT_TRUE(ConversionKeeps(ScalarType::Float, ScalarType::Double, ReduceOp::kMax));
  EXPECT_TRUE(ConversionKeeps(ScalarType::Float, ScalarType::Double, ReduceOp::kSum));
  // Narrowing, and int -> float, keep all.
  EXPECT_TRUE(ConversionKeeps(ScalarType::Double, ScalarType::Float, ReduceOp::kSum));
  EXPECT_TRUE(ConversionKeeps(ScalarType::Long, ScalarType::Float, ReduceOp::kSum));
  // float -> int truncates each part: 0.5 + 0.5 = 1 but 0 + 0 = 0.
  EXPECT_FALSE(ConversionKeeps(ScalarType::Float, ScalarType::Long, ReduceOp::kSum));
  EXPECT_TRUE(ConversionKeeps(ScalarType::Float, ScalarType::Long, ReduceOp::kMin));
}

TEST(ConversionKeepsTest, IntegerConversions) {
  EXPECT_TRUE(ConversionKeeps(ScalarType::Int, ScalarType::Long, ReduceOp::kMax));
  EXPECT_TRUE(ConversionKeeps(ScalarType::Byte, ScalarType::Int, ReduceOp::kAvg));
  // Narrowing wraps: a ring homomorphism (sum, product), not monotone.
  EXPECT_TRUE(ConversionKeeps(ScalarType::Long, ScalarType::Int, ReduceOp::kSum));
  EXPECT_TRUE(ConversionKeeps(ScalarType::Long, ScalarType::Int, ReduceOp::kProduct));
  EXPECT_FALSE(ConversionKeeps(ScalarType::Long, ScalarType::Int, ReduceOp::kMax));
  // Signed -> unsigned of any width wraps negatives.
  EXPECT_FALSE(ConversionKeeps(ScalarType::Char, ScalarType::Byte, ReduceOp::kMin));
  EXPECT_TRUE(ConversionKeeps(ScalarType::Char, ScalarType::Byte, ReduceOp::kSum));
}

TEST(ConstantKeepsTest, ByReduction) {
  for (ReduceOp op : kIdempotentReduceOps) {
    EXPECT_TRUE(ConstantKeeps(3.5, op));
    EXPECT_TRUE(ConstantKeeps(std::nullopt, op));
  }
  EXPECT_TRUE(ConstantKeeps(0.0, ReduceOp::kSum));
  EXPECT_FALSE(ConstantKeeps(1.0, ReduceOp::kSum));
  EXPECT_FALSE(ConstantKeeps(std::nullopt, ReduceOp::kSum));
  EXPECT_TRUE(ConstantKeeps(1.0, ReduceOp::kProduct));
  EXPECT_TRUE(ConstantKeeps(0.0, ReduceOp::kProduct));
  EXPECT_FALSE(ConstantKeeps(2.0, ReduceOp::kProduct));
}

}  // namespace
}  // namespace shrt
