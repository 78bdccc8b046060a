#include "shrt/engine/nd_layout.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <limits>
#include <optional>

#include "ATen/ops/cat.h"
#include "ATen/ops/empty.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "shrt/engine/distribute.h"
#include "shrt/engine/torch_runtime.h"
#include "shrt/spec/rng.h"

namespace shrt {
namespace {

bool Pieces(const Placement& p) { return p.is_shard() || p.is_strided_shard(); }

// Index ranges along one dim, in order; a piece holds their concatenation.
// Kept normal: no empty range, no two adjacent ones.
using Ranges = std::vector<ChunkRange>;

void Append(Ranges& out, ChunkRange r) {
  if (r.length() == 0) return;
  if (!out.empty() && out.back().end == r.begin) {
    out.back().end = r.end;
  } else {
    out.push_back(r);
  }
}

// The ranges of the base that elements [begin, end) of a piece holding
// `held` cover.
void AppendSub(const Ranges& held, ChunkRange want, Ranges& out) {
  int64_t at = 0;  // the piece's index of the current range's first element
  for (const ChunkRange& r : held) {
    const int64_t lo = std::max(want.begin, at), hi = std::min(want.end, at + r.length());
    if (lo < hi) Append(out, {r.begin + lo - at, r.begin + hi - at});
    at += r.length();
  }
}

// One piece of a level, as what it holds: per dim, the index ranges of
// `src`, a tensor that is either `full` (key 0) or a Partial part (keyed
// by the split that drew it). Cut lazily: a piece is only made a tensor
// to be split, or once as a local (Cut).
struct Piece {
  at::Tensor src;
  uint64_t base;
  std::vector<Ranges> held;
  // The whole of a Partial part: `src` itself is the piece, contiguous.
  bool whole_part = false;
};

uint64_t ContentKey(const Piece& p) {
  uint64_t key = MixSeed({p.base, p.held.size()});
  for (size_t d = 0; d < p.held.size(); ++d) {
    key = MixSeed({key, d, p.held[d].size()});
    for (const ChunkRange& r : p.held[d]) {
      key = MixSeed({key, static_cast<uint64_t>(r.begin), static_cast<uint64_t>(r.end)});
    }
  }
  return key;
}

std::vector<Ranges> Whole(const at::Tensor& t) {
  std::vector<Ranges> held(t.dim());
  for (int64_t d = 0; d < t.dim(); ++d) Append(held[d], {0, t.size(d)});
  return held;
}

int64_t Length(const Ranges& ranges) {
  int64_t n = 0;
  for (const ChunkRange& r : ranges) n += r.length();
  return n;
}

// The piece's elements of its `src`: a view where every dim holds one
// range (or none), else the ranges concatenated.
at::Tensor Cut(const Piece& piece) {
  at::Tensor t = piece.src;
  for (int64_t d = 0; d < static_cast<int64_t>(piece.held.size()); ++d) {
    const Ranges& ranges = piece.held[d];
    if (ranges.size() == 1 && ranges[0].begin == 0 && ranges[0].end == t.size(d)) continue;
    if (ranges.size() <= 1) {
      t = ranges.empty() ? t.narrow(d, 0, 0) : t.narrow(d, ranges[0].begin, ranges[0].length());
      continue;
    }
    std::vector<at::Tensor> parts;
    for (const ChunkRange& r : ranges) parts.push_back(t.narrow(d, r.begin, r.length()));
    t = at::cat(parts, d);
  }
  return t;
}

// Chunk c of `piece` under Shard or _StridedShard placement `p` on a mesh
// dim of size w (mesh.h ChunkOf, StridedChunkOf), as what it holds.
Piece ChunkOfPiece(const Piece& piece, const Placement& p, int w, int c) {
  const int64_t d = p.dim();
  const int64_t size = Length(piece.held[d]);
  Piece cut{piece.src, piece.base, piece.held};
  Ranges& ranges = cut.held[d];
  ranges.clear();
  const std::vector<ChunkRange> chunks = p.is_shard()
                                             ? std::vector<ChunkRange>{ChunkOf(size, w, c)}
                                             : StridedChunkOf(size, w, p.split_factor(), c);
  for (const ChunkRange& chunk : chunks) AppendSub(piece.held[d], chunk, ranges);
  return cut;
}

// What Cut(piece).clone(at::MemoryFormat::Contiguous) makes, copied in
// one pass without a dispatched op: a narrow, a cat and a clone each cost a
// dispatcher call and a TensorIterator, and DistributeNd makes tens of
// thousands of locals per overload on 2x2 (BENCHMARKS.md "Issue 28, one
// fill"). A tensor with a conjugate or negative bit, or not strided, takes
// the dispatched path.
at::Tensor CopyOf(const Piece& piece) {
  const UnfilledScope unfilled;  // every element of the result is written
  const at::Tensor& src = piece.src;
  if (src.is_conj() || src.is_neg() || src.layout() != at::kStrided) {
    return Cut(piece).clone(at::MemoryFormat::Contiguous);
  }
  const int64_t ndim = src.dim();
  std::vector<int64_t> sizes(ndim);
  for (int64_t d = 0; d < ndim; ++d) sizes[d] = Length(piece.held[d]);
  at::Tensor out = at::empty(sizes, src.options());
  const int64_t item = src.element_size();
  const char* from = static_cast<const char*>(src.const_data_ptr());
  char* to = static_cast<char*>(out.data_ptr());
  if (ndim == 0) {
    std::memcpy(to, from, item);
    return out;
  }
  if (out.numel() == 0) return out;
  // Per outer dim, the source offsets (elements) of the indices it keeps.
  std::vector<std::vector<int64_t>> offsets(ndim - 1);
  for (int64_t d = 0; d + 1 < ndim; ++d) {
    for (const ChunkRange& r : piece.held[d]) {
      for (int64_t i = r.begin; i < r.end; ++i) offsets[d].push_back(i * src.stride(d));
    }
  }
  const Ranges& inner = piece.held[ndim - 1];
  const int64_t inner_stride = src.stride(ndim - 1);
  std::vector<size_t> index(ndim - 1, 0);  // per outer dim, into offsets
  while (true) {
    int64_t offset = 0;
    for (int64_t d = 0; d + 1 < ndim; ++d) offset += offsets[d][index[d]];
    for (const ChunkRange& r : inner) {
      if (inner_stride == 1) {
        std::memcpy(to, from + (offset + r.begin) * item, r.length() * item);
        to += r.length() * item;
        continue;
      }
      for (int64_t i = r.begin; i < r.end; ++i, to += item) {
        std::memcpy(to, from + (offset + i * inner_stride) * item, item);
      }
    }
    int64_t d = ndim - 2;
    while (d >= 0 && ++index[d] == offsets[d].size()) index[d--] = 0;
    if (d < 0) return out;
  }
}

}  // namespace

at::Tensor ShardCopy(const at::Tensor& t, const Placement& p, int w, int rank) {
  if (p.dim() < 0 || p.dim() >= t.dim()) {
    return ShardPiece(t, p, w, rank).clone(at::MemoryFormat::Contiguous);
  }
  return CopyOf(ChunkOfPiece({t, 0, Whole(t)}, p, w, rank));
}

std::vector<at::Tensor> DistributeNd(const at::Tensor& full,
                                     const std::vector<Placement>& placements,
                                     const MeshShape& mesh, uint64_t seed, double* max_abs_part,
                                     std::vector<uint64_t>* rank_keys, NdPieceCache* cache) {
  const UnfilledScope unfilled;  // every local is written in full
  NdPieceCache own;
  NdPieceCache& made = cache != nullptr ? *cache : own;
  // The pieces after the mesh dims so far, in row-major order: Replicate
  // levels repeat a piece, Shard levels narrow what it holds, Partial
  // levels split it into parts drawn from `seed` and what it holds.
  std::vector<Piece> level{{full, 0, Whole(full)}};
  for (int m = 0; m < mesh.ndim(); ++m) {
    const Placement& p = placements[m];
    const int w = mesh.dims()[m];
    std::vector<Piece> next;
    next.reserve(level.size() * w);
    for (const Piece& piece : level) {
      if (p.is_replicate()) {
        for (int c = 0; c < w; ++c) next.push_back(piece);
        continue;
      }
      if (Pieces(p)) {
        for (int c = 0; c < w; ++c) next.push_back(ChunkOfPiece(piece, p, w, c));
        continue;
      }
      // Partial: a part is determined by the piece it splits, the
      // placement, the mesh dim's size and `seed`, and drawn once.
      const uint64_t split = MixSeed({seed, ContentKey(piece),
                                      std::hash<std::string>()(p.ToString()),
                                      static_cast<uint64_t>(w)});
      auto it = made.splits.find(split);
      if (it == made.splits.end()) {
        NdPieceCache::Split parts;
        parts.parts = Distribute(Cut(piece), p, w, split, &parts.max_abs_part);
        it = made.splits.emplace(split, std::move(parts)).first;
      }
      if (max_abs_part != nullptr) *max_abs_part = std::max(*max_abs_part, it->second.max_abs_part);
      for (int c = 0; c < w; ++c) {
        const at::Tensor& part = it->second.parts[c];
        next.push_back({part, MixSeed({split, static_cast<uint64_t>(c) + 1}), Whole(part),
                        /*whole_part=*/true});
      }
    }
    level = std::move(next);
  }
  // Each distinct local in a contiguous buffer of its own, made once per
  // cache: ranks holding the same content share it (their locals are
  // read-only: an overload that writes its inputs gets copies,
  // nd_truth.cc).
  std::vector<at::Tensor> locals;
  std::vector<uint64_t> keys;
  locals.reserve(level.size());
  keys.reserve(level.size());
  for (const Piece& piece : level) {
    const uint64_t key = ContentKey(piece);
    auto it = made.locals.find(key);
    if (it == made.locals.end()) {
      at::Tensor local = piece.whole_part ? piece.src : CopyOf(piece);
      it = made.locals.emplace(key, std::move(local)).first;
    }
    locals.push_back(it->second);
    keys.push_back(key);
  }
  if (rank_keys != nullptr) *rank_keys = std::move(keys);
  return locals;
}

std::vector<int64_t> NdLocalShape(std::vector<int64_t> shape,
                                  const std::vector<Placement>& placements, const MeshShape& mesh,
                                  int rank) {
  const std::vector<int> coords = mesh.Coordinates(rank);
  for (int m = 0; m < mesh.ndim(); ++m) {
    const Placement& p = placements[m];
    if (!Pieces(p) || p.dim() >= static_cast<int64_t>(shape.size())) continue;
    int64_t& size = shape[p.dim()];
    if (p.is_shard()) {
      size = ChunkOf(size, mesh.dims()[m], coords[m]).length();
    } else {
      int64_t total = 0;
      for (const ChunkRange& r :
           StridedChunkOf(size, mesh.dims()[m], p.split_factor(), coords[m])) {
        total += r.length();
      }
      size = total;
    }
  }
  return shape;
}

OutputCheck CheckNdOutput(const at::Tensor& full, const std::vector<at::Tensor>& locals,
                          const std::vector<Placement>& placements, const MeshShape& mesh,
                          const CheckContext& context,
                          const std::function<const RoundingReference*()>& reference,
                          std::vector<at::Tensor>* expected) {
  const int ndim = mesh.ndim();
  std::optional<Placement> partial;
  for (const Placement& p : placements) {
    if (Pieces(p) && p.dim() >= full.dim()) {
      return {false, -1, std::numeric_limits<double>::infinity(),
              absl::StrCat(p.ToString(), " of a ", full.dim(), "-d output")};
    }
    if (p.is_partial()) partial = p;
  }
  // Ranks grouped by their coordinates on the non-Partial mesh dims.
  std::vector<std::vector<int>> groups;
  std::vector<std::vector<int>> group_coords;
  for (int r = 0; r < mesh.size(); ++r) {
    std::vector<int> key = mesh.Coordinates(r);
    for (int m = 0; m < ndim; ++m) {
      if (placements[m].is_partial()) key[m] = -1;
    }
    size_t g = 0;
    while (g < group_coords.size() && group_coords[g] != key) ++g;
    if (g == group_coords.size()) {
      group_coords.push_back(key);
      groups.emplace_back();
    }
    groups[g].push_back(r);
  }
  // The piece of `t` that group g expects, contiguous: chunked level by
  // level as DistributeNd chunks an input.
  const bool sharded = std::any_of(placements.begin(), placements.end(), Pieces);
  auto piece = [&](const at::Tensor& t, size_t g) {
    if (!sharded) return t.contiguous();
    Piece cut{t, 0, Whole(t)};
    for (int m = 0; m < ndim; ++m) {
      if (Pieces(placements[m])) {
        cut = ChunkOfPiece(cut, placements[m], mesh.dims()[m], group_coords[g][m]);
      }
    }
    return CopyOf(cut);
  };
  std::vector<at::Tensor> own;
  std::vector<at::Tensor>& pieces = expected != nullptr ? *expected : own;
  bool rejudged = false;  // any group's check
  for (size_t g = 0; g < groups.size(); ++g) {
    if (pieces.size() == g) {
      const UnfilledScope unfilled;  // ShRT's own copies, written in full
      pieces.push_back(piece(full, g));
    }
    const at::Tensor& want = pieces[g];
    std::vector<at::Tensor> members;
    for (int r : groups[g]) members.push_back(locals[r]);
    const Placement p = partial.value_or(Placement::Replicate());
    OutputCheck check = CheckOutput(want, members, p, context);
    if (!check.ok && std::isfinite(check.max_abs_diff)) {
      if (const RoundingReference* ref = reference(); ref != nullptr) {
        check = CheckAgainstReference(want, members, p, context,
                                      {piece(ref->value, g), ref->own_error}, check);
      }
    }
    rejudged = rejudged || check.rejudged;
    if (check.ok) continue;
    check.rejudged = rejudged;
    if (check.rank >= 0) {
      check.rank = groups[g][check.rank];
    } else {
      std::vector<std::string> names;
      for (int r : groups[g]) names.push_back(mesh.RankName(r));
      check.detail = absl::StrCat("over ranks ", absl::StrJoin(names, ", "), ": ", check.detail);
    }
    return check;
  }
  OutputCheck passed;
  passed.rejudged = rejudged;
  return passed;
}

}  // namespace shrt
