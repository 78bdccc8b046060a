// The known-findings list: its errors name the file, line and field; the
// check reports incorrect rules it does not list and entries nothing finds.
#include "tools/dtensor/known_findings.h"

#include <fstream>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"

namespace shrt {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string Write(const std::string& name, const std::string& body) {
  const std::string path = absl::StrCat(::testing::TempDir(), "/", name);
  std::ofstream(path) << body;
  return path;
}

constexpr char kKnown[] = R"pb(finding {
  op: "aten::sum.dim_IntList"
  rule: "P(sum)->P(sum)"
  evidence: "int64 dtype truncates each part"
  upstream: "unreported"
}
finding {
  op: "aten::mm"
  rule: "[S(0),R], [R, R] -> [S(0), R]"
  evidence: "planted"
  upstream: "https://github.com/pytorch/pytorch/issues/1"
}
)pb";

TEST(KnownFindingsTest, LoadsCanonicalRules) {
  absl::StatusOr<std::vector<KnownEntry>> known = LoadKnownFindings(Write("k.textproto", kKnown));
  ASSERT_TRUE(known.ok()) << known.status();
  ASSERT_EQ(known->size(), 2u);
  EXPECT_EQ((*known)[0].rule, "P(sum) -> P(sum)");
  EXPECT_EQ((*known)[1].rule, "[S(0), R], [R, R] -> [S(0), R]");
  EXPECT_THAT((*known)[1].where, HasSubstr("k.textproto:7"));
}

TEST(KnownFindingsTest, BadEntriesNameFileLineAndField) {
  const std::string path = Write("bad.textproto", R"pb(finding {
  op: "aten::mm"
  rule: "S(0) -> Q"
  evidence: "x"
  upstream: "unreported"
})pb");
  absl::Status s = LoadKnownFindings(path).status();
  EXPECT_THAT(s.message(), HasSubstr("bad.textproto:3: field 'finding[0].rule'"));

  s = LoadKnownFindings(Write("up.textproto", R"pb(finding {
  op: "aten::mm" rule: "S(0), R -> S(0)" evidence: "x" upstream: "soon"
})pb")).status();
  EXPECT_THAT(s.message(), HasSubstr("field 'finding[0].upstream': 'soon' is neither"));

  s = LoadKnownFindings(Write("twice.textproto", absl::StrCat(kKnown, R"pb(finding {
  op: "aten::sum.dim_IntList" rule: "P(sum) -> P(sum)" evidence: "again" upstream: "unreported"
})pb"))).status();
  EXPECT_THAT(s.message(), HasSubstr("aten::sum.dim_IntList P(sum) -> P(sum) is listed twice"));
}

TEST(KnownFindingsTest, CheckFindsUnlistedAndStale) {
  absl::StatusOr<std::vector<KnownEntry>> known = LoadKnownFindings(Write("k.textproto", kKnown));
  ASSERT_TRUE(known.ok()) << known.status();
  ValidationReport report;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(R"pb(
    world_size: 4
    ops { op: "aten::sum.dim_IntList"
          incorrect { rule: "P(sum) -> P(sum)" evidence: "32 vs 35" }
          incorrect { rule: "S(0) -> S(0)" evidence: "new bug" } })pb", &report));
  const KnownCheck check = CheckKnownFindings({report}, *known);
  EXPECT_THAT(check.unlisted, ElementsAre("aten::sum.dim_IntList: S(0) -> S(0) (W=4): new bug"));
  ASSERT_EQ(check.stale.size(), 1u);
  EXPECT_THAT(check.stale[0], HasSubstr("aten::mm: [S(0), R], [R, R] -> [S(0), R]"));
}

}  // namespace
}  // namespace shrt
