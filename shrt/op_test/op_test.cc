#include "shrt/op_test/op_test.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "shrt/engine/torch_runtime.h"
#include "shrt/engine/validate.h"
#include "shrt/op_test/op_test_state.h"
#include "shrt/ops/overload_name.h"
#include "shrt/report/report.h"
#include "shrt/report/xfails.h"
#include "shrt/vocab/mesh.h"
#include "shrt/vocab/nd_rule.h"

namespace shrt {
namespace {

// Records, in the running gtest's test.xml entry, the properties
// validation_seconds: the wall time of the validations it reports
// (OpReport::seconds, measured in the worker that ran them), and
// operator_calls and operator_seconds: the operator calls they made and
// those calls' wall time, part of it (OpReport::operator_calls). A gtest's
// own time is not validation_seconds: the first gtest that asks for a
// report waits for every gtest's validations (OpTestState::Compute).
// tools/bench/gtest_split.py reads them.
struct ValidationCost {
  double seconds = 0;
  int64_t operator_calls = 0;
  double operator_seconds = 0;

  void Add(const OpReport& r) {
    seconds += r.seconds;
    operator_calls += r.operator_calls;
    operator_seconds += r.operator_seconds;
  }
  void Record() const {
    ::testing::Test::RecordProperty("validation_seconds", absl::StrCat(seconds));
    ::testing::Test::RecordProperty("operator_calls", absl::StrCat(operator_calls));
    ::testing::Test::RecordProperty("operator_seconds", absl::StrCat(operator_seconds));
  }
};

void RunSampleTest(OpTestState& state, const Sample& sample) {
  if (!state.Runs(sample)) {
    GTEST_SKIP() << "nightly_only sample: runs with SHRT_TIER=nightly (--config=nightly)";
  }
  ValidationCost cost;
  for (int w : state.world_sizes()) {
    const absl::StatusOr<OpReport>& report = state.Report(sample.name(), w);
    if (!report.ok()) {
      ADD_FAILURE() << report.status().message();
      continue;
    }
    if (!report->error.empty()) ADD_FAILURE() << report->error;
    for (const std::string& note : report->notes) std::cout << "note: " << note << "\n";
    const std::vector<CaseCrash> unexplained =
        UnexplainedCrashes(state.spec(), report->crashes, w);
    for (const CaseCrash& c : report->crashes) {
      const bool known = std::none_of(unexplained.begin(), unexplained.end(),
                                      [&](const CaseCrash& u) { return u.what == c.what; });
      if (known) {
        std::cout << "known crash (the spec's crash entry for " << c.inputs << "): " << c.what
                  << "\n";
      } else {
        ADD_FAILURE() << report->op << " at W=" << w << ": " << c.what
                      << ". Fix the operator, or explain it in " << state.spec().path()
                      << ": crash { inputs: \"" << c.inputs << "\" reason: \"...\" }"
                      << " | reproduce: " << state.Repro(w);
      }
    }
    if (report->warning_count > 0) {
      std::cout << "c10 warnings: " << report->warning_count << "; first: "
                << report->first_warning << "\n";
    }
    for (const RuleVerdict& v : report->rules) {
      if (v.verdict != Verdict::kIncorrect) continue;
      const std::string line = absl::StrCat(report->op, ": incorrect rule '", RuleToString(v.rule),
                                            "' at W=", w, ": ", v.evidence);
      if (XfailCovers(state.xfails(), report->op, v.rule, Today())) {
        std::cout << "xfailed: " << line << "\n";
      } else {
        ADD_FAILURE() << line << " | reproduce: " << state.Repro(w);
      }
    }
    std::cout << report->op << " sample " << sample.name() << " at W=" << w << ": "
              << report->Count(Verdict::kCorrect) << " correct, "
              << report->Count(Verdict::kIncorrect) << " incorrect, "
              << report->Count(Verdict::kMissing) << " missing; " << report->combination_checks
              << " combination checks in " << report->seconds << " s\n";
    cost.Add(*report);
  }
  cost.Record();
}

void RunXfailTest(OpTestState& state, const OpTestData& data) {
  std::optional<OpReport> merged = state.Merged();
  if (!merged.has_value()) return;
  const XfailFindings findings = JudgeXfails(state.xfails(), *merged, Today(), data.cli);
  for (const std::string& w : findings.warnings) std::cout << "WARNING: " << w << "\n";
  for (const std::string& f : findings.failures) ADD_FAILURE() << f;
}

// True if `entry` explains a missing rule of overload `op` at `world_size`.
bool Applies(const MissingRule& entry, const std::string& op, int world_size) {
  bool op_ok = entry.op().empty(), w_ok = entry.world_sizes().empty();
  for (const std::string& o : entry.op()) {
    absl::StatusOr<c10::OperatorName> name = ParseOverloadName(o);
    op_ok = op_ok || (name.ok() && OverloadToString(*name) == op);
  }
  for (int w : entry.world_sizes()) w_ok = w_ok || w == world_size;
  return op_ok && w_ok;
}

void RunMissingTest(OpTestState& state, const OpTestData& data) {
  const LoadedSpec& spec = state.spec();
  const std::string op = OverloadToString(spec.op());
  const bool complete = spec.proto().require_complete();
  // The spec's world sizes are where its explanations must be complete;
  // others (SHRT_WORLD_SIZES, the nightly tier) only report what they find.
  const std::vector<int> strict_sizes = spec.world_sizes();
  auto strict = [&](int w) {
    return std::find(strict_sizes.begin(), strict_sizes.end(), w) != strict_sizes.end();
  };
  // Per entry: applies at some tested world size; missing at one of those.
  std::vector<bool> applies(spec.proto().missing_size()), seen(spec.proto().missing_size());
  for (int w : state.world_sizes()) {
    std::optional<OpReport> merged = state.Merged(w);
    if (!merged.has_value()) return;
    if (std::string e = RejectsEverySample(*merged); !e.empty()) ADD_FAILURE() << e;
    std::set<std::string> missing;
    for (const RuleVerdict& v : merged->rules) {
      if (v.verdict == Verdict::kMissing) missing.insert(RuleToString(v.rule));
    }
    for (int m = 0; m < spec.proto().missing_size(); ++m) {
      const MissingRule& entry = spec.proto().missing(m);
      if (!Applies(entry, op, w)) continue;
      applies[m] = applies[m] || strict(w);
      absl::StatusOr<Rule> rule = ParseRule(entry.rule());  // checked by the loader
      if (rule.ok() && missing.erase(RuleToString(*rule)) > 0) {
        seen[m] = true;
        if (complete) ADD_FAILURE() << op << ": missing rule '" << entry.rule() << "' at W=" << w
                                    << " (the spec sets require_complete)";
      }
    }
    for (const RuleVerdict& v : merged->rules) {
      const std::string text = RuleToString(v.rule);
      if (v.verdict != Verdict::kMissing || !missing.count(text)) continue;
      if (!strict(w) && !complete) {
        std::cout << op << ": missing rule '" << text << "' at W=" << w
                  << " (outside the spec's world sizes; not explained): " << v.evidence << "\n";
        continue;
      }
      ADD_FAILURE() << op << ": missing rule '" << text << "' at W=" << w << " is not explained: "
                    << v.evidence << ". Claim it in the strategy, or add to " << spec.path()
                    << ": missing { rule: \"" << text << "\" reason: \"...\" }"
                    << (complete ? " (the spec sets require_complete)" : "");
    }
  }
  for (int m = 0; m < spec.proto().missing_size(); ++m) {
    if (applies[m] && !seen[m]) {
      ADD_FAILURE() << spec.WhereMissing(m) << ": field 'missing[" << m << "]': stale: '"
                    << spec.proto().missing(m).rule() << "' is not missing for " << op
                    << " at any world size tested here; remove the entry (or restrict it with "
                       "`op:`/`world_sizes:`)";
    }
  }
}

// The strategy expanded to an N-D mesh (DESIGN.md §9): fails on every
// incorrect N-D rule (composition failures named as such), on a strategy
// error and on a crash no `crash` entry explains; prints the rules the
// expansion filters out although they hold.
void RunMeshTest(OpTestState& state, const MeshShape& mesh) {
  const absl::StatusOr<OpReport>& report = state.MeshReport(mesh);
  if (!report.ok()) {
    ADD_FAILURE() << report.status().message();
    return;
  }
  const std::string repro = state.Repro(mesh.size(), mesh.ToString());
  if (!report->error.empty()) ADD_FAILURE() << report->error << " | reproduce: " << repro;
  for (const CaseCrash& c : UnexplainedCrashes(state.spec(), report->crashes, mesh.size())) {
    ADD_FAILURE() << report->op << " on mesh " << mesh.ToString() << ": " << c.what
                  << ". Fix the operator, or explain it in " << state.spec().path()
                  << ": crash { inputs: \"...\" reason: \"...\" } for one mesh dim's inputs"
                  << " | reproduce: " << repro;
  }
  int filtered = 0;  // printed: the first few
  for (const NdRuleVerdict& v : report->nd_rules) {
    const std::string rule = NdRuleToString(v.rule);
    if (v.verdict == Verdict::kIncorrect) {
      const std::string line =
          absl::StrCat(report->op, ": ", v.composition ? "composition failure" : "incorrect",
                       " on mesh ", mesh.ToString(), ": '", rule, "': ", v.evidence);
      // An N-D rule built from a single-dim rule with an unexpired xfail
      // inherits it; a composition failure has no wrong single-dim rule.
      const bool xfailed =
          !v.composition && std::any_of(v.rule.mesh_dims.begin(), v.rule.mesh_dims.end(),
                                        [&](const Rule& r) {
                                          return !IsAllReplicate(r) &&
                                                 XfailCovers(state.xfails(), report->op, r, Today());
                                        });
      if (xfailed) {
        std::cout << "xfailed (a single-dim rule of it): " << line << "\n";
      } else {
        ADD_FAILURE() << line << " | reproduce: " << repro;
      }
    } else if (v.verdict == Verdict::kMissing && filtered++ < 3) {
      std::cout << report->op << ": filtered out by the expansion on mesh " << mesh.ToString()
                << ", but holds: '" << rule << "': " << v.evidence << "\n";
    }
  }
  std::cout << report->op << " on mesh " << mesh.ToString() << ": "
            << report->Count(Verdict::kCorrect) << " correct, "
            << report->Count(Verdict::kIncorrect) << " incorrect ("
            << report->CompositionFailures() << " composition failures), "
            << report->Count(Verdict::kMissing) << " filtered but holding; "
            << report->combination_checks << " N-D rule checks in " << report->seconds << " s\n";
  ValidationCost cost;
  cost.Add(*report);
  cost.Record();
}

// Every `crash` entry of the spec must still crash at some world size the
// test runs where it applies (else it is stale, like a `missing` entry).
void RunKnownCrashTest(OpTestState& state) {
  const LoadedSpec& spec = state.spec();
  const auto& entries = spec.proto().crash();
  std::vector<std::vector<bool>> seen(entries.size());
  std::vector<bool> applies(entries.size());
  for (int c = 0; c < entries.size(); ++c) seen[c].resize(entries[c].inputs_size());
  for (int w : state.world_sizes()) {
    std::optional<OpReport> merged = state.Merged(w);
    if (!merged.has_value()) return;
    for (int c = 0; c < entries.size(); ++c) {
      if (!CrashApplies(entries[c], w)) continue;
      applies[c] = true;
      for (int i = 0; i < entries[c].inputs_size(); ++i) {
        absl::StatusOr<std::vector<Placement>> inputs = ParsePlacements(entries[c].inputs(i));
        const std::string text = inputs.ok() ? PlacementsToString(*inputs) : "";  // checked
        seen[c][i] = seen[c][i] || std::any_of(merged->crashes.begin(), merged->crashes.end(),
                                               [&](const CaseCrash& x) { return x.inputs == text; });
      }
    }
  }
  for (int c = 0; c < entries.size(); ++c) {
    for (int i = 0; i < entries[c].inputs_size(); ++i) {
      if (!applies[c] || seen[c][i]) continue;
      ADD_FAILURE() << spec.WhereCrash(c) << ": field 'crash[" << c << "].inputs[" << i
                    << "]': stale: '" << entries[c].inputs(i) << "' crash "
                    << OverloadToString(spec.op())
                    << " at no world size tested here; remove it (or restrict it with "
                       "`world_sizes:`)";
    }
  }
}

// A gtest that runs `body` on the loaded state, or fails with its error.
class OpTest : public ::testing::Test {
 public:
  using Body = std::function<void(OpTestState&)>;
  OpTest(OpTestState& state, Body body) : state_(state), body_(std::move(body)) {}
  void TestBody() override {
    if (!state_.error().empty()) {
      ADD_FAILURE() << state_.error();
      return;
    }
    body_(state_);
  }

