// Operators with deliberately small bugs, for tests only (DESIGN.md §3: the
// rounding allowance must never hide a real error). Both are float32
// contractions, so that checking them exercises the float64-reference
// judgement of output_check.h:
//
//   shrt_small_errors::mm_abs_thousandth(Tensor self, Tensor mat2) -> Tensor
//       mm(self, mat2) + 1e-3 * |mm(self, mat2)|: not linear, by one part in
//       10^3, so P(sum), R -> P(sum) is wrong (by 1e-3 of the parts).
//   shrt_small_errors::mm_row_leak(Tensor self, Tensor mat2) -> Tensor
//       y + 1e-3 * roll(y, 1, 0) for y = mm(self, mat2): each row takes a
//       thousandth of the row before, so S(0), R -> S(0) is wrong (each
//       shard's first row takes it from its own last row), while the op is
//       still linear (P(sum), R -> P(sum) holds).
#include "ATen/core/Tensor.h"  // methods only: shrt/spec/aten_functions.h
#include "torch/library.h"

namespace shrt_small_errors {
namespace {

at::Tensor MmAbsThousandth(const at::Tensor& self, const at::Tensor& mat2) {
  const at::Tensor y = self.mm(mat2);
  return y.add(y.abs().mul(1e-3));
}

at::Tensor MmRowLeak(const at::Tensor& self, const at::Tensor& mat2) {
  const at::Tensor y = self.mm(mat2);
  return y.add(y.roll({1}, {0}).mul(1e-3));
}

TORCH_LIBRARY(shrt_small_errors, m) {
  m.def("mm_abs_thousandth(Tensor self, Tensor mat2) -> Tensor");
  m.def("mm_row_leak(Tensor self, Tensor mat2) -> Tensor");
}

TORCH_LIBRARY_IMPL(shrt_small_errors, CPU, m) {
  m.impl("mm_abs_thousandth", &MmAbsThousandth);
  m.impl("mm_row_leak", &MmRowLeak);
}

}  // namespace
}  // namespace shrt_small_errors
