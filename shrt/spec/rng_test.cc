// Seeds (rng.h): a case's seed names its sample, and the text hash behind
// it is pinned, since changing it redraws every case of every spec.
#include "shrt/spec/rng.h"

#include <string>

#include "gtest/gtest.h"

namespace shrt {
namespace {

// A change of these values redraws every input and Partial part (and the
// mirror in tools/bench/reference_generators.py, text_seed and case_seed,
// must follow).
TEST(RngTest, TextSeedAndCaseSeedArePinned) {
  EXPECT_EQ(TextSeed(""), 0x2cb0f69f4abea221ULL);
  EXPECT_EQ(TextSeed("uneven"), 0xaeee0d817e39cb35ULL);
  EXPECT_EQ(CaseSeed(0, "uneven", 1), 0x0d62050b1c61fc7eULL);
}

TEST(RngTest, TextSeedTellsTextsApart) {
  EXPECT_NE(TextSeed("ab"), TextSeed("ba"));
  EXPECT_NE(TextSeed("a"), TextSeed(std::string("a\0", 2)));
  EXPECT_NE(TextSeed(""), TextSeed(std::string(1, '\0')));
}

// The seed depends on the run's seed, the sample's name and the generator,
// and on nothing else: not on where a spec lists the sample.
TEST(RngTest, CaseSeedNamesTheSample) {
  EXPECT_EQ(CaseSeed(7, "size1_dim", 2), MixSeed({7, TextSeed("size1_dim"), 2}));
  EXPECT_NE(CaseSeed(0, "uneven", 0), CaseSeed(0, "size1_dim", 0));
  EXPECT_NE(CaseSeed(0, "uneven", 0), CaseSeed(0, "uneven", 1));
  EXPECT_NE(CaseSeed(0, "uneven", 0), CaseSeed(1, "uneven", 0));
}

// Index(n) is the next 64 bits modulo n for every n: a power of two takes
// a mask, which must draw what the modulo draws (else every Partial part
// at W = 2 and 4 is redrawn).
TEST(RngTest, IndexIsTheBitsModuloN) {
  for (int64_t n : {1, 2, 3, 4, 5, 6, 8, 16, 1000}) {
    Rng index(n), bits(n);
    for (int k = 0; k < 1000; ++k) {
      ASSERT_EQ(index.Index(n), static_cast<int64_t>(bits.NextU64() % static_cast<uint64_t>(n)))
          << "n " << n << " draw " << k;
    }
  }
}

}  // namespace
}  // namespace shrt
