#include "shrt/engine/shard_chunks.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "shrt/engine/torch_runtime.h"
#include "shrt/spec/aten_functions.h"

namespace shrt {
namespace {

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

int64_t Length(const Ranges& ranges) {
  int64_t n = 0;
  for (const ChunkRange& r : ranges) n += r.length();
  return n;
}

}  // namespace

at::Tensor ShardPiece(const at::Tensor& t, const Placement& p, int world_size, int rank) {
  if (p.is_shard()) {
    const ChunkRange c = ChunkOf(t.size(p.dim()), world_size, rank);
    return t.narrow(p.dim(), c.begin, c.length());
  }
  std::vector<at::Tensor> pieces;
  for (const ChunkRange& c : StridedChunkOf(t.size(p.dim()), world_size, p.split_factor(), rank)) {
    pieces.push_back(t.narrow(p.dim(), c.begin, c.length()));
  }
  return Cat(pieces, p.dim());
}

Piece WholePiece(const at::Tensor& t) {
  Piece piece{t, std::vector<Ranges>(t.dim())};
  for (int64_t d = 0; d < t.dim(); ++d) Append(piece.held[d], {0, t.size(d)});
  return piece;
}

Piece ChunkOfPiece(const Piece& piece, const Placement& p, int w, int c) {
  const int64_t d = p.dim();
  const int64_t size = Length(piece.held[d]);
  Piece cut{piece.src, piece.held};
  Ranges& ranges = cut.held[d];
  ranges.clear();
  const std::vector<ChunkRange> chunks = p.is_shard()
                                             ? std::vector<ChunkRange>{ChunkOf(size, w, c)}
                                             : StridedChunkOf(size, w, p.split_factor(), c);
  for (const ChunkRange& chunk : chunks) AppendSub(piece.held[d], chunk, ranges);
  return cut;
}

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
    t = Cat(parts, d);
  }
  return t;
}

namespace {

// Where the piece starts in its src (elements), when what it holds is one
// contiguous block of a contiguous src: dims before some dim k hold one
// index each, dim k one range, and the dims after it all of theirs (a
// whole tensor, an S(0) chunk, a row of one). std::nullopt otherwise.
std::optional<int64_t> BlockBegin(const Piece& piece) {
  const at::Tensor& src = piece.src;
  if (!src.is_contiguous()) return std::nullopt;
  const int64_t ndim = src.dim();
  int64_t k = 0;
  while (k + 1 < ndim && piece.held[k].size() == 1 && piece.held[k][0].length() == 1) ++k;
  int64_t begin = 0;
  for (int64_t d = 0; d < ndim; ++d) {
    const Ranges& held = piece.held[d];
    if (held.size() != 1) return std::nullopt;
    if (d > k && (held[0].begin != 0 || held[0].end != src.size(d))) return std::nullopt;
    begin += held[0].begin * src.stride(d);
  }
  return begin;
}

}  // namespace

at::Tensor CopyOf(const Piece& piece) {
  const UnfilledScope unfilled;  // every element of the result is written
  const at::Tensor& src = piece.src;
  if (src.is_conj() || src.is_neg() || src.layout() != at::kStrided) {
    return Cut(piece).clone(at::MemoryFormat::Contiguous);
  }
  const int64_t ndim = src.dim();
  std::vector<int64_t> sizes(ndim);
  for (int64_t d = 0; d < ndim; ++d) sizes[d] = Length(piece.held[d]);
  at::Tensor out = Empty(sizes, src.options());
  const int64_t item = src.element_size();
  const char* from = static_cast<const char*>(src.const_data_ptr());
  char* to = static_cast<char*>(out.data_ptr());
  if (ndim == 0) {
    std::memcpy(to, from, item);
    return out;
  }
  if (out.numel() == 0) return out;
  if (const std::optional<int64_t> begin = BlockBegin(piece)) {
    std::memcpy(to, from + *begin * item, out.numel() * item);
    return out;
  }
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

at::Tensor ShardCopy(const at::Tensor& t, const Placement& p, int w, int rank) {
  if (p.dim() < 0 || p.dim() >= t.dim()) {
    return ShardPiece(t, p, w, rank).clone(at::MemoryFormat::Contiguous);
  }
  return CopyOf(ChunkOfPiece(WholePiece(t), p, w, rank));
}

}  // namespace shrt
