// Checks one output's per-rank local results against the full output for
// one candidate output placement (DESIGN.md §3, "Output check").
#ifndef SHRT_OUTPUT_CHECK_H_
#define SHRT_OUTPUT_CHECK_H_

#include <string>
#include <vector>

#include "ATen/core/Tensor.h"
#include "shrt/compare.h"
#include "shrt/placement.h"

namespace shrt {

// Whether the locals form the full output under the placement, and if not,
// where they do not.
struct OutputCheck {
  bool ok = true;
  // The first offending rank, or -1 when only the reduction over all ranks
  // of a Partial placement is wrong.
  int rank = -1;
  // Largest |local - expected| of the offending comparison (infinity for a
  // shape, dtype, NaN or infinity mismatch).
  double max_abs_diff = 0;
  // E.g. "shape [2, 16] vs expected [3, 16]" or "at [1, 0]: 2 vs expected 3".
  std::string detail;
};

// `full` is the operator's output on full inputs; `locals[r]` is rank r's
// output. Checks, for placement `p`:
//   R      every local equals `full` (shape, dtype and values).
//   S(d)   local r equals chunk r of `full` along d, shape included (an
//          empty chunk must be empty).
//   P(op)  every local has the full shape and dtype, and the reduction over
//          ranks (distribute.h ReducePartial) equals `full`. P(sum), P(avg)
//          and P(product) allow the rounding a W-term reduction adds:
//          4 * eps(dtype) * (sum_r |local_r| + W * input_scale) for sums,
//          4 * W * eps * |full| for products (Higham, "Accuracy and
//          Stability of Numerical Algorithms", 2nd ed., §4.2 and §3.1).
// `tol` is the comparison tolerance (compare.h). `input_scale` is the
// largest |value| among the parts of Partial inputs (0 if none): an
// operator that cancels large parts (p_r + q_r with p_r ~ -q_r) rounds
// relative to them, not to its small local result.
// Float and double Partial checks run fused over the buffers; `reference`
// forces the ATen-op path (kept for tests that show both paths agree).
OutputCheck CheckOutput(const at::Tensor& full, const std::vector<at::Tensor>& locals,
                        const Placement& p, Tolerance tol, double input_scale = 0,
                        bool reference = false);

}  // namespace shrt

#endif  // SHRT_OUTPUT_CHECK_H_
