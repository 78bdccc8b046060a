// The chunks that Shard and _StridedShard placements give a rank
// (DESIGN.md §3, §9), in torch.chunk's layout, uneven and empty chunks
// included (mesh.h ChunkOf, StridedChunkOf): as a view of the tensor
// (ShardPiece), or as index ranges of it (Piece), cut level by level and
// copied into a fresh contiguous tensor by one strided loop (CopyOf,
// ShardCopy). The 1-D layout (distribute.h) and the N-D one (nd_layout.h)
// cut and copy every Shard local and expected piece here; neither goes
// through the other for it.
#ifndef SHRT_ENGINE_SHARD_CHUNKS_H_
#define SHRT_ENGINE_SHARD_CHUNKS_H_

#include <vector>

#include "ATen/core/Tensor.h"
#include "shrt/vocab/mesh.h"
#include "shrt/vocab/placement.h"

namespace shrt {

// The part of `t` that rank `rank` of `world_size` holds under Shard or
// _StridedShard `p` (p.dim() < t.dim()): a view for S(d), a concatenation
// of the pieces of mesh.h StridedChunkOf for _S(d, sf). Not copied.
at::Tensor ShardPiece(const at::Tensor& t, const Placement& p, int world_size, int rank);

// Rank `rank`'s chunk of `t` under Shard or _StridedShard `p` on a mesh
// dim of `w` ranks, as a fresh contiguous tensor: what
// ShardPiece(t, p, w, rank).clone() makes, cut as a Piece (ChunkOfPiece)
// and copied by CopyOf, without a dispatched narrow, cat or clone. A dim
// outside `t` takes ShardPiece's path (and its error).
at::Tensor ShardCopy(const at::Tensor& t, const Placement& p, int w, int rank);

// Index ranges along one dim, in order; a piece holds their concatenation.
// Kept normal: no empty range, no two adjacent ones.
using Ranges = std::vector<ChunkRange>;

// One piece of a tensor, as what it holds: per dim, the index ranges of
// `src`. Cut lazily: a piece becomes a tensor only when it is split (Cut)
// or copied as a local (CopyOf).
struct Piece {
  at::Tensor src;
  std::vector<Ranges> held;
};

// All of `t`, as a piece of itself.
Piece WholePiece(const at::Tensor& t);

// Chunk c of `piece` under Shard or _StridedShard `p` (p.dim() < the
// piece's dims) on a mesh dim of w ranks: mesh.h ChunkOf or StridedChunkOf
// of the piece's length along p.dim(), as ranges of piece.src.
Piece ChunkOfPiece(const Piece& piece, const Placement& p, int w, int c);

// The piece's elements of its `src`: a view where every dim holds one
// range (or none), else the ranges concatenated (dispatched narrow, cat).
at::Tensor Cut(const Piece& piece);

// What Cut(piece).clone(at::MemoryFormat::Contiguous) makes, copied in
// one pass without a dispatched op (one memcpy when the piece is one block
// of a contiguous tensor: all of it, a run of rows, part of a row, and the
// like; else a memcpy per row): a narrow, a cat and a clone each cost a
// dispatcher call and a TensorIterator, and DistributeNd makes tens of
// thousands of locals per overload on 2x2 (BENCHMARKS.md "Issue 28, one
// fill"). A tensor with a conjugate or negative bit, or not strided, takes
// the dispatched path. Every element of the result is written, so its
// buffer is not filled first (torch_runtime.h UnfilledScope).
at::Tensor CopyOf(const Piece& piece);

}  // namespace shrt

#endif  // SHRT_ENGINE_SHARD_CHUNKS_H_
