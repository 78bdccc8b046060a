#include "shrt/nd_layout.h"

#include <cmath>
#include <limits>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "shrt/distribute.h"
#include "shrt/rng.h"

namespace shrt {
namespace {

bool Pieces(const Placement& p) { return p.is_shard() || p.is_strided_shard(); }

}  // namespace

std::vector<at::Tensor> DistributeNd(const at::Tensor& full,
                                     const std::vector<Placement>& placements,
                                     const MeshShape& mesh, uint64_t seed, double* max_abs_part,
                                     std::vector<uint64_t>* rank_keys) {
  // level[k]: the pieces after the mesh dims so far, in row-major order,
  // and key[k] the seed of what piece k holds: a Replicate level keeps its
  // key, so ranks that differ only in Replicate coordinates hold the same
  // values, Partial parts included ([R, P(sum)]: rank (0, j) and (1, j)
  // hold the same part).
  std::vector<at::Tensor> level{full};
  std::vector<uint64_t> key{seed};
  for (int m = 0; m < mesh.ndim(); ++m) {
    std::vector<at::Tensor> next;
    std::vector<uint64_t> next_key;
    const int w = mesh.dims()[m];
    for (size_t k = 0; k < level.size(); ++k) {
      std::vector<at::Tensor> pieces = Distribute(
          level[k], placements[m], w, MixSeed({key[k], static_cast<uint64_t>(m)}), max_abs_part);
      for (int c = 0; c < w; ++c) {
        next.push_back(std::move(pieces[c]));
        next_key.push_back(placements[m].is_replicate()
                               ? key[k]
                               : MixSeed({key[k], static_cast<uint64_t>(c) + 1}));
      }
    }
    level = std::move(next);
    key = std::move(next_key);
  }
  if (rank_keys != nullptr) *rank_keys = std::move(key);
  return level;
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
                          const std::function<const RoundingReference*()>& reference) {
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
  for (size_t g = 0; g < groups.size(); ++g) {
    const at::Tensor want = piece(full, g);
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
