#include "shrt/spec/aten_functions.h"

#include "ATen/ops/cat.h"
#include "ATen/ops/empty.h"
#include "ATen/ops/view_as_complex.h"
#include "ATen/ops/view_as_real.h"
#include "ATen/ops/zeros.h"

namespace shrt {

at::Tensor Empty(at::IntArrayRef sizes, at::TensorOptions options) {
  return at::empty(sizes, options);
}

at::Tensor Zeros(at::IntArrayRef sizes, at::TensorOptions options) {
  return at::zeros(sizes, options);
}

at::Tensor Cat(at::TensorList tensors, int64_t dim) { return at::cat(tensors, dim); }

at::Tensor ViewAsComplex(const at::Tensor& t) { return at::view_as_complex(t); }

at::Tensor ViewAsReal(const at::Tensor& t) { return at::view_as_real(t); }

}  // namespace shrt
