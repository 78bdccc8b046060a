// The check of a Partial output in one pass (DESIGN.md §3, "Output check"):
// the reduction over ranks, its rounding slack and the comparison with the
// full output, read from the tensors' buffers (no ATen op but a contiguous
// copy where a layout needs one). It computes what output_check.cc's ATen
// path computes (distribute.h ReducePartial, rounding_slack.h's slack,
// compare.h CompareTensors): the same verdict, the same
// largest difference and the same first mismatch, which
// output_check_test.cc shows over every dtype, layout and reduction it
// covers.
//
// It exists because that path costs about ten ATen calls per check (abs,
// to, add, mul, isfinite, where, ...), each 10 to 100 thousand
// instructions on the small tensors of a sample: on a 2x2 mesh, where
// every Partial mesh dim makes a check per rank group, it was three
// quarters of aten::expand_as's mesh check (valgrind --tool=callgrind).
#ifndef SHRT_ENGINE_FUSED_PARTIAL_H_
#define SHRT_ENGINE_FUSED_PARTIAL_H_

#include <optional>
#include <vector>

#include "ATen/core/Tensor.h"
#include "shrt/engine/compare.h"
#include "shrt/vocab/placement.h"

namespace shrt {

// Compares the reduction of `locals` by `op` with `full` as CheckOutput
// does for P(op): the reduction of floating and complex locals in float64
// (complex128), of integer and bool locals in their own dtype (wrapping as
// ATen's add and mul do), P(avg) in float64; a non-finite element of
// `full` is no evidence, nor, when `special` (a case of special values:
// output_check.h CheckContext::special_inputs), an element where a local
// or the reduction is +-inf; each element allows rounding_slack.h's
// PartialRoundingSlack besides `tol`; integers compare exactly.
// Every local must have `full`'s dtype and shape (the caller checks); any
// layout, conjugate or negative bit is read through a contiguous copy.
// Returns std::nullopt where it has no loop and the caller takes the ATen
// path: _NormP, P(product), P(max) and P(min) on complex, and dtypes other
// than float32/64, float16, bfloat16, complex64/128, int8/16/32/64, uint8
// and bool.
std::optional<Comparison> FusedPartialComparison(const at::Tensor& full,
                                                 const std::vector<at::Tensor>& locals,
                                                 ReduceOp op, Tolerance tol, double eps,
                                                 double input_scale, bool special = false);

}  // namespace shrt

#endif  // SHRT_ENGINE_FUSED_PARTIAL_H_
