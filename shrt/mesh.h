// A simulated 1-D device mesh and DTensor's chunk layout on it.
//
// ShRT never creates devices or process groups: the W ranks of the mesh are
// simulated by running an operator W times in one process on per-rank local
// tensors (DESIGN.md §3). Single-dim rules compose across an N-D mesh, so
// one mesh dimension is all a rule needs.
#ifndef SHRT_MESH_H_
#define SHRT_MESH_H_

#include <cstdint>

#include "absl/status/statusor.h"

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

}  // namespace shrt

#endif  // SHRT_MESH_H_
