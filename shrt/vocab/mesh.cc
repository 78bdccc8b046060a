#include "shrt/vocab/mesh.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace shrt {

absl::StatusOr<Mesh> Mesh::Create(int world_size) {
  if (world_size < kMinWorldSize || world_size > kMaxWorldSize) {
    return absl::InvalidArgumentError(absl::StrCat("world size ", world_size, " is out of range [",
                                                   kMinWorldSize, ", ", kMaxWorldSize, "]"));
  }
  return Mesh(world_size);
}

MeshShape::MeshShape(std::vector<int> dims) : dims_(std::move(dims)) {
  for (int d : dims_) size_ *= d;
}

absl::StatusOr<MeshShape> MeshShape::Create(std::vector<int> dims) {
  if (dims.empty() || static_cast<int>(dims.size()) > kMaxDims) {
    return absl::InvalidArgumentError(
        absl::StrCat("a mesh has 1 to ", kMaxDims, " dims, not ", dims.size()));
  }
  int64_t ranks = 1;
  for (int d : dims) {
    if (d < 1) return absl::InvalidArgumentError(absl::StrCat("mesh dim of size ", d, " (at least 1)"));
    ranks *= d;
    if (ranks > Mesh::kMaxWorldSize) break;
  }
  if (ranks < Mesh::kMinWorldSize || ranks > Mesh::kMaxWorldSize) {
    return absl::InvalidArgumentError(
        absl::StrCat("mesh ", absl::StrJoin(dims, "x"), " has ", ranks, " ranks, out of range [",
                     Mesh::kMinWorldSize, ", ", Mesh::kMaxWorldSize, "]"));
  }
  return MeshShape(std::move(dims));
}

absl::StatusOr<MeshShape> MeshShape::Parse(absl::string_view text) {
  std::vector<int> dims;
  for (absl::string_view part : absl::StrSplit(text, 'x')) {
    int d = 0;
    if (!absl::SimpleAtoi(part, &d)) {
      return absl::InvalidArgumentError(
          absl::StrCat("bad mesh '", text, "': expected sizes joined by 'x', e.g. 2x3"));
    }
    dims.push_back(d);
  }
  return Create(std::move(dims));
}

std::string MeshShape::ToString() const { return absl::StrJoin(dims_, "x"); }

std::vector<int> MeshShape::Coordinates(int rank) const {
  std::vector<int> out(dims_.size());
  for (int m = ndim() - 1; m >= 0; --m) {
    out[m] = rank % dims_[m];
    rank /= dims_[m];
  }
  return out;
}

std::string MeshShape::RankName(int rank) const {
  if (ndim() == 1) return absl::StrCat(rank);
  return absl::StrCat("(", absl::StrJoin(Coordinates(rank), ", "), ")");
}

ChunkRange ChunkOf(int64_t size, int world_size, int rank) {
  const int64_t chunk = (size + world_size - 1) / world_size;
  const int64_t begin = std::min<int64_t>(size, rank * chunk);
  const int64_t end = std::min<int64_t>(size, begin + chunk);
  return {begin, end};
}

std::vector<ChunkRange> StridedChunkOf(int64_t size, int world_size, int64_t split_factor,
                                       int rank) {
  std::vector<ChunkRange> out;
  const int pieces = static_cast<int>(world_size * split_factor);
  for (int64_t j = 0; j < split_factor; ++j) {
    out.push_back(ChunkOf(size, pieces, static_cast<int>(rank + j * world_size)));
  }
  return out;
}

}  // namespace shrt
