// The libtorch settings ground truth runs under (DESIGN.md §8: ATen
// intra-op threads at 1). One home for every process-wide setting of
// libtorch that ground truth depends on.
//
// UseGroundTruthRuntime() sets, once per process:
//
// - One intra-op thread (`at::set_num_threads(1)`): a kernel's reduction
//   order does not depend on the machine, and worker processes fork
//   (isolation.h) from a parent that has no OpenMP threads. ShRT
//   parallelises across processes instead. The thread pool this makes,
//   which libtorch leaks in every forked child, is hidden from
//   LeakSanitizer (leak_check.h IgnoringLeaks).
// - Uninitialised memory filled deterministically: every CPU buffer
//   libtorch allocates while the fill is on (at::empty*, the outputs and
//   temporaries a kernel allocates, a structured kernel's output made by
//   at::detail::empty_cpu in the generated create_out of RegisterCPU.cpp,
//   the storage resize_ grows into, the out= tensors ShRT shapes) is
//   filled with 0xFF bytes by the allocator below: NaN in every floating
//   and complex dtype, -1 in signed integers, never what the allocator
//   last held. Without it a kernel that leaves part of its output
//   unwritten makes a rule's verdict depend on the heap: torch 2.13's
//   aten::binary_cross_entropy_backward with a target of shape [0, 3, 5]
//   and self [1, 3, 5] returns an uninitialised [1, 3, 5] tensor, and the
//   rule 'R, R, S(0), R -> P(sum)' "held" whenever those pages were zero.
//   With it, such an output is NaN and the rule fails on every run;
//   valgrind --track-origins had also traced uninitialised values in
//   ShRT's comparison to the output set_output_strided makes for
//   aten::_log_softmax_backward_data. libtorch's own fill (NaN or the
//   dtype's largest value: aten/src/ATen/native/TensorFactories.h
//   fill_empty_deterministic_, ResizeCommon.h fill_resize_deterministic_,
//   `at::globalContext().deterministicFillUninitializedMemory()`, the C++
//   side of `torch.utils.deterministic.fill_uninitialized_memory`) is
//   off: it reaches only at::empty and resize_, so the allocator's is
//   needed anyway, and it wrote each of those buffers a second time
//   through a dispatched fill_ (BENCHMARKS.md "Issue 28, one fill"). A
//   resize_ within a storage's capacity exposes what the tensor held
//   before, which the program wrote, not the heap.
// - Bytes past every CPU allocation fixed (c10::SetCPUAllocator with an
//   allocator that puts kAllocationGuardBytes of 0xFF after each buffer: NaN
//   in every floating dtype, -1 in signed integers): a kernel that reads
//   past the end of an input reads the same bytes whatever the heap held
//   there. Without it, torch 2.13's CPU aten::_log_softmax_backward_data,
//   which does not check that grad_output and output have the same shape
//   (the meta function does), reads past the end of a sharded output
//   when grad_output is whole (valgrind: "Invalid read of size 32" in
//   log_softmax_backward_kernel_impl; docs/repros/
//   log_softmax_backward_over_read.py), and the overload's combination
//   checks were 4,133 with glibc's malloc and 4,141 with TCMalloc.
//   Reads further than the guard still see the heap. Freed buffers of up
//   to 64 KiB are kept per thread and reused for buffers of the same size,
//   whose guard is then already set: setting it at every allocation made
//   `validate --all --mesh=2x2` 1.16x slower, reuse 1.04x, and reuse with
//   the 0xFF fill above 1.05x (BENCHMARKS.md "Issue 28, fixed bytes past every
//   buffer"). Under AddressSanitizer the guard is poisoned: a read past a
//   buffer by ShRT's code, or by libtorch through an intercepted call, is
//   reported as "use-after-poison" (torch_runtime_test), and libtorch's
//   uninstrumented loads read the fixed bytes.
// - Deterministic algorithms in warn-only mode (the C++ side of
//   `torch.use_deterministic_algorithms(True, warn_only=True)`): a kernel
//   with a deterministic implementation uses it, and an operator with none
//   on CPU raises a c10 warning (counted in the report like any other)
//   instead of an error.
// - Every c10 warning raised at every call (`c10::WarningUtils::
//   set_warnAlways(true)`, the C++ side of `torch.set_warn_always(True)`):
//   TORCH_WARN_ONCE then acts as TORCH_WARN (c10/util/Exception.h), so an
//   overload's warnings in its report do not depend on which overloads ran
//   before it in the same worker process. Without it, `validate --all`
//   gave aten::index_reduce_ the warning "index_reduce() is in beta" with
//   --jobs=2 and none with --jobs=1 (another index_reduce overload had
//   taken the process's one warning).
//
// The engine calls it before it binds a sample (sample.h), so no entry
// point can run ground truth without it; programs call it first thing in
// main() as well, before any tensor work, so that a parent process never
// starts OpenMP threads before it forks.
#ifndef SHRT_ENGINE_TORCH_RUNTIME_H_
#define SHRT_ENGINE_TORCH_RUNTIME_H_

#include <cstddef>

namespace shrt {

// The fixed bytes after every CPU buffer libtorch allocates under
// UseGroundTruthRuntime() (see above).
inline constexpr size_t kAllocationGuardBytes = 4096;

// Applies the settings above; the first call does the work, later calls
// cost an atomic load. Thread-safe. Never fails.
void UseGroundTruthRuntime();

// Whether libtorch's CPU allocations are filled now (see above): true
// after UseGroundTruthRuntime(), false inside an UnfilledScope.
bool AllocationsAreFilled();

// While alive, libtorch's allocations are not filled (the fill above is
// off; the previous setting comes back on destruction, so scopes nest).
// For ShRT's own tensor work that writes every element it allocates:
// distributing the locals (distribute.h, nd_layout.h) and comparing outputs
// (output_check.h CheckOutput). There libtorch's fill, when ShRT used it,
// was about a tenth of a mesh check's instructions (valgrind
// --tool=callgrind on //op_specs:aten_sub_out --gtest_filter=*mesh*:
// fill_empty_deterministic_ 9.1%), each tensor filled and then
// overwritten. Never open one around a call of an operator
// under test, or a callback that may make one: their outputs must be
// filled. ShRT runs ground truth on one thread; the setting is
// process-wide.
class UnfilledScope {
 public:
  UnfilledScope();
  ~UnfilledScope();
  UnfilledScope(const UnfilledScope&) = delete;
  UnfilledScope& operator=(const UnfilledScope&) = delete;

 private:
  bool was_;
};

// Ends the process with exit status `status` (main()'s return value)
// after flushing std::cout, std::cerr and every C stdio stream, without
// running static destructors or atexit handlers (std::_Exit). For the end
// of main() in a program that links libtorch: libtorch's static
// destructors deregister every operator from the dispatcher, which costs
// about what registering them did at start-up. That teardown was about a
// tenth of a generated test's run (valgrind --tool=callgrind: 262M of 3.0G
// instructions for //op_specs:aten_relu) and a quarter of the CPU time of
// `shrt --version` (BENCHMARKS.md "Issue 28, no libtorch teardown at the
// CLI's exit"). Only for a program whose work is done when main() returns: an
// object whose destructor writes a file or flushes a stream other than
// the standard ones would lose its output. Under AddressSanitizer it first
// makes LeakSanitizer's exit check, which std::_Exit skips (leak_check.h
// CheckLeaksNow): a leak ends the process with LeakSanitizer's report and
// exit status instead of `status`.
[[noreturn]] void ExitWithoutTeardown(int status);

}  // namespace shrt

#endif  // SHRT_ENGINE_TORCH_RUNTIME_H_