 private:
  OpTestState& state_;
  Body body_;
};

// Registers the gtest `name`, which runs `body` and reads the validations
// `jobs` (OpTestState::Declare).
void Register(OpTestState& state, const OpTestData& data, const std::string& name,
              std::vector<OpTestState::Job> jobs, OpTest::Body body) {
  state.Declare(name, std::move(jobs));
  ::testing::RegisterTest(data.target, name.c_str(), nullptr, nullptr, data.spec.path, 0,
                          [&state, body]() -> ::testing::Test* { return new OpTest(state, body); });
}

}  // namespace

int RunOpTests(const OpTestData& data, int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  static auto* state = new OpTestState(data);
  if (!state->error().empty()) {
    Register(*state, data, "spec", {}, [](OpTestState&) {});
  } else {
    for (const Sample& sample : state->spec().proto().sample()) {
      std::vector<OpTestState::Job> jobs;
      for (OpTestState::Job& job : state->SampleJobs()) {
        if (job.sample == sample.name()) jobs.push_back(std::move(job));
      }
      Register(*state, data, sample.name(), std::move(jobs),
               [sample](OpTestState& s) { RunSampleTest(s, sample); });
    }
    for (const MeshShape& mesh : state->meshes()) {
      Register(*state, data, absl::StrCat("mesh_", mesh.ToString()), {{"", 0, mesh}},
               [mesh](OpTestState& s) { RunMeshTest(s, mesh); });
    }
  }
  const std::vector<OpTestState::Job> every_sample =
      state->error().empty() ? state->SampleJobs() : std::vector<OpTestState::Job>();
  Register(*state, data, "xfails", every_sample,
           [&data](OpTestState& s) { RunXfailTest(s, data); });
  Register(*state, data, "missing_rules", every_sample,
           [&data](OpTestState& s) { RunMissingTest(s, data); });
  if (state->error().empty() && state->spec().proto().crash_size() > 0) {
    Register(*state, data, "known_crashes", every_sample,
             [](OpTestState& s) { RunKnownCrashTest(s); });
  }
  return RUN_ALL_TESTS();
}

}  // namespace shrt

// Exits without libtorch's teardown (torch_runtime.h ExitWithoutTeardown):
// gtest has written its output by now.
int main(int argc, char** argv) {
  shrt::ExitWithoutTeardown(shrt::RunOpTests(shrt::kOpTestData, argc, argv));
}
