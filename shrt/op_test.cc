#include "shrt/op_test.h"

#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>

#include "ATen/Parallel.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "shrt/overload_name.h"
#include "shrt/recipes.h"
#include "shrt/registry.h"
#include "shrt/report.h"
#include "shrt/spec_loader.h"
#include "shrt/validate.h"
#include "shrt/xfails.h"

namespace shrt {
namespace {

// What one test binary loads once and the reports it has computed.
class OpTestState {
 public:
  explicit OpTestState(const OpTestConfig& config) : config_(config) {
    at::set_num_threads(1);
    std::vector<std::pair<std::string, std::string>> files;
    for (const EmbeddedFile& f : config.recipes) files.emplace_back(f.path, f.text);
    absl::StatusOr<RecipeSet> recipes = RecipeSet::FromFiles(files);
    if (!recipes.ok()) {
      error_ = std::string(recipes.status().message());
      return;
    }
    absl::StatusOr<LoadedSpec> spec = LoadedSpec::FromText(
        config.spec.text, config.spec.path, std::make_shared<const RecipeSet>(*std::move(recipes)));
    if (!spec.ok()) {
      error_ = std::string(spec.status().message());
      return;
    }
    spec_ = std::make_unique<LoadedSpec>(*std::move(spec));
    absl::StatusOr<std::vector<XfailEntry>> xfails =
        ParseXfails(config.xfails.text, config.xfails.path);
    if (!xfails.ok()) {
      error_ = std::string(xfails.status().message());
      return;
    }
    xfails_ = *std::move(xfails);
    if (absl::Status s = StrategyRegistry::Global().Check(); !s.ok()) {
      error_ = std::string(s.message());
      return;
    }
    if (!StrategyRegistry::Global().Contains(spec_->op())) {
      error_ = absl::StrCat("no strategy for ", OverloadToString(spec_->op()),
                            " is linked into this test (the macro's `strategy` library)");
      return;
    }
    const char* tier = std::getenv("SHRT_TIER");
    const std::string t = tier == nullptr ? "" : tier;
    if (t != "" && t != "pr" && t != "nightly") {
      error_ = absl::StrCat("SHRT_TIER: '", t, "' is not pr or nightly");
      return;
    }
    nightly_ = t == "nightly";
    world_sizes_ = spec_->world_sizes();
    if (const char* env = std::getenv("SHRT_WORLD_SIZES"); env != nullptr && *env != '\0') {
      world_sizes_.clear();
      for (absl::string_view w : absl::StrSplit(env, ',')) {
        int v = 0;
        if (!absl::SimpleAtoi(w, &v)) {
          error_ = absl::StrCat("SHRT_WORLD_SIZES: '", w, "' is not an integer");
          return;
        }
        world_sizes_.push_back(v);
      }
    }
  }

  const std::string& error() const { return error_; }
  const LoadedSpec& spec() const { return *spec_; }
  const std::vector<XfailEntry>& xfails() const { return xfails_; }
  const std::vector<int>& world_sizes() const { return world_sizes_; }
  // False for a nightly_only sample outside the nightly tier.
  bool Runs(const Sample& s) const { return nightly_ || !s.nightly_only(); }

  // The report of one sample at one world size, computed once.
  const absl::StatusOr<OpReport>& Report(const std::string& sample, int world_size) {
    auto key = std::make_pair(sample, world_size);
    auto it = reports_.find(key);
    if (it != reports_.end()) return it->second;
    ValidateOptions options;
    options.world_size = world_size;
    options.samples = {sample};
    const c10::OperatorName op = spec_->op();
    absl::StatusOr<OpReport> report = ValidateOp(
        *spec_, [&](const OpArgs& args) { return StrategyRegistry::Global().Query(op, args); },
        options);
    return reports_.emplace(key, std::move(report)).first->second;
  }

