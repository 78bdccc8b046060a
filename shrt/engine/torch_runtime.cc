#include "shrt/engine/torch_runtime.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <new>
#include <vector>

#include "ATen/Context.h"
#include "ATen/Parallel.h"
#include "absl/base/call_once.h"
#include "absl/container/flat_hash_map.h"
#include "c10/core/CPUAllocator.h"
#include "c10/util/Exception.h"
#include "shrt/engine/leak_check.h"
#include "sanitizer/asan_interface.h"  // no-op macros without AddressSanitizer

namespace shrt {
namespace {

// c10's CPU alignment (c10/core/alignment.h, gAlignment). A block is this
// header, then the buffer, then kAllocationGuardBytes of 0xFF; the header
// holds the buffer's size, which Free needs to pool the block.
constexpr size_t kHeaderBytes = 64;
// Freed buffers of at most kPooledBytes are kept for reuse by their thread,
// up to kPoolBytesPerThread of blocks in all: a block is reused only for a
// buffer of its own size, so its guard, set once when the block is made, is
// never written again. Ground truth allocates the same small sizes millions of
// times, and setting the guard at every allocation instead cost the N-D
// engine 1.16x its time (BENCHMARKS.md "Issue 28, fixed bytes past every
// buffer").
// Under AddressSanitizer (--config=asan, --config=fuzz) no non-empty buffer
// is kept: freed ones go back to it at once, so that its quarantine still
// catches a use after free in ShRT's code. The guard is poisoned there, so
// that a read past a buffer's end by ShRT's code (or by libtorch through an
// intercepted call such as memcpy) is still reported, while libtorch's own
// uninstrumented loads read the guard's fixed bytes.
#if defined(__SANITIZE_ADDRESS__)
constexpr size_t kPooledBytes = 0;
#else
constexpr size_t kPooledBytes = 64 << 10;
#endif
constexpr size_t kPoolBytesPerThread = 64 << 20;

constexpr size_t BlockBytes(size_t n) { return kHeaderBytes + n + kAllocationGuardBytes; }

// Whether the allocator fills what it hands out with 0xFF: set by
// UseGroundTruthRuntime, off inside an UnfilledScope. Process-wide, as
// libtorch's settings are (ground truth runs on one thread).
bool fill_allocations = false;

// Readable after the thread's Pool is destroyed (trivially destructible):
// a buffer freed later, e.g. by a static destructor, goes back to malloc.
thread_local bool pool_destroyed = false;

struct Pool {
  absl::flat_hash_map<size_t, std::vector<char*>> blocks;  // by buffer size
  size_t bytes = 0;  // of the blocks held
  ~Pool() {
    for (auto& [n, list] : blocks) {
      for (char* block : list) std::free(block);
    }
    pool_destroyed = true;
  }
};
thread_local Pool pool;

// libtorch's CPU allocations, 0xFF while the fill is on and
// kAllocationGuardBytes of 0xFF after each (torch_runtime.h); 64-byte
// aligned, as c10's default CPU allocator.
class GuardedCpuAllocator final : public c10::Allocator {
 public:
  c10::DataPtr allocate(size_t n) override {
    char* block = nullptr;
    if (!pool_destroyed) {
      auto it = pool.blocks.find(n);
      if (it != pool.blocks.end() && !it->second.empty()) {
        block = it->second.back();
        it->second.pop_back();
        pool.bytes -= BlockBytes(n);
      }
    }
    if (block == nullptr) {
      void* fresh = nullptr;
      if (posix_memalign(&fresh, kHeaderBytes, BlockBytes(n)) != 0) {
        throw std::bad_alloc();
      }
      block = static_cast<char*>(fresh);
      std::memcpy(block, &n, sizeof(n));
      std::memset(block + kHeaderBytes + n, 0xFF, kAllocationGuardBytes);
      ASAN_POISON_MEMORY_REGION(block + kHeaderBytes + n, kAllocationGuardBytes);
    }
    void* data = block + kHeaderBytes;
    // Off in ShRT's own work (UnfilledScope), which writes all it allocates.
    if (fill_allocations) std::memset(data, 0xFF, n);
    return {data, data, &Free, c10::Device(c10::DeviceType::CPU)};
  }
  c10::DeleterFnPtr raw_deleter() const override { return &Free; }
  void copy_data(void* dest, const void* src, size_t count) const override {
    default_copy_data(dest, src, count);
  }

 private:
  static void Free(void* data) {
    if (data == nullptr) return;
    char* block = static_cast<char*>(data) - kHeaderBytes;
    size_t n = 0;
    std::memcpy(&n, block, sizeof(n));
    if (pool_destroyed || n > kPooledBytes || pool.bytes + BlockBytes(n) > kPoolBytesPerThread) {
      ASAN_UNPOISON_MEMORY_REGION(block + kHeaderBytes + n, kAllocationGuardBytes);
      std::free(block);
      return;
    }
    pool.blocks[n].push_back(block);
    pool.bytes += BlockBytes(n);
  }
};

}  // namespace

void UseGroundTruthRuntime() {
  static absl::once_flag once;
  absl::call_once(once, [] {
    // This makes libtorch's thread pool (caffe2::pthreadpool), which every
    // forked child leaks by design when it first uses it (caffe2/utils/
    // threadpool/pthreadpool-cpp.cc, child_atfork and
    // leak_corrupted_threadpool; pytorch#54752): LeakSanitizer, whose
    // check the crash-isolation workers make, does not see it.
    IgnoringLeaks([] { at::set_num_threads(1); });
    at::globalContext().setDeterministicAlgorithms(/*b=*/true, /*warn_only=*/true);
    // The allocator's fill is the only one: libtorch's would write every
    // at::empty buffer a second time (torch_runtime.h).
    at::globalContext().setDeterministicFillUninitializedMemory(false);
    fill_allocations = true;
    c10::WarningUtils::set_warnAlways(true);
    static GuardedCpuAllocator allocator;
    c10::SetCPUAllocator(&allocator, /*priority=*/1);
  });
}

bool AllocationsAreFilled() { return fill_allocations; }

UnfilledScope::UnfilledScope() : was_(fill_allocations) { fill_allocations = false; }

UnfilledScope::~UnfilledScope() { fill_allocations = was_; }

void ExitWithoutTeardown(int status) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  CheckLeaksNow();
  std::_Exit(status);
}

}  // namespace shrt
