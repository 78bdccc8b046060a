// Checks one output's per-rank local results against the full output for
// one candidate output placement (DESIGN.md §3, "Output check").
#ifndef SHRT_ENGINE_OUTPUT_CHECK_H_
#define SHRT_ENGINE_OUTPUT_CHECK_H_

#include <string>
#include <vector>

#include "ATen/core/Tensor.h"
#include "shrt/engine/compare.h"
#include "shrt/vocab/placement.h"

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
  // True when CheckAgainstReference re-judged the locals (its allowance
  // grows with the context's input scales).
  bool rejudged = false;
};

// What a check allows besides exact equality.
struct CheckContext {
  // The comparison tolerance (compare.h), of the computation's dtype.
  Tolerance tol;
  // Unit roundoff of the computation's dtype (compare.h Epsilon of
  // ComputationDtype); scales the rounding slack of Partial reductions.
  // Negative: the full output's dtype.
  double eps = -1;
  // The largest |value| among the parts of Partial inputs (0 if none): an
  // operator that cancels large parts (p_r + q_r with p_r ~ -q_r) rounds
  // relative to them, not to its small local result.
  double input_scale = 0;
  // The largest finite |value| of the full tensors those parts were drawn
  // from (0 if none): input_scale / full_input_scale is how much larger
  // than the full call's the ranks' operands are.
  double full_input_scale = 0;
  // Use the ATen-op path instead of the fused loops (tests show both agree).
  bool reference_paths = false;
  // The case's inputs hold special values (a `special` generator's, the
  // default recipe's `nonfinite` and `extremes`: inf, nan, subnormals):
  // its R and S outputs are checked for their shapes only, its Partial
  // outputs in full. Which elements a rank computes does not
  // depend on their values, and the finite generators judge that; what
  // non-finite inputs add there is noise of ATen's CPU kernels, which do
  // not compute nan alike in every position of a buffer:
  // hardtanh_backward(grad, nan) is 0 in the vectorized body of its loop
  // and grad in its scalar tail, so a rank's chunk, whose elements sit
  // elsewhere, gets the other value (torch 2.13; also sgn on complex,
  // elu_backward, hardswish_backward, remainder by a subnormal, and conv2d's and
  // chain_matmul's blocking, which spreads a nan to other elements of
  // some batch sizes only). A Partial local has the full output's shape,
  // its elements where the full output's are; on a mesh, a Partial
  // output that another mesh dim shards has chunks for locals, and is
  // checked for their shapes only too (nd_layout.h CheckNdOutput). Nor is
  // an element where a Partial output's local or reduction is +-inf while
  // the full output is finite evidence here: a part larger than the value
  // overflowed where the value did not (x / the smallest normal value is
  // finite for x, inf for a P(sum) part of it). Such a case never makes a
  // rule valid (full_case.h Informative), so what it skips cannot make a
  // rule hold vacuously.
  bool special_inputs = false;
};

// `full` is the operator's output on full inputs; `locals[r]` is rank r's
// output. Checks, for placement `p`:
//   R      every local equals `full` (shape, dtype and values).
//   S(d), _S(d, sf)
//          local r equals rank r's piece of `full` (shard_chunks.h
//          ShardPiece), shape included (an empty chunk must be empty).
//   P(op)  every local has the full shape and dtype, and the reduction over
//          ranks (distribute.h ReducePartial) equals `full` wherever `full`
//          is finite: IEEE inf arithmetic is not linear (inf - inf = nan),
//          so a non-finite element of the full output is no evidence for or
//          against a Partial output (DESIGN.md §3). Non-finite inputs
//          give evidence wherever the full output is finite: P(max) of
//          inf through nan_to_num(posinf=3) reduces to a finite value
//          other than 3. P(sum), P(avg) and
//          P(product) allow the rounding a W-term reduction adds
//          (rounding_slack.h PartialRoundingSlack: 4 * eps * (sum_r
//          |local_r| + W * input_scale) for sums, 4 * W * eps * |reduction|
//          for products).
//   _NormP(p) as P(op), reduced as DTensor's _NormPartial (distribute.h
//          ReducePartial), with a product's slack: a sum of W non-negative
//          terms rounds relative to its value.
//   _MaskP(op, n) fails: its reduction needs the mask of the input it pairs
//          with, so ground truth masks the locals (distribute.h ApplyMask)
//          and checks them as P(op).
// R and S compare every element, NaN equal to NaN in the same place.
// With `context.special_inputs`, R and S outputs are checked for their
// shapes only (CheckContext).
OutputCheck CheckOutput(const at::Tensor& full, const std::vector<at::Tensor>& locals,
                        const Placement& p, const CheckContext& context);