  // Every sample at every world size, merged; nullopt after reporting a
  // failure.
  std::optional<OpReport> Merged() {
    std::vector<OpReport> all;
    for (const Sample& s : spec_->proto().sample()) {
      if (!Runs(s)) continue;
      for (int w : world_sizes_) {
        const absl::StatusOr<OpReport>& r = Report(s.name(), w);
        if (!r.ok()) {
          ADD_FAILURE() << r.status().message();
          return std::nullopt;
        }
        all.push_back(*r);
      }
    }
    return MergeReports(all);
  }

  std::string Repro(int world_size) const {
    return absl::StrCat("bazel run ", config_.cli, " -- validate --spec=", config_.spec.path,
                        " --world_size=", world_size);
  }

 private:
  const OpTestConfig& config_;
  std::string error_;
  std::unique_ptr<LoadedSpec> spec_;
  std::vector<XfailEntry> xfails_;
  std::vector<int> world_sizes_;
  bool nightly_ = false;
  std::map<std::pair<std::string, int>, absl::StatusOr<OpReport>> reports_;
};

OpTestState* State(const OpTestConfig& config) {
  static auto* states = new std::map<const OpTestConfig*, std::unique_ptr<OpTestState>>();
  auto& state = (*states)[&config];
  if (!state) state = std::make_unique<OpTestState>(config);
  if (!state->error().empty()) {
    ADD_FAILURE() << state->error();
    return nullptr;
  }
  return state.get();
}

}  // namespace

void RunSampleTest(const OpTestConfig& config, const std::string& sample) {
  OpTestState* state = State(config);
  if (state == nullptr) return;
  for (const Sample& s : state->spec().proto().sample()) {
    if (s.name() == sample && !state->Runs(s)) {
      GTEST_SKIP() << "nightly_only sample: runs with SHRT_TIER=nightly (--config=nightly)";
    }
  }
  for (int w : state->world_sizes()) {
    const absl::StatusOr<OpReport>& report = state->Report(sample, w);
    if (!report.ok()) {
      ADD_FAILURE() << report.status().message();
      continue;
    }
    if (report->samples.empty()) {
      ADD_FAILURE() << config.spec.path << ": no sample named '" << sample << "'";
      continue;
    }
    if (!report->error.empty()) ADD_FAILURE() << report->error;
    for (const RuleVerdict& v : report->rules) {
      if (v.verdict != Verdict::kIncorrect) continue;
      const std::string line = absl::StrCat(report->op, ": incorrect rule '", RuleToString(v.rule),
                                            "' at W=", w, ": ", v.evidence);
      if (XfailCovers(state->xfails(), report->op, v.rule, Today())) {
        std::cout << "xfailed: " << line << "\n";
      } else {
        ADD_FAILURE() << line << " | reproduce: " << state->Repro(w);
      }
    }
    std::cout << report->op << " sample " << sample << " at W=" << w << ": "
              << report->Count(Verdict::kCorrect) << " correct, "
              << report->Count(Verdict::kIncorrect) << " incorrect, "
              << report->Count(Verdict::kMissing) << " missing; " << report->combination_checks
              << " combination checks in " << report->seconds << " s\n";
  }
}

void RunXfailTest(const OpTestConfig& config) {
  OpTestState* state = State(config);
  if (state == nullptr) return;
  std::optional<OpReport> merged = state->Merged();
  if (!merged.has_value()) return;
  const XfailFindings findings = JudgeXfails(state->xfails(), *merged, Today(), config.cli);
  for (const std::string& w : findings.warnings) std::cout << "WARNING: " << w << "\n";
  for (const std::string& f : findings.failures) ADD_FAILURE() << f;
}

void RunMissingTest(const OpTestConfig& config) {
  OpTestState* state = State(config);
  if (state == nullptr) return;
  std::optional<OpReport> merged = state->Merged();
  if (!merged.has_value()) return;
  const bool fail = state->spec().proto().require_complete();
  for (const RuleVerdict& v : merged->rules) {
    if (v.verdict != Verdict::kMissing) continue;
    const std::string line =
        absl::StrCat(merged->op, ": missing rule '", RuleToString(v.rule), "': ", v.evidence);
    if (fail) {
      ADD_FAILURE() << line << " (the spec sets require_complete)";
    } else {
      std::cout << line << "\n";
    }
  }
}

}  // namespace shrt
