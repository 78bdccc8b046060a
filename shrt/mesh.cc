#include "shrt/mesh.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace shrt {

absl::StatusOr<Mesh> Mesh::Create(int world_size) {
  if (world_size < kMinWorldSize || world_size > kMaxWorldSize) {
    return absl::InvalidArgumentError(absl::StrCat("world size ", world_size, " is out of range [",
                                                   kMinWorldSize, ", ", kMaxWorldSize, "]"));
  }
  return Mesh(world_size);
}

ChunkRange ChunkOf(int64_t size, int world_size, int rank) {
  const int64_t chunk = (size + world_size - 1) / world_size;
  const int64_t begin = std::min<int64_t>(size, rank * chunk);
  const int64_t end = std::min<int64_t>(size, begin + chunk);
  return {begin, end};
}

}  // namespace shrt
