// Dtype-aware comparison of an actual tensor against an expected one.
//
// |actual - expected| <= atol + rtol * |expected| + slack elementwise, with
// torch.testing's per-dtype defaults for rtol/atol
// (torch/testing/_comparison.py, _DTYPE_PRECISIONS), exact comparison for
// integers and bool, NaN equal to NaN in the same place and infinities
// equal when their signs match. Buffers are compared element by element
// (no composite ATen ops: allclose costs ~20x an add on small tensors).
#ifndef SHRT_ENGINE_COMPARE_H_
#define SHRT_ENGINE_COMPARE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ATen/core/Tensor.h"

namespace shrt {

struct Tolerance {
  double rtol = 0;
  double atol = 0;
};

// A complex tensor as its real view: a contiguous float tensor with a
// trailing dim of 2 (real, imaginary), torch.view_as_real of a copy with
// any conjugate bit resolved. Any other tensor is returned unchanged. Every
// value-level step (generation, Partial parts, reductions over ranks,
// comparison) treats a complex tensor as this view, so that complex values
// need no code of their own.
at::Tensor RealView(const at::Tensor& t);

// torch.testing's defaults: float16 (1e-3, 1e-5), bfloat16 (1.6e-2, 1e-5),
// float32 and complex64 (1.3e-6, 1e-5), float64 and complex128 (1e-7,
// 1e-7); (0, 0) for integers and bool.
Tolerance DefaultTolerance(c10::ScalarType dtype);

// The unit roundoff of a floating or complex dtype: 2^-10 (float16), 2^-7
// (bfloat16), 2^-23 (float32, complex64), 2^-52 (float64, complex128); 0
// for anything else.
double Epsilon(c10::ScalarType dtype);

// The largest |value| among the finite elements of `t`, any dtype (0 when
// there is none; bool counts as 0 and 1).
double FiniteMaxAbs(const at::Tensor& t);

// The dtype whose precision a computation has (DESIGN.md §3): the least
// precise floating dtype among its tensor `inputs` and its `output`, or
// `output` itself when the output is not floating (integers and bool
// compare exactly, whatever they were computed from). float32 math written
// to a float64 output (a reduction given dtype=float64, a conversion)
// has float32 precision: judging it at float64 tolerance would refute
// correct Partial rules by float32 rounding.
c10::ScalarType ComputationDtype(const std::vector<c10::ScalarType>& inputs,
                                 c10::ScalarType output);

// The result of one comparison. `max_abs_diff` is the largest
// |actual - expected| over mismatching elements (infinity for a NaN or
// infinity mismatch; 0 when equal).
struct Comparison {
  bool equal = true;
  int64_t mismatches = 0;
  double max_abs_diff = 0;
  // For the first mismatch: "at [3, 1]: 2.5 vs 2.75"; or why shapes differ.
  std::string detail;
};

// Compares `actual` with `expected`. Shapes must be equal (a shape mismatch
// is reported, not thrown). Dtypes are not compared (callers check them):
// two integral tensors compare exactly in int64; complex tensors compare
// through their real views (RealView, the slack repeated for both parts);
// anything else in float64
// (a float64 reduction against a float32 or integer expectation, with
// `tol`). `slack`, if defined, is a float64 tensor of
// expected's shape added to the per-element allowance (used for rounding of
// reductions over ranks). Same-dtype contiguous tensors are read in place;
// `reference` forces the convert-then-compare path (kept for tests that
// show both paths agree).
Comparison CompareTensors(const at::Tensor& actual, const at::Tensor& expected, Tolerance tol,
                          const at::Tensor& slack = at::Tensor(), bool reference = false);

// The element loop of CompareTensors over n float64 values already in
// buffers (a fused reduction computes them in one pass): `slack` may be
// null (no extra allowance); expected's `sizes` name the first mismatch.
Comparison CompareValues(int64_t n, const double* actual, const double* expected,
                         const double* slack, Tolerance tol, at::IntArrayRef sizes);

// The exact element loop of CompareTensors (two integral tensors) over n
// values already in int64 buffers; expected's `sizes` name the first
// mismatch.
Comparison CompareIntegers(int64_t n, const int64_t* actual, const int64_t* expected,
                           at::IntArrayRef sizes);

// CompareTensors(actual, expected.narrow(dim, begin, actual.size(dim)), tol)
// without the narrowed view, for same-dtype contiguous tensors whose
// shapes agree except on `dim` (where begin + actual.size(dim) must not
// exceed expected's size): actual element [a, b, c] (dims before, at and
// after `dim`) is read against expected [a, begin + b, c]. The first
// mismatch is named in actual's (the chunk's) coordinates. Returns
// std::nullopt when those preconditions fail (callers then narrow and use
// CompareTensors).
std::optional<Comparison> CompareChunk(const at::Tensor& actual, const at::Tensor& expected,
                                       int64_t dim, int64_t begin, Tolerance tol);

}  // namespace shrt

#endif  // SHRT_ENGINE_COMPARE_H_
