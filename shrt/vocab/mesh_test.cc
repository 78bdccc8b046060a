#include "shrt/vocab/mesh.h"

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
TEST(MeshShapeTest, ParsesPrintsAndNumbersRanksRowMajor) {
  absl::StatusOr<MeshShape> m = MeshShape::Parse("2x3");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->ToString(), "2x3");
  EXPECT_EQ(m->ndim(), 2);
  EXPECT_EQ(m->size(), 6);
  EXPECT_EQ(m->Coordinates(4), (std::vector<int>{1, 1}));
  EXPECT_EQ(m->RankName(5), "(1, 2)");
  EXPECT_EQ(MeshShape::Parse("2x2x2")->Coordinates(6), (std::vector<int>{1, 1, 0}));
  EXPECT_EQ(MeshShape::Parse("4")->RankName(3), "3");
  EXPECT_TRUE(MeshShape::Parse("1x4").ok());
}

TEST(MeshShapeTest, RejectsBadShapes) {
  for (const char* text : {"", "2x", "x2", "2*2", "0x4", "1x1", "2x2x2x2", "8x16", "-2x2"}) {
    absl::StatusOr<MeshShape> m = MeshShape::Parse(text);
    EXPECT_FALSE(m.ok()) << text;
    EXPECT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument) << text;
  }
  EXPECT_TRUE(MeshShape::Parse("8x8").ok());
}

// DTensor's example (placement_types.py _StridedShard): 8 rows on a 2x2
// mesh, [_S(0, 2), S(0)]: dp rank 0 holds rows 0-1 and 4-5.
TEST(StridedChunkTest, PiecesOfTheStridedOrder) {
  const std::vector<ChunkRange> r0 = StridedChunkOf(8, 2, 2, 0);
  ASSERT_EQ(r0.size(), 2u);
  EXPECT_EQ(r0[0].begin, 0);
  EXPECT_EQ(r0[0].end, 2);
  EXPECT_EQ(r0[1].begin, 4);
  EXPECT_EQ(r0[1].end, 6);
  // Uneven: 5 rows in 4 pieces of ceil(5/4) = 2: [0,2) [2,4) [4,5) [5,5).
  const std::vector<ChunkRange> r1 = StridedChunkOf(5, 2, 2, 1);
  EXPECT_EQ(r1[0].begin, 2);
  EXPECT_EQ(r1[0].end, 4);
  EXPECT_EQ(r1[1].length(), 0);
}

}  // namespace shrt
