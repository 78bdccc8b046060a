// `shrt validate` end to end on the deliberately wrong strategies of
// //testing: exit statuses, usage errors and both report formats.
#include "tools/validate_command.h"

#include <fstream>
#include <map>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "shrt/report/report.pb.h"
#include "testing/wrong_strategies.h"

namespace shrt {
namespace {

using ::testing::HasSubstr;

class ValidateCommandTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(testing::RegisterWrongStrategies(registry_).ok()); }

  int Run(ValidateCommand cmd) {
    cmd.spec_dir = "testing/specs";
    cmd.recipe_dir = "op_specs/recipes";
    out_.str("");
    err_.str("");
    return RunValidate(cmd, registry_, out_, err_);
  }

  // Writes `body` to a table file in the test's temporary folder; its path.
  static std::string WriteTable(const std::string& name, const std::string& body) {
    const std::string path = absl::StrCat(::testing::TempDir(), "/", name);
    std::ofstream(path) << body;
    return path;
  }

  StrategyRegistry registry_;
  std::ostringstream out_, err_;
};

TEST_F(ValidateCommandTest, CorrectStrategyExitsZeroWithTextReport) {
  ValidateCommand cmd;
  cmd.ops = {"aten::mm"};
  EXPECT_EQ(Run(cmd), kExitOk) << err_.str();
  EXPECT_THAT(out_.str(), HasSubstr("S(1), S(0) -> P(sum)"));
  EXPECT_THAT(out_.str(), HasSubstr("Op "));
  EXPECT_THAT(out_.str(), HasSubstr("| Correct | Incorrect | Missing |"));
  EXPECT_THAT(out_.str(), HasSubstr("combination checks"));
}

TEST_F(ValidateCommandTest, IncorrectRuleExitsOneWithEvidenceAndRepro) {
  ValidateCommand cmd;
  cmd.ops = {"aten::abs.default"};
  EXPECT_EQ(Run(cmd), kExitIncorrect);
  EXPECT_THAT(out_.str(), HasSubstr("incorrect (1):\n    P(sum) -> P(sum)"));
  EXPECT_THAT(out_.str(),
              HasSubstr("reproduce: bazel run //tools:shrt -- validate --spec=testing/specs/aten_abs.textproto --world_size=4"));
}

TEST_F(ValidateCommandTest, JsonReportHasTheDocumentedShape) {
  ValidateCommand cmd;
  cmd.all = true;
  cmd.format = "json";
  cmd.world_size = 3;
  EXPECT_EQ(Run(cmd), kExitIncorrect);
  ValidationReport report;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(out_.str(), &report).ok())
      << out_.str();
  EXPECT_EQ(report.world_size(), 3);
  // The 6 specs of testing/specs/ are op groups of 15 overloads in all.
  EXPECT_EQ(report.ops_size(), 15);
  EXPECT_THAT(out_.str(), HasSubstr("\"combination_checks\": "));
  EXPECT_THAT(out_.str(), HasSubstr("\"notes\": ["));
  EXPECT_THAT(out_.str(), HasSubstr("\"warning_count\": "));
  std::vector<std::string> ops;
  for (const OpVerdicts& op : report.ops()) ops.push_back(op.op());
  EXPECT_THAT(ops, ::testing::IsSupersetOf({"aten::mul.Tensor", "aten::mul_.Tensor", "aten::mul.out"}));
  EXPECT_THAT(out_.str(), HasSubstr("\"unverified\": []"));
  bool found = false;
  for (const OpVerdicts& op : report.ops()) {
    if (op.op() != "aten::mul.Tensor") continue;
    found = true;
    ASSERT_EQ(op.incorrect_size(), 1);
    EXPECT_EQ(op.incorrect(0).rule(), "P(sum), P(sum) -> P(sum)");
    EXPECT_THAT(op.incorrect(0).evidence(), HasSubstr("generator"));
    std::vector<std::string> correct;
    for (const auto& c : op.correct()) correct.push_back(c.string_value());
    EXPECT_THAT(correct, ::testing::Contains("P(sum), R -> P(sum)"));
    EXPECT_GT(op.combination_checks(), 0);
  }
  EXPECT_TRUE(found);
}

