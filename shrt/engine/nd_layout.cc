#include "shrt/engine/nd_layout.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <limits>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "shrt/engine/distribute.h"
#include "shrt/engine/shard_chunks.h"
#include "shrt/engine/torch_runtime.h"
#include "shrt/spec/rng.h"

namespace shrt {
namespace {

bool Pieces(const Placement& p) { return p.is_shard() || p.is_strided_shard(); }

// A piece as DistributeNd's keys name it: `base` names the piece's src
// (0 for the full tensor, else the split that drew a Partial part), and
// `whole_part` says src is itself the piece (a whole, contiguous Partial
// part, made a local as it is).
struct KeyedPiece {
  Piece piece;
  uint64_t base = 0;
  bool whole_part = false;
};

uint64_t ContentKey(const KeyedPiece& k) {
  const std::vector<Ranges>& held = k.piece.held;
  uint64_t key = MixSeed({k.base, held.size()});
  for (size_t d = 0; d < held.size(); ++d) {
    key = MixSeed({key, d, held[d].size()});
    for (const ChunkRange& r : held[d]) {
      key = MixSeed({key, static_cast<uint64_t>(r.begin), static_cast<uint64_t>(r.end)});
    }
  }
  return key;
}

// True if `piece` holds all of its src.
bool HoldsAll(const Piece& piece) {
  for (size_t d = 0; d < piece.held.size(); ++d) {
    const Ranges& r = piece.held[d];
    const int64_t size = piece.src.size(static_cast<int64_t>(d));
    if (size != 0 && (r.size() != 1 || r[0].begin != 0 || r[0].end != size)) return false;
  }
  return true;
}

}  // namespace

std::vector<at::Tensor> DistributeNd(const at::Tensor& full,
                                     const std::vector<Placement>& placements,
                                     const MeshShape& mesh, uint64_t seed, double* max_abs_part,
                                     std::vector<uint64_t>* rank_keys, NdPieceCache* cache) {
  const UnfilledScope unfilled;  // every local is written in full
  NdPieceCache own;
  NdPieceCache& made = cache != nullptr ? *cache : own;
  // The pieces after the mesh dims so far, in row-major order: Replicate
  // levels repeat a piece, Shard levels narrow what it holds, Partial
  // levels split its base into parts drawn from `seed` and that base, and
  // cut them to what it holds.
  std::vector<KeyedPiece> level{{WholePiece(full)}};
  for (int m = 0; m < mesh.ndim(); ++m) {
    const Placement& p = placements[m];
    const int w = mesh.dims()[m];
    std::vector<KeyedPiece> next;
    next.reserve(level.size() * w);
    for (const KeyedPiece& piece : level) {
      if (p.is_replicate()) {
        for (int c = 0; c < w; ++c) next.push_back(piece);
        continue;
      }
      if (Pieces(p)) {
        for (int c = 0; c < w; ++c) {
          next.push_back({ChunkOfPiece(piece.piece, p, w, c), piece.base, false});
        }
        continue;
      }
      // Partial: the piece's base (its src: the full tensor, or the whole
      // part an earlier Partial level drew) is split whole, and each part
      // is cut to what the piece holds. A split is determined by the base,
      // the placement, the mesh dim's size and `seed`, and drawn once; and
      // as the region of a split is a split of the region, Shard levels
      // before a Partial one cut what they would cut after it.
      const KeyedPiece base{WholePiece(piece.piece.src), piece.base};
      const uint64_t split = MixSeed({seed, ContentKey(base),
                                      std::hash<std::string>()(p.ToString()),
                                      static_cast<uint64_t>(w)});
      auto it = made.splits.find(split);
      if (it == made.splits.end()) {
        NdPieceCache::Split parts;
        parts.parts = Distribute(base.piece.src, p, w, split, &parts.max_abs_part);
        it = made.splits.emplace(split, std::move(parts)).first;
      }
      if (max_abs_part != nullptr) *max_abs_part = std::max(*max_abs_part, it->second.max_abs_part);
      const bool whole = HoldsAll(piece.piece);
      for (int c = 0; c < w; ++c) {
        const at::Tensor& part = it->second.parts[c];
        next.push_back(
            {{part, piece.piece.held}, MixSeed({split, static_cast<uint64_t>(c) + 1}), whole});
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
  for (const KeyedPiece& piece : level) {
    const uint64_t key = ContentKey(piece);
    auto it = made.locals.find(key);
    if (it == made.locals.end()) {
      at::Tensor local = piece.whole_part ? piece.piece.src : CopyOf(piece.piece);
      it = made.locals.emplace(key, std::move(local)).first;
    }
    locals.push_back(it->second);
    keys.push_back(key);
  }
  if (rank_keys != nullptr) *rank_keys = std::move(keys);
  return locals;
}

bool TransposesOnSquareMesh(const Placement& p, const Placement& q) {
  if (p.is_replicate() || q.is_replicate()) return true;
  if (Pieces(p) && Pieces(q)) return p.dim() != q.dim();
  return Pieces(p) != Pieces(q);  // one cuts, the other is Partial
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
    Piece cut = WholePiece(t);
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
    if (sharded && context.special_inputs) {
      // A group's locals are chunks, their elements elsewhere than the
      // full output's: shapes only, whatever `p` (CheckContext).
      OutputCheck check = CheckOutput(want, members, Placement::Replicate(), context);
      if (check.ok) continue;
      check.rank = groups[g][check.rank >= 0 ? check.rank : 0];
      return check;
    }
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
