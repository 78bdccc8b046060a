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

// One piece of a level: its tensor (a view for Replicate and Shard levels,
// fresh parts for a Partial one, `owned` then), the seed chain its Partial
// parts are drawn from, and what it holds: per dim, the index ranges of
// `base`, which keys either `full` (0) or the Partial part it was cut from.
struct Piece {
  at::Tensor t;
  uint64_t seed;
  uint64_t base;
  std::vector<Ranges> held;
  bool owned = false;  // a contiguous buffer of its own (Distribute's)
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

}  // namespace

std::vector<at::Tensor> DistributeNd(const at::Tensor& full,
                                     const std::vector<Placement>& placements,
                                     const MeshShape& mesh, uint64_t seed, double* max_abs_part,
                                     std::vector<uint64_t>* rank_keys) {
  const UnfilledScope unfilled;  // every local is written in full
  // The pieces after the mesh dims so far, in row-major order. The seed of
  // a piece's Partial parts comes from `seed`, the level and the piece's
  // non-Replicate coordinates, so ranks that differ only in Replicate
  // coordinates hold the same values, Partial parts included ([R, P(sum)]:
  // rank (0, j) and (1, j) hold the same part). Replicate and Shard levels
  // cut views; only the last level's distinct pieces are copied.
  std::vector<Piece> level{{full, seed, 0, Whole(full)}};
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
        const int64_t d = p.dim();
        for (int c = 0; c < w; ++c) {
          Piece cut{ShardPiece(piece.t, p, w, c),
                    MixSeed({piece.seed, static_cast<uint64_t>(c) + 1}), piece.base, piece.held,
                    /*owned=*/false};
          Ranges& ranges = cut.held[d];
          ranges.clear();
          const std::vector<ChunkRange> chunks =
              p.is_shard() ? std::vector<ChunkRange>{ChunkOf(piece.t.size(d), w, c)}
                           : StridedChunkOf(piece.t.size(d), w, p.split_factor(), c);
          for (const ChunkRange& chunk : chunks) AppendSub(piece.held[d], chunk, ranges);
          next.push_back(std::move(cut));
        }
        continue;
      }
      // Partial: fresh parts, each the base of its own pieces. A part is
      // determined by the piece it splits, the placement and its seed.
      const uint64_t parts_seed = MixSeed({piece.seed, static_cast<uint64_t>(m)});
      std::vector<at::Tensor> parts = Distribute(piece.t, p, w, parts_seed, max_abs_part);
      const uint64_t split = MixSeed({ContentKey(piece), parts_seed,
                                      std::hash<std::string>()(p.ToString()),
                                      static_cast<uint64_t>(w)});
      for (int c = 0; c < w; ++c) {
        std::vector<Ranges> held = Whole(parts[c]);
        next.push_back({std::move(parts[c]), MixSeed({piece.seed, static_cast<uint64_t>(c) + 1}),
                        MixSeed({split, static_cast<uint64_t>(c) + 1}), std::move(held),
                        /*owned=*/true});
      }
    }
    level = std::move(next);
  }
  // Each distinct piece in a buffer of its own, copied once unless a
  // Partial level made it: ranks holding the same content share it (their
  // locals are read-only: an overload that writes its inputs gets copies,
  // nd_truth.cc).
  std::vector<at::Tensor> locals;
  std::vector<uint64_t> keys;
  locals.reserve(level.size());
  keys.reserve(level.size());
  for (const Piece& piece : level) {
    const uint64_t key = ContentKey(piece);
    const auto same = std::find(keys.begin(), keys.end(), key);
    locals.push_back(same != keys.end() ? locals[same - keys.begin()]
                     : piece.owned      ? piece.t
                                        : piece.t.clone(at::MemoryFormat::Contiguous));
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
  // The piece of `t` that group g expects.
  auto piece = [&](at::Tensor t, size_t g) {
    for (int m = 0; m < ndim; ++m) {
      if (!Pieces(placements[m])) continue;
      t = ShardPiece(t, placements[m], mesh.dims()[m], group_coords[g][m]);
    }
    return t.contiguous();
  };
  std::vector<at::Tensor> own;
  std::vector<at::Tensor>& pieces = expected != nullptr ? *expected : own;
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
    if (check.ok) continue;
    if (check.rank >= 0) {
      check.rank = groups[g][check.rank];
    } else {
      std::vector<std::string> names;
      for (int r : groups[g]) names.push_back(mesh.RankName(r));
      check.detail = absl::StrCat("over ranks ", absl::StrJoin(names, ", "), ": ", check.detail);
    }
    return check;
  }
  return {};
}

}  // namespace shrt