TEST_F(ValidateCommandTest, ParallelJobsGiveTheSameReport) {
  std::string reports[2];
  for (int jobs : {1, 2}) {
    ValidateCommand cmd;
    cmd.all = true;
    cmd.format = "json";
    cmd.jobs = jobs;
    EXPECT_EQ(Run(cmd), kExitIncorrect);
    ValidationReport report;
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(out_.str(), &report).ok());
    report.set_seconds(0);
    for (OpVerdicts& op : *report.mutable_ops()) {
      op.set_seconds(0);
      op.set_operator_seconds(0);  // wall time, as seconds
    }
    reports[jobs - 1] = report.SerializeAsString();
  }
  EXPECT_EQ(reports[0], reports[1]);
}

TEST_F(ValidateCommandTest, UsageErrorsExitTwo) {
  ValidateCommand none;
  EXPECT_EQ(Run(none), kExitUsage);
  EXPECT_THAT(err_.str(), HasSubstr("--op"));

  ValidateCommand typo;
  typo.ops = {"aten::mul.Tensr"};
  EXPECT_EQ(Run(typo), kExitUsage);
  EXPECT_THAT(err_.str(), HasSubstr("did you mean"));
  EXPECT_THAT(err_.str(), HasSubstr("aten::mul.Tensor"));

  ValidateCommand w1;
  w1.ops = {"aten::mm"};
  w1.world_size = 1;
  EXPECT_EQ(Run(w1), kExitUsage);
  EXPECT_THAT(err_.str(), HasSubstr("--world_size"));

  ValidateCommand fmt;
  fmt.ops = {"aten::mm"};
  fmt.format = "xml";
  EXPECT_EQ(Run(fmt), kExitUsage);

  ValidateCommand no_spec;
  no_spec.ops = {"aten::relu"};
  EXPECT_EQ(Run(no_spec), kExitUsage);
  EXPECT_THAT(err_.str(), HasSubstr("has no spec"));

  for (const char* bad : {"2x", "1x1", "4x4x4x4", "16x8"}) {
    ValidateCommand mesh;
    mesh.ops = {"aten::mm"};
    mesh.mesh = bad;
    EXPECT_EQ(Run(mesh), kExitUsage) << bad;
    EXPECT_THAT(err_.str(), HasSubstr("shrt validate: --mesh: ")) << bad;
  }

  ValidateCommand both;
  both.ops = {"aten::mm"};
  both.dtensor = true;
  both.strategies = "t.textproto";
  EXPECT_EQ(Run(both), kExitUsage);
  EXPECT_THAT(err_.str(), HasSubstr("give at most one of --strategies and --dtensor"));

  ValidateCommand rules_alone;
  rules_alone.ops = {"aten::mm"};
  rules_alone.dtensor_rules = {"rules.py"};
  EXPECT_EQ(Run(rules_alone), kExitUsage);
  EXPECT_THAT(err_.str(), HasSubstr("--dtensor_rules: only with --dtensor"));

  // The program that asks DTensor cannot run: a usage error naming it,
  // before any validation.
  ValidateCommand no_program;
  no_program.ops = {"aten::mm"};
  no_program.dtensor = true;
  no_program.dtensor_program = "/nonexistent/export_claims";
  EXPECT_EQ(Run(no_program), kExitUsage);
  EXPECT_THAT(err_.str(), HasSubstr("--dtensor: cannot run /nonexistent/export_claims"));
}

// On a mesh, the report's rules are N-D rules and the schema is today's:
// a wrong single-dim rule gives incorrect N-D rules, never a composition
// failure, and the JSON says which mesh.
TEST_F(ValidateCommandTest, MeshReportKeepsTheSchemaWithNdRules) {
  ValidateCommand cmd;
  cmd.ops = {"aten::add.Tensor", "aten::mm"};
  cmd.mesh = "2x2";
  cmd.format = "json";
  EXPECT_EQ(Run(cmd), kExitIncorrect) << err_.str();
  ValidationReport report;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(out_.str(), &report).ok()) << out_.str();
  EXPECT_EQ(report.mesh(), "2x2");
  EXPECT_EQ(report.world_size(), 4);
  ASSERT_EQ(report.ops_size(), 2);
  EXPECT_EQ(report.ops(0).op(), "aten::add.Tensor");
  bool planted = false;
  for (const IncorrectRule& i : report.ops(0).incorrect()) {
    planted = planted || i.rule() == "[S(0), S(0)], [S(0), S(0)] -> [S(1), S(1)]";
    EXPECT_EQ(i.category(), "") << i.rule();
  }
  EXPECT_TRUE(planted) << out_.str();
  EXPECT_EQ(report.ops(1).incorrect_size(), 0);
  bool nd = false;
  for (const auto& v : report.ops(1).correct()) nd = nd || v.string_value() == "[S(0), R], [R, S(1)] -> [S(0), S(1)]";
  EXPECT_TRUE(nd) << out_.str();
}

