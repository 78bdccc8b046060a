// How large an input ShRT accepts: the one home of its size limits, and the
// checks that apply them before anything is read, allocated or enumerated.
//
// Everything a user writes is bounded here, so that no spec, recipe, table,
// xfail file or flag makes ShRT allocate or loop without bound (DESIGN.md
// §10). The limits are far above what a useful sample needs (the checked-in
// specs hold at most 2,048 elements and 4 dims per sample) and far below
// what would exhaust a machine:
//
//   kMaxFileBytes        one text file (spec, recipe, table, xfails); a
//                        device such as /dev/zero never ends.
//   kMaxSampleElements   the input tensors of one sample together, and each
//                        size argument. A case keeps the full inputs, W
//                        per-rank copies of them (R copies the whole tensor
//                        to every rank), the full outputs and W per-rank
//                        outputs: about 2W + 2 times the sample, so 2^20
//                        float64 elements (8 MiB) cost about 1 GiB at the
//                        largest world size, 64.
//   kMaxDims             the rank of a tensor, or the length of a size
//                        argument: each dim adds a candidate placement S(d)
//                        to every rank-d tensor of the sample.
//   kMaxPlacementTuples  the input placement tuples of one sample, and its
//                        output placement tuples: the product over tensors
//                        of their candidate placements, each input tuple run
//                        on W ranks per generator and redraw. Ground truth
//                        keeps an int per (tuple, output, candidate): 24
//                        MiB at the limit for three outputs of up to
//                        eight candidates. The largest checked-in
//                        sample, native_layer_norm_backward's six float64
//                        tensors (8^4 x 7^2 = 200,704 tuples), takes 8 s
//                        at W = 4; amsgrad's fused Adam step (100,842
//                        tuples, five outputs) 50 s, too slow to sample.
//   kMaxNdRules          the N-D rules an expansion to a mesh checks per
//                        sample (expand.h): (K + 1)^n for K single-dim
//                        rules on n mesh dims, each run on every rank;
//                        larger expansions are checked on a deterministic
//                        subset. The largest a checked-in spec gives on 2x2
//                        is 9,801 (native_layer_norm, 98 rules); the 23
//                        overloads past 1,024 took 17 s of CPU together,
//                        all checked (BENCHMARKS.md "Issue 28"). List ops,
//                        whose whole-list strategies have a rule per
//                        combination of their elements' rules, are
//                        expanded per list element (list_elements.h).
//   kMaxOverloadNameBytes an overload name ("aten::add.Tensor"); the
//                        longest in libtorch 1.13 has under 70 bytes.
//   kMaxMagnitudeExp     a magnitude generator's max_exp (recipe.proto):
//                        10^309 is inf in double precision. Values finite
//                        in double but not in a sample's dtype are refused
//                        per sample (recipe_fit.h).
#ifndef SHRT_VOCAB_LIMITS_H_
#define SHRT_VOCAB_LIMITS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"

namespace shrt {

inline constexpr size_t kMaxFileBytes = size_t{64} << 20;
inline constexpr int64_t kMaxSampleElements = int64_t{1} << 20;
inline constexpr int64_t kMaxDims = 16;
inline constexpr int64_t kMaxPlacementTuples = int64_t{1} << 18;
inline constexpr int64_t kMaxNdRules = 16384;
inline constexpr size_t kMaxOverloadNameBytes = 256;
inline constexpr double kMaxMagnitudeExp = 308;

// OK if a tensor of `shape` fits the limits: at most kMaxDims dims, every
// size in [0, kMaxSampleElements], and the product of the sizes (a size 0
// counted as 1, so that a huge dim beside an empty one is refused too) at
// most kMaxSampleElements. No arithmetic here overflows, whatever `shape`
// holds. Errors: InvalidArgument saying which limit is passed, e.g.
// "shape [100000, 100000] has 10000000000 elements, more than the 1048576
// a sample may hold (shrt/vocab/limits.h)".
absl::Status CheckShape(absl::Span<const int64_t> shape);

// The number of elements of `shape`, which must have passed CheckShape.
int64_t NumElements(absl::Span<const int64_t> shape);

// OK if a size argument (a SymInt[] of the schema: view's `size`,
// new_zeros' `size`, repeat's `repeats`) holding `values` fits the limits
// as a shape: negative entries (view's -1) are skipped, the others checked
// as CheckShape does. Errors: as CheckShape, naming a size argument.
absl::Status CheckSizeList(absl::Span<const int64_t> values);

// OK if a SymInt argument (a size such as embedding_dense_backward's
// `num_weights`, or a start or end along a dim) is at most
// kMaxSampleElements. Errors: InvalidArgument otherwise.
absl::Status CheckSize(int64_t value);

// The product of `counts` (candidate placements per tensor), or
// kMaxPlacementTuples + 1 once it passes kMaxPlacementTuples (saturating:
// a thousand outputs do not overflow).
int64_t PlacementTuples(const std::vector<size_t>& counts);

}  // namespace shrt

#endif  // SHRT_VOCAB_LIMITS_H_
