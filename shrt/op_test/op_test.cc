#include "shrt/op_test/op_test.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "shrt/engine/spec_loader.h"
#include "shrt/engine/torch_runtime.h"
#include "shrt/engine/validate.h"
#include "shrt/ops/overload_name.h"
#include "shrt/report/group_manifest.h"
#include "shrt/report/report.h"
#include "shrt/report/xfails.h"
#include "shrt/spec/recipes.h"
#include "shrt/strategies/registry.h"
#include "shrt/vocab/mesh.h"
#include "shrt/vocab/nd_rule.h"

namespace shrt {
namespace {

// What one test binary loads once and the reports it has computed.
class OpTestState {
 public:
  explicit OpTestState(const OpTestData& data) : data_(data) { error_ = Load(); }

  const std::string& error() const { return error_; }
  const LoadedSpec& spec() const { return *spec_; }
  const std::vector<XfailEntry>& xfails() const { return xfails_; }
  const std::vector<int>& world_sizes() const { return world_sizes_; }
  const std::vector<MeshShape>& meshes() const { return meshes_; }
  // False for a nightly_only sample outside the nightly tier.
  bool Runs(const Sample& s) const { return nightly_ || !s.nightly_only(); }

  // One validation a gtest reads: a sample at a world size, or a mesh
  // (every sample that runs, on it).
  struct Job {
    std::string sample;
    int world_size = 0;
    std::optional<MeshShape> mesh;
  };

  // Every sample that runs, at every world size, in spec order.
  std::vector<Job> SampleJobs() const {
    std::vector<Job> jobs;
    for (const Sample& s : spec_->proto().sample()) {
      if (!Runs(s)) continue;
      for (int w : world_sizes_) jobs.push_back({s.name(), w, std::nullopt});
    }
    return jobs;
  }

  // Declares the validations the gtest `name` reads, before RUN_ALL_TESTS.
  void Declare(const std::string& name, std::vector<Job> jobs) {
    declared_[name] = std::move(jobs);
  }

  // The report of one sample at one world size (Compute).
  const absl::StatusOr<OpReport>& Report(const std::string& sample, int world_size) {
    const Job job{sample, world_size, std::nullopt};
    if (!reports_.count(Key(job))) Compute({job});
    return reports_.at(Key(job));
  }

  // The reports of every sample that runs at `world_size` (every world
  // size when 0), merged; nullopt after reporting a failure.
  std::optional<OpReport> Merged(int world_size = 0) {
    std::vector<OpReport> all;
    for (const Job& job : SampleJobs()) {
      if (world_size != 0 && job.world_size != world_size) continue;
      const absl::StatusOr<OpReport>& r = Report(job.sample, job.world_size);
      if (!r.ok()) {
        ADD_FAILURE() << r.status().message();
        return std::nullopt;
      }
      all.push_back(*r);
    }
    return MergeReports(all);
  }

  std::string Repro(int world_size, const std::string& mesh = "") const {
    shrt::Repro repro;
    repro.cli = data_.cli;
    repro.spec = data_.spec.path;
    repro.world_size = world_size;
    repro.mesh = mesh;
    return ReproCommand(repro);
  }

  // The expansion's report on `mesh` over every sample that runs (Compute).
  const absl::StatusOr<OpReport>& MeshReport(const MeshShape& mesh) {
    const Job job{"", 0, mesh};
    if (!reports_.count(Key(job))) Compute({job});
    return reports_.at(Key(job));
  }

 private:
  // A job's key in reports_: (sample, world size), or ("", 0, mesh).
  using JobKey = std::tuple<std::string, int, std::string>;
  static JobKey Key(const Job& job) {
    return {job.sample, job.world_size, job.mesh.has_value() ? job.mesh->ToString() : ""};
  }