// A table's N-D rules are checked as written, _StridedShard included: the
// right order holds, a rule that mixes up the two orders is incorrect.
TEST_F(ValidateCommandTest, TableNdRulesWithStridedShards) {
  const std::string path = WriteTable("nd_table.textproto", R"pb(op {
      name: "aten::add.Tensor"
      rule { placements: "[_S(0, 2), S(0)], [_S(0, 2), S(0)] -> [_S(0, 2), S(0)]" }
      rule { placements: "[_S(0, 2), S(0)], [_S(0, 2), S(0)] -> [S(0), S(0)]" }
      rule { placements: "S(1), S(1) -> S(1)" }
    })pb");
  ValidateCommand cmd;
  cmd.ops = {"aten::add.Tensor"};
  cmd.strategies = path;
  cmd.mesh = "2x2";
  EXPECT_EQ(Run(cmd), kExitIncorrect) << err_.str();
  const std::string text = out_.str();
  EXPECT_THAT(text, HasSubstr("incorrect (1):\n    [_S(0, 2), S(0)], [_S(0, 2), S(0)] -> [S(0), S(0)]"));
  EXPECT_THAT(text, HasSubstr("    [_S(0, 2), S(0)], [_S(0, 2), S(0)] -> [_S(0, 2), S(0)]\n"));
  EXPECT_THAT(text, HasSubstr("    [S(1), S(1)], [S(1), S(1)] -> [S(1), S(1)]\n"));
  EXPECT_THAT(text, HasSubstr("reproduce: bazel run //tools:shrt -- validate --spec="));
  EXPECT_THAT(text, HasSubstr("--mesh=2x2"));

  ValidateCommand three;
  three.ops = {"aten::add.Tensor"};
  three.strategies = path;
  three.mesh = "2x2x2";
  EXPECT_EQ(Run(three), kExitUsage);
  EXPECT_THAT(err_.str(), HasSubstr("has 2 mesh dims, the mesh 2x2x2 3"));
}

// A table's entry for a functional overload claims its out= and in-place
// variants (variant_rules.h): out= inherits every rule, in-place only those
// whose output keeps self's placement, so the functional's wrong
// 'S(0), S(0) -> S(1)' is incorrect for aten::add.out but never claimed for
// aten::add_.Tensor.
TEST_F(ValidateCommandTest, TableEntriesClaimTheirVariants) {
  const std::string path = WriteTable("variants.textproto", R"pb(op {
      name: "aten::add.Tensor"
      rule { placements: "S(1), S(1) -> S(1)" }
      rule { placements: "S(0), S(0) -> S(1)" }
    }
    op {
      name: "aten::mm"
      rule { placements: "S(0), R -> S(0)" }
      rule { placements: "S(1), S(0) -> P(sum)" }
    })pb");
  ValidateCommand inplace;
  inplace.ops = {"aten::add_.Tensor", "aten::mm.out"};
  inplace.strategies = path;
  inplace.format = "json";
  EXPECT_EQ(Run(inplace), kExitOk) << err_.str() << out_.str();
  ValidationReport report;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(out_.str(), &report).ok()) << out_.str();
  // Table rules as written ({"rule": ...}), by overload.
  std::map<std::string, std::vector<std::string>> correct;
  for (const OpVerdicts& op : report.ops()) {
    EXPECT_EQ(op.error(), "") << op.op();
    EXPECT_EQ(op.incorrect_size(), 0) << op.op();
    for (const auto& v : op.correct()) {
      correct[op.op()].push_back(v.struct_value().fields().at("rule").string_value());
    }
  }
  EXPECT_THAT(correct["aten::add_.Tensor"], ::testing::ElementsAre("S(1), S(1) -> S(1)"));
  EXPECT_THAT(correct["aten::mm.out"],
              ::testing::UnorderedElementsAre("S(0), R -> S(0)", "S(1), S(0) -> P(sum)"));

  ValidateCommand out;
  out.ops = {"aten::add.out"};
  out.strategies = path;
  EXPECT_EQ(Run(out), kExitIncorrect) << err_.str();
  EXPECT_THAT(out_.str(), HasSubstr("incorrect (table rules) (1):\n    S(0), S(0) -> S(1)"));
}

}  // namespace
}  // namespace shrt
