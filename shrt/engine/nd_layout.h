// DTensor's nested layout of a tensor on an N-D mesh (DESIGN.md §9): the
// per-rank locals of N-D placements, their local shapes, and the check of
// an operator's per-rank outputs against N-D output placements.
//
// Mesh dim 0 applies first (outermost): rank (i, j) of `[p0, p1]` holds
// piece j under p1 of piece i under p0 of the full tensor, with torch.chunk
// at every Shard level, uneven and empty pieces included (DTensor's default
// left-to-right order; DTensorSpec and
// torch/distributed/tensor/_utils.py compute_local_shape_and_global_offset).
// `[S(0), S(0)]` is a chunk of a chunk; `[_S(0, 2), S(0)]` expresses the
// other order (placement.h).
//
// Ranks are in row-major order (mesh.h MeshShape). A 1-D mesh gives
// exactly the layout of distribute.h and the check of output_check.h.
#ifndef SHRT_ENGINE_ND_LAYOUT_H_
#define SHRT_ENGINE_ND_LAYOUT_H_

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "ATen/core/Tensor.h"
#include "shrt/engine/output_check.h"
#include "shrt/vocab/mesh.h"
#include "shrt/vocab/placement.h"

namespace shrt {

// What DistributeNd drew and copied for one tensor, kept between its
// calls: every Partial split (the parts of one piece, by the split's key,
// which names the seed, with their largest finite |value|) and every
// distinct local (a contiguous copy, by its rank key). A caller passes one
// cache per tensor, for any seeds (nd_truth.cc: per input and negation of
// a case), and never reads it.
struct NdPieceCache {
  struct Split {
    std::vector<at::Tensor> parts;
    double max_abs_part = 0;
  };
  std::unordered_map<uint64_t, Split> splits;
  std::unordered_map<uint64_t, at::Tensor> locals;
};

// The mesh.size() locals of `full` under `placements` (one per mesh dim;
// CheckNdPlacements holds), distributed level by level: Replicate levels
// repeat a piece, Shard and _StridedShard levels cut it (mesh.h ChunkOf,
// StridedChunkOf), and Partial levels split it into parts with
// distribute.h Distribute (parts of parts for [P(sum), P(sum)]). A Partial
// level splits the piece's base whole (the tensor it was cut from: `full`,
// or the part an earlier Partial level drew) and cuts each part to what
// the piece holds: the parts of a chunk are the chunks of the parts, as
// the chunks of a sum are the sums of the chunks, so Shard levels cut the
// same values before a Partial level as after it. A split is drawn with a
// seed derived from `seed`, the base, the placement and the mesh dim's
// size alone, so one base split one way gets the same parts under any
// placements: ranks that differ only on Replicate mesh dims hold the same
// values, [R, P(sum)]'s rank (0, j) holds what [P(sum), R]'s rank (j, 0)
// holds, and [S(0), P(sum)]'s rank (i, j) what [P(sum), S(0)]'s rank
// (j, i) holds. `max_abs_part` as Distribute's, over every split drawn
// (a split of a base, not of the cut piece). Each distinct local is one
// contiguous copy, and ranks holding the same content share that tensor: a caller
// that lets an operator write its inputs copies them first (nd_truth.cc).
// If `rank_keys` is given, it receives one key per rank, naming what the
// rank's local holds: equal keys, equal locals, whatever placements gave
// them. A key names the index ranges of `full` a local holds, so the rank
// holding chunk 1 of dim 0 has the same key under [S(0), R] and [R, S(0)],
// and the same as a 1-D S(0) rank 1 of 2; a Partial level's parts are
// keyed by the split that drew them. Keys do not name `full` itself: a
// caller mixes in which tensor it distributed.
// If `cache` is given (made for this `full`), the splits and copies it
// holds are taken from it, and those made are added to it: across the
// placements of one tensor, each split is drawn and each local copied once.
std::vector<at::Tensor> DistributeNd(const at::Tensor& full,
                                     const std::vector<Placement>& placements,
                                     const MeshShape& mesh, uint64_t seed,
                                     double* max_abs_part = nullptr,
                                     std::vector<uint64_t>* rank_keys = nullptr,
                                     NdPieceCache* cache = nullptr);

// Whether a tensor under placements [p, q] on a square 2-D mesh (w x w)
// holds on rank (i, j) what it holds under [q, p] on rank (j, i), key
// included (DistributeNd, the same cache), and whether rank outputs under
// [p, q] pass CheckNdOutput exactly when the same outputs on the
// transposed ranks pass it under [q, p], with the same evidence up to the
// rank names. Shard and _StridedShard "cut" a dim. True when:
//   p or q is Replicate   the Replicate level repeats what the other level
//                         cuts or splits, on either mesh dim;
//   cuts of two dims      one block of the tensor, each dim cut by its own
//                         size alone (mesh.h ChunkOf, StridedChunkOf);
//   a cut and a Partial   a Partial level splits the whole base and the cut
//                         takes the same ranges of the parts, before it as
//                         after it; an output's Partial level reduces the
//                         same ranks' locals against the same piece.
// False for two cuts of one dim (S(0) twice is a chunk of a chunk: rank
// (i, j) holds chunk 2 * i + j; _StridedShard's order against another cut
// of its dim is what it expresses) and for a Partial twice (parts of
// parts).
bool TransposesOnSquareMesh(const Placement& p, const Placement& q);

// The shape of rank `rank`'s local of a tensor of shape `shape` under
// `placements`: the Shard and _StridedShard levels' pieces, nested.
std::vector<int64_t> NdLocalShape(std::vector<int64_t> shape,
                                  const std::vector<Placement>& placements, const MeshShape& mesh,
                                  int rank);

// Checks the per-rank outputs `locals` (mesh.size(), row-major) against
// `full` under `placements`. The ranks fall into groups that agree on every
// non-Partial mesh dim coordinate; a group's expected value is `full`
// pieced by those dims' placements alone (a Partial level keeps the shape,
// so the pieces of later levels are the same), and the group's ranks,
// varying over the Partial mesh dims, are checked against it by
// output_check.h CheckOutput under the one Partial op (as one Partial
// placement over that many ranks), or, with no Partial level, each rank
// alone as Replicate of its piece. Numeric failures of a low-precision
// computation are re-judged against `reference` (if not null: the full
// output's float64 reference, pieced alike) by CheckAgainstReference.
// With `context.special_inputs`, a placement that shards on some mesh dim
// is checked for the pieces' shapes only, Partial levels included (its
// locals are chunks: output_check.h CheckContext).
// OutputCheck::rank is the flat rank (mesh.RankName names it), or -1 when
// only a group's reduction is wrong, with the group in `detail`;
// OutputCheck::rejudged is true when any group was re-judged.
// `expected`, if not null, keeps the groups' expected pieces (contiguous
// copies, in group order) between calls with the same `full`, `placements`
// and mesh: a call cuts those it needs that are not there yet, so a caller
// that checks many rank outputs against one output placement (every tuple
// of input placements of a case, nd_truth.cc) cuts each piece once.
OutputCheck CheckNdOutput(const at::Tensor& full, const std::vector<at::Tensor>& locals,
                          const std::vector<Placement>& placements, const MeshShape& mesh,
                          const CheckContext& context,
                          const std::function<const RoundingReference*()>& reference,
                          std::vector<at::Tensor>* expected = nullptr);

}  // namespace shrt

#endif  // SHRT_ENGINE_ND_LAYOUT_H_