  // Runs `asked` and, the first time, the validations of every gtest that
  // gtest runs (its filter and shard, TestInfo::should_run), in one
  // crash-isolated run (ValidateIsolated): one worker forked for the test
  // binary, not one per report. A fork copies the page tables of a
  // process that has loaded libtorch, and the child faults libtorch's
  // pages in again; the engine runs any number of tasks in one worker (as
  // `shrt validate` does), a crash costing a fresh worker (isolation.h).
  void Compute(std::vector<Job> asked) {
    if (!computed_any_) {
      computed_any_ = true;
      const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
      for (int i = 0; i < unit.total_test_suite_count(); ++i) {
        const ::testing::TestSuite& suite = *unit.GetTestSuite(i);
        if (data_.target != std::string(suite.name())) continue;
        for (int t = 0; t < suite.total_test_count(); ++t) {
          const ::testing::TestInfo& info = *suite.GetTestInfo(t);
          auto it = declared_.find(info.name());
          if (info.should_run() && it != declared_.end()) {
            asked.insert(asked.end(), it->second.begin(), it->second.end());
          }
        }
      }
    }
    std::vector<Job> jobs;
    std::set<JobKey> seen;
    for (Job& job : asked) {
      if (!reports_.count(Key(job)) && seen.insert(Key(job)).second) {
        jobs.push_back(std::move(job));
      }
    }
    ValidateOptions on_mesh;  // every sample that runs
    for (const Sample& s : spec_->proto().sample()) {
      if (Runs(s)) on_mesh.samples.push_back(s.name());
    }
    const c10::OperatorName op = spec_->op();
    const RuleSource strategy = [op](const OpArgs& args) {
      return StrategyRegistry::Global().Query(op, args);
    };
    // In a crash-isolated worker (isolation.h): a crashing operator fails
    // the test of the report it crashed in with the crash, and the other
    // tests still run.
    absl::StatusOr<std::vector<absl::StatusOr<OpReport>>> isolated = ValidateIsolated(
        static_cast<int>(jobs.size()),
        [&](int i) -> absl::StatusOr<OpReport> {
          const Job& job = jobs[i];
          if (job.mesh.has_value()) {
            return ValidateOnMesh(*spec_, ExpandedClaims(strategy, *job.mesh), *job.mesh, on_mesh);
          }
          ValidateOptions options;
          options.world_size = job.world_size;
          options.samples = {job.sample};
          return ValidateOp(*spec_, strategy, options);
        },
        [&](int i) {
          const Job& job = jobs[i];
          OpReport unfinished;
          unfinished.op = OverloadToString(op);
          unfinished.spec_path = spec_->path();
          unfinished.world_size = job.mesh.has_value() ? job.mesh->size() : job.world_size;
          if (job.mesh.has_value()) unfinished.mesh = job.mesh->ToString();
          return unfinished;
        },
        isolation_);
    for (size_t i = 0; i < jobs.size(); ++i) {
      reports_.emplace(Key(jobs[i]), isolated.ok() ? std::move((*isolated)[i])
                                                   : absl::StatusOr<OpReport>(isolated.status()));
    }
  }

