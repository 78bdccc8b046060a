#include "shrt/engine/tensor_bytes.h"

#include "ATen/core/Tensor.h"
#include "gtest/gtest.h"
#include "shrt/engine/test_tensors.h"

namespace shrt {
namespace {

TEST(TensorBytesTest, SameContentSameKeyAndSame) {
  const at::Tensor a = Arange(12, at::kFloat).reshape({3, 4});
  const at::Tensor b = a.clone();
  EXPECT_TRUE(SameBytes(a, b));
  EXPECT_EQ(BytesKey(a), BytesKey(b));
  // A view reads only what its strides reach: the same column twice.
  EXPECT_TRUE(SameBytes(a.narrow(1, 1, 1), b.narrow(1, 1, 1)));
  EXPECT_EQ(BytesKey(a.narrow(1, 1, 1)), BytesKey(b.narrow(1, 1, 1)));
  // Broadcast views (stride 0), as expand_as returns.
  EXPECT_TRUE(SameBytes(a[0].expand({5, 4}), b[0].expand({5, 4})));
  EXPECT_TRUE(SameBytes(at::Tensor(), at::Tensor()));
  EXPECT_EQ(BytesKey(at::Tensor()), BytesKey(at::Tensor()));
  EXPECT_TRUE(SameBytes(Empty({0, 3}), Empty({0, 3})));
}

TEST(TensorBytesTest, AnyDifferenceIsDifferent) {
  const at::Tensor a = Arange(12, at::kFloat).reshape({3, 4});
  at::Tensor changed = a.clone();
  changed[2][3] = 100;
  EXPECT_FALSE(SameBytes(a, changed));
  EXPECT_NE(BytesKey(a), BytesKey(changed));
  EXPECT_FALSE(SameBytes(a, a.to(at::kDouble)));                    // dtype
  EXPECT_FALSE(SameBytes(a, a.reshape({4, 3})));                    // sizes
  EXPECT_FALSE(SameBytes(a, a.t().contiguous().t()));               // strides, same values
  EXPECT_FALSE(SameBytes(Zeros({2}), Zeros({2}).neg()));    // -0.0 is not 0.0
  EXPECT_FALSE(SameBytes(a, at::Tensor()));
  EXPECT_NE(BytesKey(Zeros({2})), BytesKey(Zeros({3})));
}

TEST(TensorBytesTest, SparseIsNotRead) {
  const at::Tensor s = Eye(3).to_sparse();
  EXPECT_FALSE(BytesKey(s).has_value());
  EXPECT_FALSE(SameBytes(s, s));
}

}  // namespace
}  // namespace shrt
