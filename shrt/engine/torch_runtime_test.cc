#include "shrt/engine/torch_runtime.h"

#include <cmath>
#include <cstdint>
#include <limits>

#include "ATen/Context.h"
#include "ATen/Parallel.h"
#include "ATen/core/Tensor.h"
#include "ATen/ops/binary_cross_entropy_backward.h"
#include "ATen/ops/empty.h"
#include "ATen/ops/full.h"
#include "ATen/ops/ones.h"
#include "ATen/ops/rand.h"
#include "ATen/ops/zeros.h"
#include "c10/util/Exception.h"
#include "gtest/gtest.h"

namespace shrt {
namespace {

TEST(TorchRuntimeTest, OneIntraOpThread) {
  UseGroundTruthRuntime();
  EXPECT_EQ(at::get_num_threads(), 1);
}

// A TORCH_WARN_ONCE site, as an operator's kernel has one.
void WarnOnce() { TORCH_WARN_ONCE("a warning meant once per process"); }

class CountingHandler : public c10::WarningHandler {
 public:
  void process(const c10::Warning&) override { ++count; }
  int count = 0;
};

TEST(TorchRuntimeTest, EveryWarningAtEveryCall) {
  UseGroundTruthRuntime();
  CountingHandler handler;
  c10::WarningUtils::WarningHandlerGuard guard(&handler);
  for (int i = 0; i < 3; ++i) WarnOnce();
  EXPECT_EQ(handler.count, 3);
}

TEST(TorchRuntimeTest, BytesPastEveryBufferAreFixed) {
  UseGroundTruthRuntime();
  // Twice: the second round's small buffers are the first round's, reused
  // from the pool after every byte of them was written; 100,000 floats are
  // past the pooled sizes.
  for (int round = 0; round < 2; ++round) {
    for (int64_t n : {0, 1, 5, 1000, 100000}) {
      at::Tensor t = at::empty({n}, at::kFloat);
      t.fill_(round + 1.0f);
      const auto* past = reinterpret_cast<const unsigned char*>(t.data_ptr<float>() + n);
      for (size_t b = 0; b < kAllocationGuardBytes; ++b) {
        ASSERT_EQ(past[b], 0xFF) << round << " " << n << " " << b;
      }
      // Read as the tensor's dtype, past its end: NaN.
      EXPECT_TRUE(std::isnan(t.data_ptr<float>()[n])) << n;
      EXPECT_EQ(reinterpret_cast<uintptr_t>(t.data_ptr()) % 64, 0u) << n;
    }
  }
}

TEST(TorchRuntimeTest, UninitialisedMemoryIsNaNOrTheLargestValue) {
  UseGroundTruthRuntime();
  UseGroundTruthRuntime();  // idempotent
  EXPECT_TRUE(at::empty({64}, at::kFloat).isnan().all().item<bool>());
  EXPECT_TRUE(at::empty({64}, at::kDouble).isnan().all().item<bool>());
  EXPECT_TRUE(
      at::empty({64}, at::kLong).eq(std::numeric_limits<int64_t>::max()).all().item<bool>());
  at::Tensor grown = at::zeros({2}, at::kFloat);
  grown.resize_({64});
  EXPECT_TRUE(grown.slice(0, 2).isnan().all().item<bool>());
}

TEST(TorchRuntimeTest, UnfilledScopesNestAndRestoreTheFill) {
  UseGroundTruthRuntime();
  {
    UnfilledScope outer;
    EXPECT_FALSE(at::globalContext().deterministicFillUninitializedMemory());
    {
      UnfilledScope inner;
      EXPECT_FALSE(at::globalContext().deterministicFillUninitializedMemory());
    }
    EXPECT_FALSE(at::globalContext().deterministicFillUninitializedMemory());
  }
  EXPECT_TRUE(at::globalContext().deterministicFillUninitializedMemory());
  EXPECT_TRUE(at::empty({64}, at::kFloat).isnan().all().item<bool>());
}

// The kernel that made a rule's verdict depend on the heap (torch 2.13,
// torch_runtime.h): with a target that broadcasts to no elements,
// aten::binary_cross_entropy_backward returns a self-shaped tensor it never
// wrote. Under the ground-truth runtime every element is NaN, so the sum
// of such a rank's output with any other can never match.
TEST(TorchRuntimeTest, AnOutputTheKernelDoesNotWriteIsNaN) {
  UseGroundTruthRuntime();
  for (int run = 0; run < 8; ++run) {
    at::Tensor self = at::full({1, 3, 5}, 0.5);
    at::Tensor out = at::binary_cross_entropy_backward(at::ones({1, 3, 5}), self,
                                                        at::rand({0, 3, 5}), at::ones({1, 3, 5}),
                                                        /*reduction=*/0);
    ASSERT_EQ(out.sizes(), self.sizes());
    EXPECT_TRUE(out.isnan().all().item<bool>()) << out;
  }
}

}  // namespace
}  // namespace shrt
