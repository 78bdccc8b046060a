// LeakSanitizer's end-of-process check, for processes that end without it.
//
// LeakSanitizer (part of AddressSanitizer: --config=asan and --config=fuzz,
// .bazelrc) looks for leaked heap blocks when a process exits normally. A
// process that ends with _exit or std::_Exit skips that check: ShRT's
// programs that link libtorch end that way (torch_runtime.h
// ExitWithoutTeardown), and so do the crash-isolation workers that run
// ground truth (isolation.h). They call CheckLeaksNow just before they end.
// What libtorch leaks on purpose is allocated under IgnoringLeaks
// (torch_runtime.h UseGroundTruthRuntime: the thread pool libtorch leaks
// in every forked child).
#ifndef SHRT_ENGINE_LEAK_CHECK_H_
#define SHRT_ENGINE_LEAK_CHECK_H_

namespace shrt {

// Under AddressSanitizer: makes LeakSanitizer's exit check now
// (sanitizer/lsan_interface.h __lsan_do_leak_check). A block no pointer
// reaches (static objects, still alive, reach theirs) makes it print its
// report on stderr and end the process with a non-zero exit status
// (LeakSanitizer's `exitcode`); otherwise it returns. Without
// AddressSanitizer it does nothing.
void CheckLeaksNow();

// Runs `fn` with LeakSanitizer blind to the heap blocks allocated meanwhile
// (__lsan_disable, __lsan_enable): for an object a library leaks by design,
// which no check should report. Without AddressSanitizer it runs `fn`.
void IgnoringLeaks(void (*fn)());

// True when this build has AddressSanitizer, so that CheckLeaksNow checks
// (unless LeakSanitizer is turned off at run time: ASAN_OPTIONS=detect_leaks=0).
bool LeakChecksBuiltIn();

}  // namespace shrt

#endif  // SHRT_ENGINE_LEAK_CHECK_H_
