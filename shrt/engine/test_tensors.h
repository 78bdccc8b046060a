// Tensor factories for ShRT's tests, behind the compile firewall of
// shrt/spec/aten_functions.h: this header includes only ATen/core/Tensor.h,
// so a test that makes its tensors here and calls ops as at::Tensor
// methods (a.add(b), a.equal(b), a.mul(2)) parses none of ATen/ops/ or
// ATen/Functions.h (which ATen/TensorOperators.h, and so `a + b`, brings).
// Test-only (testonly = True).
//
// Each function is the at:: function of the same name (ATen/ops/<op>.h),
// with its errors (a c10::Error); TensorOf is at::tensor. Options left
// out are ATen's defaults (ATen/ops/<op>.h: the dtype ATen infers, float32
// or the fill value's; int64 for Randint; CPU, strided).
#ifndef SHRT_ENGINE_TEST_TENSORS_H_
#define SHRT_ENGINE_TEST_TENSORS_H_

#include <cstdint>

#include "ATen/core/Tensor.h"
#include "shrt/spec/aten_functions.h"  // Empty, Zeros, Cat, ViewAsComplex, ViewAsReal

namespace shrt {

// at::arange: [0, end) or [start, end), step 1.
at::Tensor Arange(const at::Scalar& end, at::TensorOptions options = {});
at::Tensor Arange(const at::Scalar& start, const at::Scalar& end, at::TensorOptions options = {});

// at::ones and at::full: `sizes` filled with 1 or `value`.
at::Tensor Ones(at::IntArrayRef sizes, at::TensorOptions options = {});
at::Tensor Full(at::IntArrayRef sizes, const at::Scalar& value, at::TensorOptions options = {});

// at::rand (uniform on [0, 1)), at::randn (standard normal) and at::randint
// (integers in [low, high), int64 by default) from ATen's default CPU
// generator (ManualSeed).
at::Tensor Rand(at::IntArrayRef sizes, at::TensorOptions options = {});
at::Tensor Randn(at::IntArrayRef sizes, at::TensorOptions options = {});
at::Tensor Randint(int64_t low, int64_t high, at::IntArrayRef sizes,
                   at::TensorOptions options = at::kLong);

// at::manual_seed: seeds the default CPU generator.
void ManualSeed(uint64_t seed);

// at::eye: the n x n identity.
at::Tensor Eye(int64_t n, at::TensorOptions options = {});

// at::scalar_tensor: a 0-d tensor holding `value`.
at::Tensor ScalarTensor(const at::Scalar& value, at::TensorOptions options = {});

// at::tensor: a 1-D tensor of `values` converted to `dtype`.
at::Tensor TensorOf(at::ArrayRef<double> values, at::ScalarType dtype);

// at::complex (a complex tensor from real and imaginary parts of one float
// dtype), at::real and at::imag (views of a complex tensor's parts).
at::Tensor Complex(const at::Tensor& real, const at::Tensor& imag);
at::Tensor Real(const at::Tensor& t);
at::Tensor Imag(const at::Tensor& t);

}  // namespace shrt

#endif  // SHRT_ENGINE_TEST_TENSORS_H_
