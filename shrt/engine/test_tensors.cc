#include "shrt/engine/test_tensors.h"

#include "ATen/Context.h"  // manual_seed
#include "ATen/ops/arange.h"
#include "ATen/ops/complex.h"
#include "ATen/ops/eye.h"
#include "ATen/ops/full.h"
#include "ATen/ops/imag.h"
#include "ATen/ops/ones.h"
#include "ATen/ops/rand.h"
#include "ATen/ops/randint.h"
#include "ATen/ops/randn.h"
#include "ATen/ops/real.h"
#include "ATen/ops/scalar_tensor.h"
#include "ATen/ops/tensor.h"

namespace shrt {

at::Tensor Arange(const at::Scalar& end, at::TensorOptions options) {
  return at::arange(end, options);
}
at::Tensor Arange(const at::Scalar& start, const at::Scalar& end, at::TensorOptions options) {
  return at::arange(start, end, options);
}
at::Tensor Ones(at::IntArrayRef sizes, at::TensorOptions options) {
  return at::ones(sizes, options);
}
at::Tensor Full(at::IntArrayRef sizes, const at::Scalar& value, at::TensorOptions options) {
  return at::full(sizes, value, options);
}
at::Tensor Rand(at::IntArrayRef sizes, at::TensorOptions options) {
  return at::rand(sizes, options);
}
at::Tensor Randn(at::IntArrayRef sizes, at::TensorOptions options) {
  return at::randn(sizes, options);
}
at::Tensor Randint(int64_t low, int64_t high, at::IntArrayRef sizes, at::TensorOptions options) {
  return at::randint(low, high, sizes, options);
}
void ManualSeed(uint64_t seed) { at::manual_seed(seed); }
at::Tensor Eye(int64_t n, at::TensorOptions options) { return at::eye(n, options); }
at::Tensor ScalarTensor(const at::Scalar& value, at::TensorOptions options) {
  return at::scalar_tensor(value, options);
}
at::Tensor TensorOf(at::ArrayRef<double> values, at::ScalarType dtype) {
  return at::tensor(values, at::kDouble).to(dtype);
}
at::Tensor Complex(const at::Tensor& real, const at::Tensor& imag) {
  return at::complex(real, imag);
}
at::Tensor Real(const at::Tensor& t) { return at::real(t); }
at::Tensor Imag(const at::Tensor& t) { return at::imag(t); }

}  // namespace shrt
