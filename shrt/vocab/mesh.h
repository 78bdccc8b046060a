// Simulated device meshes and DTensor's chunk layout on them.
//
// ShRT never creates devices or process groups: the W ranks of the mesh are
// simulated by running an operator W times in one process on per-rank local
// tensors (DESIGN.md §3). A single-dim rule needs one mesh dimension (Mesh);
// its expansion to an N-D mesh (DESIGN.md §9, expand.h) is checked on a
// MeshShape of up to three dims.
#ifndef SHRT_VOCAB_MESH_H_
#define SHRT_VOCAB_MESH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace shrt {

// A 1-D mesh of `world_size` ranks. Construct with Mesh::Create.
class Mesh {
 public:
  // The smallest world size at which placements differ from Replicate.
  static constexpr int kMinWorldSize = 2;
  // An upper bound that keeps per-case work bounded; DTensor meshes are
  // larger, but a single-dim rule that holds for W = 2, 3, 4, 8 and fails at
  // W = 4096 would need data-dependent chunking, which no aten op does.
  static constexpr int kMaxWorldSize = 64;

  // Errors: InvalidArgument when world_size is outside
  // [kMinWorldSize, kMaxWorldSize] (a 1-rank "mesh" cannot tell R from S).
  static absl::StatusOr<Mesh> Create(int world_size);

  int world_size() const { return world_size_; }

 private:
  explicit Mesh(int world_size) : world_size_(world_size) {}
  int world_size_;
};

// The shape of a mesh of one to three dims, e.g. (2, 3) for `--mesh=2x3`.
// Ranks are numbered row-major, as DeviceMesh(torch.arange(n).reshape(shape))
// numbers them: rank (i, j) of a 2x3 mesh is 3 * i + j. A 1-D shape (W) is
// the world size W of Mesh. Construct with Create or Parse.
class MeshShape {
 public:
  static constexpr int kMaxDims = 3;

  // Errors: InvalidArgument when there are no dims or more than kMaxDims, a
  // dim is below 1, or the ranks are outside [Mesh::kMinWorldSize,
  // Mesh::kMaxWorldSize] (a 1x1 mesh cannot tell R from S).
  static absl::StatusOr<MeshShape> Create(std::vector<int> dims);
  // "2x3", "4", "2x2x2". Errors: InvalidArgument naming the text, or
  // Create's.
  static absl::StatusOr<MeshShape> Parse(absl::string_view text);

  const std::vector<int>& dims() const { return dims_; }
  int ndim() const { return static_cast<int>(dims_.size()); }
  // The number of ranks, the product of the dims.
  int size() const { return size_; }
  // "2x3".
  std::string ToString() const;
  // The coordinates of rank `rank` (0 <= rank < size()), one per mesh dim.
  std::vector<int> Coordinates(int rank) const;
  // "(1, 2)" for a 2-D mesh, "3" for a 1-D one: how evidence names a rank.
  std::string RankName(int rank) const;

  friend bool operator==(const MeshShape& a, const MeshShape& b) { return a.dims_ == b.dims_; }

 private:
  explicit MeshShape(std::vector<int> dims);
  std::vector<int> dims_;
  int size_ = 1;
};

// The half-open row range [begin, end) that rank `rank` holds when a dim of
// size `size` is sharded over `world_size` ranks, in torch.chunk's layout
// (DTensor's Shard._split_tensor): chunk size c = ceil(size / W), rank r
// holds [r*c, min((r+1)*c, size)), and ranks past the end hold an empty
// range (begin == end == size). Requires size >= 0, world_size >= 1,
// 0 <= rank < world_size.
struct ChunkRange {
  int64_t begin;
  int64_t end;
  int64_t length() const { return end - begin; }
};
ChunkRange ChunkOf(int64_t size, int world_size, int rank);

// The ranges, in order, that rank `rank` holds under _StridedShard(d, sf)
// (placement.h) when a dim of size `size` is sharded over `world_size`
// ranks: pieces rank, rank + W, ..., rank + (sf - 1) * W of the dim cut
// into W * sf torch.chunk pieces, concatenated (DTensor's
// _StridedShard._split_tensor, torch/distributed/tensor/placement_types.py;
// pieces past the end are empty, as fill_empty_tensor_to_shards makes
// them). Requires split_factor >= 1, as ChunkOf otherwise.
std::vector<ChunkRange> StridedChunkOf(int64_t size, int world_size, int64_t split_factor,
                                       int rank);

}  // namespace shrt

#endif  // SHRT_VOCAB_MESH_H_
