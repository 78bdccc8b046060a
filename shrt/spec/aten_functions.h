// The ATen functions ShRT calls that at::Tensor has no method for, behind a
// compile firewall: this header includes only ATen/core/Tensor.h.
//
// Every ATen/ops/<op>.h header includes ATen/Context.h (and with it the
// CPU generator, the linear algebra backends, the dispatch key guards),
// which costs a translation unit seconds of parsing whatever op it
// declares; ATen/ATen.h includes every op (ATen/Functions.h), and so does
// ATen/TensorOperators.h (`a + b`) unless its includer defines
// AT_PER_OPERATOR_HEADERS, as PyTorch's own build does. A translation unit
// that calls ops through at::Tensor's methods (t.add(u), t.where(mask, u),
// t.new_zeros(sizes)), which ATen/core/TensorBody.h declares, and these few
// functions through this header pays for none of it (BENCHMARKS.md "Issue
// 28, a compile firewall for ATen's functions": shrt/engine/output_check.cc
// 12.8 s to 7.3 s, 28 sources 0.69x). Only aten_functions.cc includes ATen/ops/ headers, and for the
// tests' factories shrt/engine/test_tensors.cc; //shrt:layering_test fails
// on any other source of shrt/ that does.
//
// Each function is the at:: function of the same name (ATen/ops/<op>.h,
// native_functions.yaml "variants: function"), with its errors: a c10::Error
// thrown as ATen throws it.
#ifndef SHRT_SPEC_ATEN_FUNCTIONS_H_
#define SHRT_SPEC_ATEN_FUNCTIONS_H_

#include <cstdint>

#include "ATen/core/Tensor.h"

namespace shrt {

// at::empty: a new tensor of `sizes` with `options` (dtype, device,
// layout), contiguous, its values unset.
at::Tensor Empty(at::IntArrayRef sizes, at::TensorOptions options = {});

// at::zeros: as Empty, filled with zeros.
at::Tensor Zeros(at::IntArrayRef sizes, at::TensorOptions options = {});

// at::cat: `tensors` joined along `dim` (negative counts from the end);
// every tensor has the same shape except along `dim`.
at::Tensor Cat(at::TensorList tensors, int64_t dim);

// at::view_as_complex: a complex view of a float tensor whose last dim
// has size 2 (real, imaginary) and stride 1; the result drops that dim.
at::Tensor ViewAsComplex(const at::Tensor& t);

// at::view_as_real: a float view of a complex tensor with a last dim of
// size 2 (real, imaginary); `t` must not be conjugated (resolve_conj()).
at::Tensor ViewAsReal(const at::Tensor& t);

}  // namespace shrt

#endif  // SHRT_SPEC_ATEN_FUNCTIONS_H_
