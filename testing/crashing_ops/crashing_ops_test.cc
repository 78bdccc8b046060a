// ShRT survives operators that crash (crashing_ops.cc): each crash is its
// overload's verdict, with the sample, generator, input placements and
// rank; the rest of the overload and the other overloads are judged as if
// nothing had crashed.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shrt/engine/test_recipes.h"
#include "shrt/engine/validate.h"

namespace shrt {
namespace {

using ::testing::HasSubstr;

// The [6, 4] float32 sample of every crashing operator's spec.
LoadedSpec Spec(const std::string& op) {
  absl::StatusOr<LoadedSpec> spec = LoadedSpec::FromText(
      absl::StrCat("op: \"", op, "\" sample { name: \"six_rows\" arg { name: \"self\" tensor { "
                   "shape: [6, 4] } } }"),
      op + ".textproto", TestRecipes());
  EXPECT_TRUE(spec.ok()) << spec.status();
  return *spec;
}

const std::vector<std::string> kRules = {"S(0) -> S(0)", "S(1) -> S(1)", "P(sum) -> P(sum)",
                                         "P(max) -> P(max)"};

// Validates every op of `ops` in isolated workers (2 at a time) at `w`,
// giving up on an op after `max_crashes` crashed calls.
std::vector<OpReport> Validate(const std::vector<std::string>& ops, int w, int max_crashes = 32) {
  std::vector<LoadedSpec> specs;
  for (const std::string& op : ops) specs.push_back(Spec(op));
  RuleSource source = [](const OpArgs&) -> absl::StatusOr<std::vector<Rule>> {
    std::vector<Rule> out;
    for (const std::string& r : kRules) out.push_back(*ParseRule(r));
    return out;
  };
  ValidateOptions options;
  options.world_size = w;
  IsolationOptions isolation;
  isolation.jobs = 2;
  isolation.call_time_limit = absl::Milliseconds(500);
  isolation.max_crashes = max_crashes;
  absl::StatusOr<std::vector<absl::StatusOr<OpReport>>> reports = ValidateIsolated(
      static_cast<int>(ops.size()),
      [&](int i) { return ValidateOp(specs[i], source, options); },
      [&](int i) {
        OpReport unfinished;
        unfinished.op = ops[i];
        unfinished.spec_path = specs[i].path();
        unfinished.world_size = w;
        return unfinished;
      },
      isolation);
  EXPECT_TRUE(reports.ok()) << reports.status();
  std::vector<OpReport> out;
  for (absl::StatusOr<OpReport>& r : *reports) {
    EXPECT_TRUE(r.ok()) << r.status();
    out.push_back(*std::move(r));
  }
  return out;
}

std::map<std::string, std::string> Verdicts(const OpReport& report) {
  std::map<std::string, std::string> out;
  for (const RuleVerdict& v : report.rules) {
    out[RuleToString(v.rule)] = std::string(VerdictName(v.verdict));
  }
  return out;
}

TEST(CrashingOpsTest, EachCrashIsAVerdictAndTheRestIsJudged) {
  const std::vector<std::pair<std::string, std::string>> ops = {
      {"shrt_crashing::segfault", "crashed: SIGSEGV (signal 11)"},
      {"shrt_crashing::divide", "crashed: SIGFPE (signal 8)"},
      {"shrt_crashing::check", "crashed: SIGABRT (signal 6)"},
      {"shrt_crashing::hang", "crashed: time limit: the call ran past 500ms"},
      {"aten::relu", ""},
  };
  std::vector<std::string> names;
  for (const auto& [op, crash] : ops) names.push_back(op);
  const std::vector<OpReport> reports = Validate(names, 2);
  ASSERT_EQ(reports.size(), ops.size());
  const std::map<std::string, std::string> healthy = Verdicts(Validate({"aten::relu"}, 2)[0]);
  for (size_t i = 0; i < ops.size(); ++i) {
    const OpReport& r = reports[i];
    SCOPED_TRACE(r.op);
    EXPECT_EQ(r.error, "");
    std::map<std::string, std::string> v = Verdicts(r);
    if (ops[i].second.empty()) {
      EXPECT_TRUE(r.crashes.empty());
      EXPECT_EQ(v, healthy);  // the crashes of the others change nothing
      continue;
    }
    // One crash: rank 0's S(0) call (3 rows); S(0) is dead for the later
    // generators, so it is not run (and does not crash) again.
    ASSERT_EQ(r.crashes.size(), 1u);
    EXPECT_EQ(r.crashes[0].inputs, "S(0)");
    EXPECT_THAT(r.crashes[0].what, HasSubstr(ops[i].second + " in sample six_rows, generator "));
    EXPECT_THAT(r.crashes[0].what, HasSubstr(", inputs S(0), rank 0"));
    EXPECT_EQ(v["S(0) -> S(0)"], "incorrect");
    EXPECT_EQ(v["S(1) -> S(1)"], "correct");
    EXPECT_EQ(v["P(sum) -> P(sum)"], "correct");
    EXPECT_EQ(v["P(max) -> P(max)"], "correct");
    for (const RuleVerdict& rv : r.rules) {
      if (RuleToString(rv.rule) == "S(0) -> S(0)") {
        EXPECT_THAT(rv.evidence, HasSubstr(ops[i].second));
      }
    }
  }
}

// A validation that gives up still reports which overload, spec and world
// size it was (it once printed "world size 0" and an empty spec path).
TEST(CrashingOpsTest, AValidationThatGivesUpKeepsItsHeader) {
  const std::vector<OpReport> reports = Validate({"shrt_crashing::segfault"}, 2, /*max_crashes=*/0);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].op, "shrt_crashing::segfault");
  EXPECT_EQ(reports[0].world_size, 2);
  EXPECT_EQ(reports[0].spec_path, "shrt_crashing::segfault.textproto");
  EXPECT_THAT(reports[0].error, HasSubstr("validation did not finish: gave up after 0 crashed"));
}

TEST(CrashingOpsTest, NoCrashWhereNoShardIsOdd) {
  // W = 4: S(0) chunks of 2, 2, 2, 0 rows.
  for (const OpReport& r : Validate({"shrt_crashing::segfault", "shrt_crashing::hang"}, 4)) {
    SCOPED_TRACE(r.op);
    EXPECT_TRUE(r.crashes.empty());
    EXPECT_EQ(Verdicts(r)["S(0) -> S(0)"], "correct");
  }
}

}  // namespace
}  // namespace shrt