  std::string Load() {
    UseGroundTruthRuntime();
    std::vector<std::pair<std::string, std::string>> files;
    for (int i = 0; i < data_.num_recipes; ++i) {
      files.emplace_back(data_.recipes[i].path, data_.recipes[i].text);
    }
    absl::StatusOr<RecipeSet> recipes = RecipeSet::FromFiles(files);
    if (!recipes.ok()) return std::string(recipes.status().message());
    auto shared = std::make_shared<const RecipeSet>(*std::move(recipes));
    // The specs it takes samples from, in dependency order: each one's
    // sources are among those before it.
    std::vector<std::unique_ptr<LoadedSpec>> sources;
    std::vector<const LoadedSpec*> given;
    for (int i = 0; i < data_.num_samples_from; ++i) {
      absl::StatusOr<LoadedSpec> s = LoadedSpec::FromText(
          data_.samples_from[i].text, data_.samples_from[i].path, shared, given);
      if (!s.ok()) return std::string(s.status().message());
      sources.push_back(std::make_unique<LoadedSpec>(*std::move(s)));
      given.push_back(sources.back().get());
    }
    absl::StatusOr<LoadedSpec> group =
        LoadedSpec::FromText(data_.spec.text, data_.spec.path, shared, given);
    if (!group.ok()) return std::string(group.status().message());
    absl::StatusOr<c10::OperatorName> op = ParseOverloadName(data_.op);
    if (!op.ok()) return std::string(op.status().message());
    absl::StatusOr<LoadedSpec> spec = group->ForOverload(*op);
    if (!spec.ok()) {
      return absl::StrCat(spec.status().message(),
                          " per the dispatcher: its spec tree's ", kGroupsFile,
                          " is stale; run `", kGroupsCommand, "`");
    }
    spec_ = std::make_unique<LoadedSpec>(*std::move(spec));
    absl::StatusOr<std::vector<XfailEntry>> xfails = ParseXfails(data_.xfails.text, data_.xfails.path);
    if (!xfails.ok()) return std::string(xfails.status().message());
    xfails_ = *std::move(xfails);
    if (absl::Status s = StrategyRegistry::Global().Check(); !s.ok()) {
      return std::string(s.message());
    }
    if (!StrategyRegistry::Global().Contains(spec_->op())) {
      return absl::StrCat("no strategy for ", OverloadToString(spec_->op()),
                          " is linked into this test (the macro's `strategy` library)");
    }
    const char* tier = std::getenv("SHRT_TIER");
    const std::string t = tier == nullptr ? "" : tier;
    if (t != "" && t != "pr" && t != "nightly") return absl::StrCat("SHRT_TIER: '", t, "' is not pr or nightly");
    nightly_ = t == "nightly";
    world_sizes_ = spec_->world_sizes();
    if (const char* env = std::getenv("SHRT_WORLD_SIZES"); env != nullptr && *env != '\0') {
      world_sizes_.clear();
      for (absl::string_view w : absl::StrSplit(env, ',')) {
        int v = 0;
        if (!absl::SimpleAtoi(w, &v)) return absl::StrCat("SHRT_WORLD_SIZES: '", w, "' is not an integer");
        world_sizes_.push_back(v);
      }
    }
    const char* meshes = std::getenv("SHRT_MESHES");
    for (absl::string_view m : absl::StrSplit(meshes == nullptr ? "2x2" : meshes, ',', absl::SkipEmpty())) {
      absl::StatusOr<MeshShape> mesh = MeshShape::Parse(m);
      if (!mesh.ok()) return absl::StrCat("SHRT_MESHES: ", mesh.status().message());
      meshes_.push_back(*mesh);
    }
    if (const char* env = std::getenv("SHRT_CALL_TIME_LIMIT"); env != nullptr && *env != '\0') {
      if (!absl::ParseDuration(env, &isolation_.call_time_limit) ||
          isolation_.call_time_limit <= absl::ZeroDuration()) {
        return absl::StrCat("SHRT_CALL_TIME_LIMIT: '", env, "' is not a positive duration (e.g. 60s)");
      }
    }
    return "";
  }

  const OpTestData& data_;
  std::string error_;
  std::unique_ptr<LoadedSpec> spec_;
  std::vector<XfailEntry> xfails_;
  std::vector<int> world_sizes_;
  std::vector<MeshShape> meshes_;  // SHRT_MESHES, default 2x2
  IsolationOptions isolation_;  // SHRT_CALL_TIME_LIMIT sets the call time limit
  bool nightly_ = false;
  std::map<std::string, std::vector<Job>> declared_;  // per gtest name (Declare)
  bool computed_any_ = false;
  std::map<JobKey, absl::StatusOr<OpReport>> reports_;
};

// Records, in the running gtest's test.xml entry, the property
// validation_seconds: the wall time of the validations it reports
// (OpReport::seconds, measured in the worker that ran them). A gtest's own
// time is not that: the first gtest that asks for a report waits for every
// gtest's validations (OpTestState::Compute). tools/bench/gtest_split.py
// reads it.
void RecordValidationSeconds(double seconds) {
  ::testing::Test::RecordProperty("validation_seconds", absl::StrCat(seconds));
}

void RunSampleTest(OpTestState& state, const Sample& sample) {
  if (!state.Runs(sample)) {
    GTEST_SKIP() << "nightly_only sample: runs with SHRT_TIER=nightly (--config=nightly)";
  }
  double seconds = 0;
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
    seconds += report->seconds;
  }
  RecordValidationSeconds(seconds);
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
  RecordValidationSeconds(report->seconds);
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

// Exits without running static destructors: libtorch's teardown (every
// operator deregistered from the dispatcher) cost about a tenth of a test's
// run (valgrind --tool=callgrind: 262M of 3.0G instructions for
// //op_specs:aten_relu), and gtest has written its output by now.
int main(int argc, char** argv) {
  const int status = shrt::RunOpTests(shrt::kOpTestData, argc, argv);
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(status);
}
