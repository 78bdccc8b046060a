#include "shrt/report/xfail_text.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace shrt {
namespace {

using ::testing::HasSubstr;

Xfail Entry(const std::string& op, const std::string& rule) {
  Xfail x;
  x.set_op(op);
  x.set_rule(rule);
  x.set_reason("r");
  x.set_issue("https://example.org/1");
  x.set_added("2026-01-02");
  return x;
}

constexpr char kPrinted[] =
    "xfail {\n"
    "  op: \"aten::relu\"\n"
    "  rule: \"P(sum) -> P(sum)\"\n"
    "  reason: \"r\"\n"
    "  issue: \"https://example.org/1\"\n"
    "  added: \"2026-01-02\"\n"
    "}\n";

// A file as people edit it: comments between, after and inside entries,
// a tab, a one-line entry, a blank line.
constexpr char kCommented[] =
    "# header\n"
    "\n"
    "# about abs\n"
    "xfail {\n"
    "  op: \"aten::abs\"  # inside\n"
    "  rule: \"P(sum) -> P(sum)\" reason: \"r\" issue: \"https://x/1\" added: \"2026-01-01\"\n"
    "}  # after abs\n"
    "# between\n"
    "\txfail { op: \"aten::neg\" all_rules: true reason: \"r\" issue: \"https://x/2\" added: \"2026-01-01\" }\n"
    "# last\n";

TEST(AppendXfailTest, AppendsThePrintedEntryAndKeepsEveryByte) {
  absl::StatusOr<std::string> out = AppendXfail(kNewXfailsFile, "x.textproto", Entry("aten::relu", "P(sum) -> P(sum)"));
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(*out, absl::StrCat(kNewXfailsFile, kPrinted));
  out = AppendXfail(kCommented, "x.textproto", Entry("aten::relu", "P(sum) -> P(sum)"));
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(*out, absl::StrCat(kCommented, kPrinted));
}

TEST(AppendXfailTest, EndsAnUnfinishedLastLineFirst) {
  absl::StatusOr<std::string> out = AppendXfail("# no newline", "x.textproto", Entry("aten::relu", "P(sum) -> P(sum)"));
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(*out, absl::StrCat("# no newline\n", kPrinted));
}

TEST(RemoveXfailTest, AddThenRemoveGivesTheFileBackByteForByte) {
  for (absl::string_view text : {absl::string_view(kCommented), kNewXfailsFile}) {
    absl::StatusOr<std::string> added = AppendXfail(text, "x.textproto", Entry("aten::relu", "P(sum) -> P(sum)"));
    ASSERT_TRUE(added.ok()) << added.status();
    const int last = text == kNewXfailsFile ? 0 : 2;
    absl::StatusOr<std::string> removed = RemoveXfail(*added, "x.textproto", last);
    ASSERT_TRUE(removed.ok()) << removed.status();
    EXPECT_EQ(*removed, text);
  }
}

TEST(RemoveXfailTest, RemovesTheEntrysLinesAndKeepsOtherComments) {
  absl::StatusOr<std::string> out = RemoveXfail(kCommented, "x.textproto", 0);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(*out,
            "# header\n"
            "\n"
            "# about abs\n"
            "# between\n"
            "\txfail { op: \"aten::neg\" all_rules: true reason: \"r\" issue: \"https://x/2\" added: \"2026-01-01\" }\n"
            "# last\n");
  out = RemoveXfail(kCommented, "x.textproto", 1);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(*out,
            "# header\n"
            "\n"
            "# about abs\n"
            "xfail {\n"
            "  op: \"aten::abs\"  # inside\n"
            "  rule: \"P(sum) -> P(sum)\" reason: \"r\" issue: \"https://x/1\" added: \"2026-01-01\"\n"
            "}  # after abs\n"
            "# between\n"
            "# last\n");
}

TEST(RemoveXfailTest, EntriesSharingALineLoseOnlyTheirOwnText) {
  // Tabs count to the next multiple of 8 in the parser's columns.
  const std::string text = "xfail {op: \"a\"},\txfail <op: \"b\">; xfail {op: \"c\"}  # c\n";
  absl::StatusOr<std::string> out = RemoveXfail(text, "x.textproto", 0);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(*out, "\txfail <op: \"b\">; xfail {op: \"c\"}  # c\n");
  out = RemoveXfail(text, "x.textproto", 1);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(*out, "xfail {op: \"a\"},\t xfail {op: \"c\"}  # c\n");
  out = RemoveXfail(text, "x.textproto", 2);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(*out, "xfail {op: \"a\"},\txfail <op: \"b\">;   # c\n");
}

TEST(RemoveXfailTest, RefusesWhatItCannotRemoveInPlace) {
  const std::string list = "xfail {op: \"a\"}\nxfail: [{op: \"b\"}, {op: \"c\"}]\n";
  for (int index : {1, 2}) {
    absl::StatusOr<std::string> out = RemoveXfail(list, "x.textproto", index);
    ASSERT_FALSE(out.ok()) << *out;
    EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(out.status().message()),
                HasSubstr(absl::StrCat("x.textproto:2: field 'xfail[", index, "]': cannot be removed in place")));
  }
  absl::StatusOr<std::string> out = RemoveXfail(list, "x.textproto", 3);
  EXPECT_EQ(out.status().code(), absl::StatusCode::kOutOfRange);
  out = RemoveXfail("xfail {", "x.textproto", 0);
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(out.status().message()), HasSubstr("x.textproto:1:"));
}

}  // namespace
}  // namespace shrt
