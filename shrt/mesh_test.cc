#include "shrt/mesh.h"

#include "gtest/gtest.h"

namespace shrt {
namespace {

TEST(MeshTest, RejectsWorldSizesBelowTwo) {
  for (int w : {-1, 0, 1}) {
    absl::StatusOr<Mesh> mesh = Mesh::Create(w);
    ASSERT_FALSE(mesh.ok()) << w;
    EXPECT_EQ(mesh.status().code(), absl::StatusCode::kInvalidArgument);
  }
  EXPECT_FALSE(Mesh::Create(Mesh::kMaxWorldSize + 1).ok());
}

TEST(MeshTest, AcceptsUsualWorldSizes) {
  for (int w : {2, 3, 4, 8}) {
    absl::StatusOr<Mesh> mesh = Mesh::Create(w);
    ASSERT_TRUE(mesh.ok()) << w;
    EXPECT_EQ(mesh->world_size(), w);
  }
}

// torch.chunk(torch.arange(n), W) layout, padded with empty chunks as
// DTensor's Shard._split_tensor does.
TEST(ChunkTest, EvenSplit) {
  for (int r = 0; r < 4; ++r) {
    EXPECT_EQ(ChunkOf(8, 4, r).begin, 2 * r);
    EXPECT_EQ(ChunkOf(8, 4, r).length(), 2);
  }
}

TEST(ChunkTest, UnevenSplitUsesCeilChunksAndEmptyTail) {
  // n = 5, W = 4: chunk 2 -> [0,2) [2,4) [4,5) [5,5).
  const int64_t expected[4][2] = {{0, 2}, {2, 4}, {4, 5}, {5, 5}};
  for (int r = 0; r < 4; ++r) {
    EXPECT_EQ(ChunkOf(5, 4, r).begin, expected[r][0]) << r;
    EXPECT_EQ(ChunkOf(5, 4, r).end, expected[r][1]) << r;
  }
  // n = 7, W = 3: chunk 3 -> 3, 3, 1.
  EXPECT_EQ(ChunkOf(7, 3, 2).length(), 1);
  // n = 9, W = 8: chunk 2 -> ranks 5..7 are empty.
  EXPECT_EQ(ChunkOf(9, 8, 4).length(), 1);
  for (int r = 5; r < 8; ++r) EXPECT_EQ(ChunkOf(9, 8, r).length(), 0) << r;
}

TEST(ChunkTest, SizeOneAndZeroDims) {
  EXPECT_EQ(ChunkOf(1, 4, 0).length(), 1);
  for (int r = 1; r < 4; ++r) EXPECT_EQ(ChunkOf(1, 4, r).length(), 0);
  for (int r = 0; r < 4; ++r) EXPECT_EQ(ChunkOf(0, 4, r).length(), 0);
}

TEST(ChunkTest, ChunksTileTheDim) {
  for (int w : {2, 3, 4, 8}) {
    for (int64_t n = 0; n < 20; ++n) {
      int64_t next = 0;
      for (int r = 0; r < w; ++r) {
        const ChunkRange c = ChunkOf(n, w, r);
        EXPECT_EQ(c.begin, next) << n << " " << w << " " << r;
        EXPECT_GE(c.length(), 0);
        next = c.end;
      }
      EXPECT_EQ(next, n);
    }
  }
}

}  // namespace
}  // namespace shrt
