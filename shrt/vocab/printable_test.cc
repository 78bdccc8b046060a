#include "shrt/vocab/printable.h"

#include "gtest/gtest.h"

namespace shrt {
namespace {

TEST(PrintableTest, EscapesControlCharacters) {
  EXPECT_EQ(Printable("aten::relu\x1b[31m"), "aten::relu\\x1b[31m");
  EXPECT_EQ(Printable("a\nb\tc\rd"), "a\\nb\\tc\\rd");
  EXPECT_EQ(Printable(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(Printable("del\x7f"), "del\\x7f");
  EXPECT_EQ(Printable("csi\xc2\x9b"), "csi\\u009b");
}

TEST(PrintableTest, KeepsPrintableTextAndUtf8) {
  EXPECT_EQ(Printable("S(0), R -> S(0) 'x' \"y\" \\n"), "S(0), R -> S(0) 'x' \"y\" \\n");
  EXPECT_EQ(Printable("caf\xc3\xa9 \xc2\xa0"), "caf\xc3\xa9 \xc2\xa0");
}

TEST(PrintableTest, IsIdempotent) {
  const std::string once = Printable("x\x1b\n\xc2\x85y");
  EXPECT_EQ(Printable(once), once);
}

}  // namespace
}  // namespace shrt
