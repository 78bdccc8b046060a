// Operators that crash on some shard shapes, for the crash-isolation tests
// (shrt/engine/isolation.h, DESIGN.md §10). Each computes 2 * self, and faults
// when self's dim 0 is odd: a [6, 4] sample is fine in full, on R and
// S(1) and Partial locals, and at W = 4 (chunks 2, 2, 2, 0), but each rank's
// S(0) chunk at W = 2 has 3 rows:
//
//   shrt_crashing::segfault(Tensor self) -> Tensor   writes through null: SIGSEGV
//   shrt_crashing::divide(Tensor self) -> Tensor     integer division by zero: SIGFPE
//                                                     (as libtorch 1.13's
//                                                     _log_softmax_backward_data
//                                                     on an empty chunk)
//   shrt_crashing::check(Tensor self) -> Tensor      a failed assert: abort(), SIGABRT
//   shrt_crashing::hang(Tensor self) -> Tensor       loops forever: the call time limit
//
// Their strategy claims S(0) -> S(0) (it crashes: incorrect, with the crash
// as evidence), S(1) -> S(1) and the Partial rules of a positive scaling
// (correct).
#include <cstdio>
#include <cstdlib>

#include "ATen/core/Tensor.h"  // methods only: shrt/spec/aten_functions.h
#include "shrt/strategies/pointwise_rules.h"
#include "shrt/strategies/registry.h"
#include "torch/library.h"

namespace shrt_crashing {
namespace {

bool Odd(const at::Tensor& self) { return self.dim() > 0 && self.size(0) % 2 == 1; }

// The faults are real ones, as an operator from an uninstrumented library
// (libtorch) makes them: UBSan (--config=asan) must not report them first.
// Not inlined, with an opaque zero: `1 / 0` in sight is folded away.
__attribute__((noinline, no_sanitize("undefined"))) int Divide(int a, int b) { return a / b; }

__attribute__((no_sanitize("undefined"))) at::Tensor Segfault(const at::Tensor& self) {
  if (Odd(self)) {
    int* volatile null = nullptr;
    *null = 1;
  }
  return self.mul(2);
}

at::Tensor DivideByZero(const at::Tensor& self) {
  volatile int zero = 0;
  if (Odd(self)) return self.mul(Divide(2, zero));
  return self.mul(2);
}

at::Tensor Check(const at::Tensor& self) {
  if (Odd(self)) {
    std::fprintf(stderr, "shrt_crashing::check: assertion `self.size(0) %% 2 == 0' failed\n");
    std::abort();
  }
  return self.mul(2);
}

at::Tensor Hang(const at::Tensor& self) {
  if (Odd(self)) {
    for (volatile unsigned i = 0;; i = i + 1) {
    }
  }
  return self.mul(2);
}

TORCH_LIBRARY(shrt_crashing, m) {
  m.def("segfault(Tensor self) -> Tensor");
  m.def("divide(Tensor self) -> Tensor");
  m.def("check(Tensor self) -> Tensor");
  m.def("hang(Tensor self) -> Tensor");
}

TORCH_LIBRARY_IMPL(shrt_crashing, CPU, m) {
  m.impl("segfault", &Segfault);
  m.impl("divide", &DivideByZero);
  m.impl("check", &Check);
  m.impl("hang", &Hang);
}

absl::StatusOr<std::vector<shrt::Rule>> Doubling(const shrt::OpArgs& args) {
  return shrt::PointwiseRules(
      args, {"P(sum) -> P(sum)", "P(avg) -> P(avg)", "P(max) -> P(max)", "P(min) -> P(min)"});
}

SHRT_REGISTER_STRATEGY("shrt_crashing::segfault", Doubling);
SHRT_REGISTER_STRATEGY("shrt_crashing::divide", Doubling);
SHRT_REGISTER_STRATEGY("shrt_crashing::check", Doubling);
SHRT_REGISTER_STRATEGY("shrt_crashing::hang", Doubling);

}  // namespace
}  // namespace shrt_crashing
