// Two custom operators for the planted DTensor rules of planted_rules.py,
// built as a library that both ShRT (--load) and the Python process that
// asks DTensor (torch.ops.load_library) load:
//
//   shrt_planted::cumsum0(Tensor self) -> Tensor   cumulative sum along dim 0
//   shrt_planted::twice(Tensor self) -> Tensor     self * 2
//
// CompositeImplicitAutograd kernels, so that DTensor's fake-tensor shape
// propagation runs them as well as the CPU.
#include "ATen/core/Tensor.h"  // methods only: shrt/spec/aten_functions.h
#include "torch/library.h"

namespace {

at::Tensor Cumsum0(const at::Tensor& self) { return self.cumsum(0); }
at::Tensor Twice(const at::Tensor& self) { return self.mul(2); }

TORCH_LIBRARY(shrt_planted, m) {
  m.def("cumsum0(Tensor self) -> Tensor");
  m.def("twice(Tensor self) -> Tensor");
}

TORCH_LIBRARY_IMPL(shrt_planted, CompositeImplicitAutograd, m) {
  m.impl("cumsum0", &Cumsum0);
  m.impl("twice", &Twice);
}

}  // namespace
