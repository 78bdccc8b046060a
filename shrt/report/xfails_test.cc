#include "shrt/report/xfails.h"

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

TEST(CheckXfailTest, NamesTheFieldOfTheProblem) {
  struct Case {
    Xfail x;
    const char* field;
    const char* message;
  };
  Xfail no_issue = Entry("aten::relu", "P(sum) -> P(sum)");
  no_issue.set_issue("example.org/1");
  Xfail expires_early = Entry("aten::relu", "P(sum) -> P(sum)");
  expires_early.set_expires("2026-01-01");
  for (const Case& c : {
           Case{Entry("aten::reluu", "P(sum) -> P(sum)"), "op", "unknown overload 'aten::reluu'"},
           Case{Entry("aten::relu", "S(0), R -> S(0)"), "rule",
                "'S(0), R -> S(0)' has 2 input placements but the overload has 1 tensor input (aten::relu)"},
           Case{Entry("aten::max.dim", "S(1) -> S(1)"), "rule",
                "'S(1) -> S(1)' has 1 output placement but the overload has 2 tensor outputs (aten::max.dim)"},
           Case{Entry("aten::relu", "S(0) ->> S(0)"), "rule", "bad placement"},
           Case{no_issue, "issue", "http"},
           Case{expires_early, "expires", "is before the date added"},
       }) {
    std::string field;
    absl::StatusOr<XfailEntry> e = CheckXfail(c.x, &field);
    ASSERT_FALSE(e.ok()) << c.message;
    EXPECT_EQ(e.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(field, c.field) << c.message;
    EXPECT_THAT(std::string(e.status().message()), HasSubstr(c.message));
  }
  std::string field;
  absl::StatusOr<XfailEntry> e = CheckXfail(Entry("aten::cat", "S(0), S(0), S(0) -> S(0)"), &field);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->Describe(), "aten::cat rule 'S(0), S(0), S(0) -> S(0)'");
}

TEST(ParseXfailsTest, ArityErrorsNameFileLineAndField) {
  absl::StatusOr<std::vector<XfailEntry>> e = ParseXfails(
      "# c\n"
      "xfail {\n"
      "  op: \"aten::relu\"\n"
      "  rule: \"R, R -> R\"\n"
      "  reason: \"r\" issue: \"https://x/1\" added: \"2026-01-01\"\n"
      "}\n",
      "x.textproto");
  ASSERT_FALSE(e.ok());
  EXPECT_THAT(std::string(e.status().message()),
              HasSubstr("x.textproto:4: field 'xfail[0].rule': 'R, R -> R' has 2 input placements"));
}

TEST(ParseXfailsFileTest, AnEmptyFileIsTornNotEmpty) {
  absl::StatusOr<std::vector<XfailEntry>> e = ParseXfailsFile("", "op_specs/xfails.textproto");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(e.status().message()), HasSubstr("op_specs/xfails.textproto: is empty (0 bytes)"));
  // A header alone is a file with no entries; embedded text may be empty.
  e = ParseXfailsFile("# header\n", "x.textproto");
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_TRUE(e->empty());
  e = ParseXfails("", "embedded");
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_TRUE(e->empty());
}

}  // namespace
}  // namespace shrt
