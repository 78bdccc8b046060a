#include "shrt/report/html_report.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shrt/report/report.h"
#include "shrt/report/report.pb.h"

namespace shrt {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A report of two overloads: one incorrect rule whose evidence tries to
// close the data block, and a table rule with a condition.
ValidationReport Sample() {
  ValidationReport report;
  report.set_world_size(2);
  report.set_seconds(1.5);
  OpVerdicts* abs = report.add_ops();
  abs->set_op("aten::abs");
  abs->set_combination_checks(120);
  abs->add_correct()->set_string_value("S(0) -> S(0)");
  IncorrectRule* wrong = abs->add_incorrect();
  wrong->set_rule("P(sum) -> P(sum)");
  wrong->set_evidence("sample matrix: rank 1 raised </script><script>alert(1)</script>");
  abs->add_missing()->set_string_value("S(1) -> S(1)");
  abs->set_repro("bazel run //tools:shrt -- validate --spec=testing/specs/aten_abs.textproto");
  OpVerdicts* mul = report.add_ops();
  mul->set_op("aten::mul.Tensor");
  auto& fields = *mul->add_unverified()->mutable_struct_value()->mutable_fields();
  fields["rule"].set_string_value("S(d), S(d) -> S(d)");
  fields["condition"].set_string_value("d < 2");
  return report;
}

// The page between the data block's tags.
std::string DataBlock(const std::string& page) {
  const std::string open = "<script type=\"application/json\" id=\"report-data\">";
  const size_t begin = page.find(open);
  if (begin == std::string::npos) return "";
  const size_t end = page.find("</script>", begin);
  return page.substr(begin + open.size(), end - begin - open.size());
}

TEST(HtmlReportTest, EmbedsTheJsonOfFormatJson) {
  const ValidationReport report = Sample();
  const std::string page = RenderHtmlReport(ReportJson(report));
  EXPECT_THAT(page, HasSubstr("<!DOCTYPE html>"));
  EXPECT_THAT(page, Not(HasSubstr("@@SHRT_REPORT_JSON@@")));
  const std::string data = DataBlock(page);
  EXPECT_THAT(data, HasSubstr("\"op\": \"aten::abs\""));
  EXPECT_THAT(data, HasSubstr("\"condition\": \"d \\u003c 2\""));
  // The same text as --format=json, with only "<" written differently.
  std::string json = ReportJson(report);
  for (size_t at = 0; (at = json.find('<', at)) != std::string::npos;)
    json.replace(at, 1, "\\u003c");
  EXPECT_EQ(data, json);
}

TEST(HtmlReportTest, EvidenceCannotCloseTheDataBlock) {
  const std::string page = RenderHtmlReport(ReportJson(Sample()));
  const std::string data = DataBlock(page);
  EXPECT_THAT(data, Not(HasSubstr("<")));
  EXPECT_THAT(data, HasSubstr("raised \\u003c/script"));
  EXPECT_THAT(data, HasSubstr("alert(1)\\u003c/script"));
  // The evidence is intact (as JSON) up to the block's real end.
  EXPECT_THAT(data, HasSubstr("\"repro\": \"bazel run //tools:shrt"));
}

TEST(HtmlReportTest, LoadsNothingFromOutside) {
  const std::string page = RenderHtmlReport(ReportJson(Sample()));
  EXPECT_THAT(page, Not(HasSubstr("http://")));
  EXPECT_THAT(page, Not(HasSubstr("https://")));
  EXPECT_THAT(page, Not(HasSubstr("src=")));
  EXPECT_THAT(page, Not(HasSubstr("<link")));
  EXPECT_THAT(page, Not(HasSubstr("@import")));
  EXPECT_THAT(page, Not(HasSubstr("url(")));
}

TEST(HtmlReportTest, EmptyReportStillRenders) {
  const std::string page = RenderHtmlReport(ReportJson(ValidationReport()));
  EXPECT_THAT(DataBlock(page), HasSubstr("\"ops\": []"));
  EXPECT_THAT(page, HasSubstr("</html>"));
}

}  // namespace
}  // namespace shrt
