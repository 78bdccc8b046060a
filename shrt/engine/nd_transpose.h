// Transposed N-D rules on a square 2-D mesh (nd_truth.h): which rules of a
// sample's list make exactly another rule's calls on the transposed ranks,
// so that the N-D engine runs one of the two and judges the other with it.
//
// On a w x w mesh, the transpose of a rule swaps its two mesh dims:
// `[S(0), P(sum)] -> [S(0), P(sum)]` is the transpose of
// `[P(sum), S(0)] -> [P(sum), S(0)]`. When every tensor of the rule
// transposes (nd_layout.h TransposesOnSquareMesh), rank (i, j) of the rule
// holds, input by input, what rank (j, i) of its transpose holds, key
// included, and each output check of one passes or fails as the other's
// on the transposed ranks. Engine-internal; a header for its test.
#ifndef SHRT_ENGINE_ND_TRANSPOSE_H_
#define SHRT_ENGINE_ND_TRANSPOSE_H_

#include <cstddef>
#include <optional>
#include <vector>

#include "ATen/core/Tensor.h"
#include "shrt/vocab/mesh.h"
#include "shrt/vocab/nd_rule.h"

namespace shrt {

// `rule` with its two mesh dims swapped, when it has two and every tensor
// of it transposes (TransposesOnSquareMesh); else nullopt. A rule can be its
// own transpose (`[R, R] -> [R, R]`).
std::optional<NdRule> Transposed(const NdRule& rule);

// Per rule of `rules` (in order): the earlier rule it is judged with, or
// nullopt when it runs itself or is not run at all. Rule r follows rule l
// when l < r, l is the first rule equal to r's Transposed (other than r
// itself), and l runs itself: `needs_calls[l]` (the caller's static
// judgement left it open) and l follows no rule. A rule that does not need
// calls follows none. All nullopt unless `mesh` is 2-D and square.
// `needs_calls` has one entry per rule.
std::vector<std::optional<size_t>> TransposeLeaders(const std::vector<NdRule>& rules,
                                                    const std::vector<bool>& needs_calls,
                                                    const MeshShape& mesh);

// Rank (j, i) of a square 2-D mesh for flat rank `rank` = (i, j).
int TransposedRank(const MeshShape& mesh, int rank);

// `ranks` (one tensor per rank of a square 2-D mesh, row-major) with each
// rank's tensor moved to its transposed rank: what a follower's ranks
// returned, from its leader's rank outputs.
std::vector<at::Tensor> TransposeRanks(const std::vector<at::Tensor>& ranks,
                                       const MeshShape& mesh);

}  // namespace shrt

#endif  // SHRT_ENGINE_ND_TRANSPOSE_H_
