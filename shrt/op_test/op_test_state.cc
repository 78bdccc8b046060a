#include "shrt/op_test/op_test_state.h"

#include <cstdlib>
#include <set>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "shrt/engine/torch_runtime.h"
#include "shrt/engine/validate.h"
#include "shrt/ops/overload_name.h"
#include "shrt/report/group_manifest.h"
#include "shrt/report/report.h"
#include "shrt/spec/recipes.h"
#include "shrt/strategies/registry.h"

namespace shrt {

OpTestState::OpTestState(const OpTestData& data) : data_(data) { error_ = Load(); }

std::vector<OpTestState::Job> OpTestState::SampleJobs() const {
  std::vector<Job> jobs;
  for (const Sample& s : spec_->proto().sample()) {
    if (!Runs(s)) continue;
    for (int w : world_sizes_) jobs.push_back({s.name(), w, std::nullopt});
  }
  return jobs;
}

const absl::StatusOr<OpReport>& OpTestState::Report(const std::string& sample, int world_size) {
  const Job job{sample, world_size, std::nullopt};
  if (!reports_.count(Key(job))) Compute({job});
  return reports_.at(Key(job));
}

std::optional<OpReport> OpTestState::Merged(int world_size) {
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

const absl::StatusOr<OpReport>& OpTestState::MeshReport(const MeshShape& mesh) {
  const Job job{"", 0, mesh};
  if (!reports_.count(Key(job))) Compute({job});
  return reports_.at(Key(job));
}

std::string OpTestState::Repro(int world_size, const std::string& mesh) const {
  shrt::Repro repro;
  repro.cli = data_.cli;
  repro.spec = data_.spec.path;
  repro.world_size = world_size;
  repro.mesh = mesh;
  return ReproCommand(repro);
}

OpTestState::JobKey OpTestState::Key(const Job& job) {
  return {job.sample, job.world_size, job.mesh.has_value() ? job.mesh->ToString() : ""};
}

void OpTestState::Compute(std::vector<Job> asked) {
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

std::string OpTestState::Load() {
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

}  // namespace shrt