// Whether `check`, made by CheckOutput for placement `p` (and perhaps
// re-judged by CheckAgainstReference), read the context's input scales:
// P(sum) and P(avg) allow a rounding slack that grows with input_scale
// (rounding_slack.h), and a re-judged check an allowance that grows with
// input_scale / full_input_scale. When it did not, the same locals and
// expected output give the same check at any input scales (nd_case_caches.h
// NdCheckCache reuses it across them).
bool ReadsInputScales(const OutputCheck& check, const Placement& p);

// The float64 reference of a call whose computation has less than float64
// precision (DESIGN.md §3, rounding grows with the computation): the same
// call on every low-precision floating input converted to float64.
struct RoundingReference {
  at::Tensor value;  // the reference output, float64, the full output's shape
  // max |full - value| over elements finite in both: how far the
  // unsharded low-precision call itself is from exact (0 if none).
  double own_error = 0;
};

// Factor on the unsharded call's measured rounding that a rank's may reach.
inline constexpr double kRoundingFactor = 8;
// The allowance never exceeds this fraction of the magnitudes involved: a
// Partial part off by one part in 10^3, or a shard one row off, still fails
// in float32.
inline constexpr double kMaxRelativeRounding = 1e-4;

// Re-judges locals that failed CheckOutput (`plain`, its result, returned
// as is when it passed or failed on shape, dtype or a non-finite value) by
// their distance to the float64 reference instead of to the low-precision
// full output. Element i may be
// off by atol + rtol * |ref[i]| + allowance[i], with
//   own       = kRoundingFactor * max(own_error, eps * max|ref|) * growth:
//               the unsharded call's measured rounding (a contraction of
//               length K rounds ~sqrt(K) times more than one operation),
//               grown by growth = W * input_scale / full_input_scale, at
//               least 1 (1 without Partial inputs): a multilinear operator
//               rounds in proportion to its operands, and each of the W
//               ranks works on parts that large;
//   m[i]      = the scale at which the reduction over ranks rounds
//               (rounding_slack.h PartialRoundingScale, with |ref[i]| as
//               the reduction's value): sum_r |local_r[i]| + W * input_scale
//               for P(sum) (divided by W for P(avg)), W * |ref[i]| for
//               P(product) and _NormP(p);
//   allowance = min(kRoundingFactor * eps * m[i] + own,
//                   kMaxRelativeRounding * (|ref[i]| + m[i]))  for P(sum),
//                                         P(avg), P(product), _NormP(p);
//               min(kRoundingFactor * eps * max|ref| + own,
//                   kMaxRelativeRounding * max|ref|)            for R, S and
//               P(max), P(min): these reduce exactly and one rank holds
//               each value, so a rank's rounding is relative to the
//               output's magnitude, as R's (a contraction rounds relative
//               to its terms, not to one small result: addbmm's P(max)
//               self on a 2x3 mesh was off by 1.1e-4 of a value of 2).
// The cap keeps the relief below one part in 10^4 of the values involved,
// however large the measured rounding (floor near an integer, overflow in
// the low-precision call). Elements whose full output is non-finite keep
// CheckOutput's rules (equal for R and S, no evidence for P), and so does every element where the
// reference is not finite or lies past the dtype's largest finite value
// (another computation: nan_to_num maps inf to float64's largest value). Shape and dtype
// mismatches are not re-judged.
OutputCheck CheckAgainstReference(const at::Tensor& full, const std::vector<at::Tensor>& locals,
                                  const Placement& p, const CheckContext& context,
                                  const RoundingReference& reference,
                                  const OutputCheck& plain);

}  // namespace shrt

#endif  // SHRT_ENGINE_OUTPUT_CHECK_H_
