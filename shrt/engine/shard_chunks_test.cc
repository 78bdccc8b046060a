#include "shrt/engine/shard_chunks.h"

#include "gtest/gtest.h"
#include "shrt/engine/test_tensors.h"

namespace shrt {
namespace {

// ShardCopy makes what ShardPiece's view, copied, holds: S(d) and
// _S(d, sf) chunks, uneven and empty ones included, of contiguous,
// transposed, sliced, complex and integer tensors; each a contiguous
// buffer of its own.
TEST(ShardChunksTest, ShardCopyIsTheShardPieceCopied) {
  for (const at::Tensor& full :
       {Randn({5, 7}, at::kDouble), Randn({7, 5}, at::kFloat).t(),
        Randn({5, 14}, at::kComplexFloat).slice(1, 0, 14, 2), Arange(35, at::kInt).view({5, 7}),
        Randn({3, 0}, at::kDouble)}) {
    for (const char* text : {"S(0)", "S(1)", "_S(0, 2)", "_S(1, 3)"}) {
      const Placement p = *ParsePlacement(text);
      for (int w : {2, 3, 4, 6}) {
        for (int r = 0; r < w; ++r) {
          const at::Tensor copy = ShardCopy(full, p, w, r);
          const at::Tensor piece = ShardPiece(full, p, w, r);
          EXPECT_TRUE(copy.is_contiguous());
          EXPECT_EQ(copy.sizes(), piece.sizes()) << text << " w " << w << " r " << r;
          EXPECT_TRUE(copy.equal(piece)) << full.sizes() << " " << text << " w " << w
                                              << " rank " << r;
          if (copy.numel() > 0) {
            EXPECT_NE(copy.data_ptr(), full.data_ptr());
          }
        }
      }
    }
  }
}

// A chunk of a chunk, cut as ranges (ChunkOfPiece) and copied (CopyOf),
// holds what ShardPiece of ShardPiece's view holds: the nesting
// DistributeNd and CheckNdOutput cut by, _StridedShard levels included.
TEST(ShardChunksTest, ChunksOfChunksAreTheNestedShardPieces) {
  const at::Tensor full = Arange(7 * 10, at::kInt).view({7, 10});
  for (const char* outer : {"S(0)", "S(1)", "_S(1, 2)"}) {
    for (const char* inner : {"S(0)", "S(1)", "_S(1, 3)"}) {
      const Placement p1 = *ParsePlacement(outer), p2 = *ParsePlacement(inner);
      for (int c1 = 0; c1 < 3; ++c1) {
        for (int c2 = 0; c2 < 2; ++c2) {
          const at::Tensor copy = CopyOf(ChunkOfPiece(ChunkOfPiece(WholePiece(full), p1, 3, c1), p2, 2, c2));
          const at::Tensor want = ShardPiece(ShardPiece(full, p1, 3, c1), p2, 2, c2);
          EXPECT_TRUE(copy.is_contiguous());
          EXPECT_TRUE(copy.equal(want)) << outer << " chunk " << c1 << ", " << inner << " chunk " << c2;
        }
      }
    }
  }
}

// CopyOf copies a piece that is one block of a contiguous tensor (the
// whole tensor; a run of rows; within one index of the leading dims, a
// range of the next and all of the rest) in one piece, and every other
// piece by rows: both hold what the nested ShardPiece views hold, on a 3-d
// tensor whose chunks reach every one of those shapes.
TEST(ShardChunksTest, BlocksAndRowsCopyWhatTheViewsHold) {
  const at::Tensor full = Arange(3 * 4 * 5, at::kLong).view({3, 4, 5});
  const at::Tensor whole = CopyOf(WholePiece(full));
  EXPECT_TRUE(whole.equal(full));
  EXPECT_NE(whole.data_ptr(), full.data_ptr());
  for (const char* outer : {"S(0)", "S(1)", "S(2)"}) {
    for (const char* inner : {"S(0)", "S(1)", "S(2)", "_S(1, 2)"}) {
      const Placement p1 = *ParsePlacement(outer), p2 = *ParsePlacement(inner);
      for (int c1 = 0; c1 < 3; ++c1) {
        for (int c2 = 0; c2 < 2; ++c2) {
          const at::Tensor copy =
              CopyOf(ChunkOfPiece(ChunkOfPiece(WholePiece(full), p1, 3, c1), p2, 2, c2));
          const at::Tensor want = ShardPiece(ShardPiece(full, p1, 3, c1), p2, 2, c2);
          EXPECT_TRUE(copy.is_contiguous());
          EXPECT_TRUE(copy.equal(want))
              << outer << " chunk " << c1 << ", " << inner << " chunk " << c2;
        }
      }
    }
  }
}

}  // namespace
}  // namespace shrt
