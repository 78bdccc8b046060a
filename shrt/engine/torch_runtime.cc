#include "shrt/engine/torch_runtime.h"

#include <cstdlib>
#include <cstring>
#include <new>

#include "ATen/Context.h"
#include "ATen/Parallel.h"
#include "absl/base/call_once.h"
#include "c10/core/CPUAllocator.h"
#include "c10/util/Exception.h"

namespace shrt {
namespace {

// libtorch's CPU allocations with kAllocationGuardBytes of 0xFF after each
// (torch_runtime.h); 64-byte aligned, as c10's default CPU allocator.
class GuardedCpuAllocator final : public c10::Allocator {
 public:
  c10::DataPtr allocate(size_t n) override {
    void* data = nullptr;
    if (posix_memalign(&data, 64, n + kAllocationGuardBytes) != 0) throw std::bad_alloc();
    std::memset(static_cast<char*>(data) + n, 0xFF, kAllocationGuardBytes);
    return {data, data, &Free, c10::Device(c10::DeviceType::CPU)};
  }
  c10::DeleterFnPtr raw_deleter() const override { return &Free; }
  void copy_data(void* dest, const void* src, size_t count) const override {
    default_copy_data(dest, src, count);
  }

 private:
  static void Free(void* data) { std::free(data); }
};

}  // namespace

void UseGroundTruthRuntime() {
  static absl::once_flag once;
  absl::call_once(once, [] {
    at::set_num_threads(1);
    at::globalContext().setDeterministicAlgorithms(/*b=*/true, /*warn_only=*/true);
    at::globalContext().setDeterministicFillUninitializedMemory(true);
    c10::WarningUtils::set_warnAlways(true);
    static GuardedCpuAllocator allocator;
    c10::SetCPUAllocator(&allocator, /*priority=*/1);
  });
}

UnfilledScope::UnfilledScope() : was_(at::globalContext().deterministicFillUninitializedMemory()) {
  at::globalContext().setDeterministicFillUninitializedMemory(false);
}

UnfilledScope::~UnfilledScope() {
  at::globalContext().setDeterministicFillUninitializedMemory(was_);
}

}  // namespace shrt
