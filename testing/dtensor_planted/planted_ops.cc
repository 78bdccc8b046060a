// Two custom operators for the planted DTensor rules of planted_rules.py,
// built as a library that both ShRT (--load) and the Python process that
// asks DTensor (torch.ops.load_library) load:
//
//   shrt_planted::cumsum0(Tensor self) -> Tensor   cumulative sum along dim 0
//   shrt_planted::twice(Tensor self) -> Tensor     self * 2
//   shrt_planted::posinf_to(Tensor self, float value) -> Tensor
//       self with +inf replaced by value (nan_to_num's posinf alone)
//   shrt_planted::scaled_gap(Tensor self, float lo, float hi) -> Tensor
//       self * (hi - lo)
//
// CompositeImplicitAutograd kernels, so that DTensor's fake-tensor shape
// propagation runs them as well as the CPU.
#include "ATen/core/Tensor.h"  // methods only: shrt/spec/aten_functions.h
#include "torch/library.h"

namespace {

at::Tensor Cumsum0(const at::Tensor& self) { return self.cumsum(0); }
at::Tensor Twice(const at::Tensor& self) { return self.mul(2); }
at::Tensor PosinfTo(const at::Tensor& self, double value) {
  return self.masked_fill(self.isposinf(), value);
}
at::Tensor ScaledGap(const at::Tensor& self, double lo, double hi) { return self.mul(hi - lo); }

TORCH_LIBRARY(shrt_planted, m) {
  m.def("cumsum0(Tensor self) -> Tensor");
  m.def("twice(Tensor self) -> Tensor");
  m.def("posinf_to(Tensor self, float value) -> Tensor");
  m.def("scaled_gap(Tensor self, float lo, float hi) -> Tensor");
}

TORCH_LIBRARY_IMPL(shrt_planted, CompositeImplicitAutograd, m) {
  m.impl("cumsum0", &Cumsum0);
  m.impl("twice", &Twice);
  m.impl("posinf_to", &PosinfTo);
  m.impl("scaled_gap", &ScaledGap);
}

}  // namespace
