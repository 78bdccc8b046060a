#include "shrt/validate.h"

#include <algorithm>
#include <chrono>

#include "absl/strings/str_cat.h"
#include "c10/util/Exception.h"
#include "shrt/isolation.h"
#include "shrt/overload_name.h"
#include "shrt/sample.h"

namespace shrt {
namespace {

// Counts the c10 warnings raised while installed and keeps the first.
class WarningCollector : public c10::WarningHandler {
 public:
  explicit WarningCollector(OpReport& report) : report_(report) {}
  void process(const c10::SourceLocation& source_location, const std::string& msg,
               const bool verbatim) override {
    if (report_.warning_count++ == 0) report_.first_warning = msg;
  }

 private:
  OpReport& report_;
};

}  // namespace

absl::StatusOr<OpReport> ValidateOp(const LoadedSpec& spec, const RuleSource& claimed,
                                    const ValidateOptions& options) {
  ClaimSource claims = [&](const OpArgs& args, int) -> absl::StatusOr<std::vector<ClaimedRule>> {
    absl::StatusOr<std::vector<Rule>> rules = claimed(args);
    if (!rules.ok()) return rules.status();
    std::vector<ClaimedRule> out;
    for (Rule& r : *rules) out.push_back({std::move(r), {}});
    return out;
  };
  return ValidateClaims(spec, claims, 0, options);
}

absl::StatusOr<OpReport> ValidateClaims(const LoadedSpec& spec, const ClaimSource& claimed,
                                        int num_origins, const ValidateOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  OpReport report;
  report.op = OverloadToString(spec.op());
  report.spec_path = spec.path();
  report.world_size = options.world_size;
  // The operator's TORCH_WARN messages go to the report (the handler is
  // per thread in c10, so parallel validations keep theirs apart).
  WarningCollector warnings(report);
  c10::Warning::WarningHandlerGuard guard(&warnings);
  VerdictBook book(num_origins);
  for (int s = 0; s < spec.proto().sample_size() && report.error.empty(); ++s) {
    const std::string& name = spec.proto().sample(s).name();
    if (!options.samples.empty() &&
        std::find(options.samples.begin(), options.samples.end(), name) == options.samples.end()) {
      continue;
    }
    absl::StatusOr<std::vector<BoundSample>> bound = BoundSample::BindAll(spec, s);
    if (!bound.ok()) return bound.status();
    for (const BoundSample& sample : *bound) {
      for (const InputSpec& in : sample.inputs()) {
        if (std::find(report.recipes.begin(), report.recipes.end(), in.recipe) ==
            report.recipes.end()) {
          report.recipes.push_back(in.recipe);
        }
      }
      absl::StatusOr<SampleTruth> truth = GroundTruth(spec, s, sample, options);
      if (!truth.ok()) return truth.status();
      report.samples.push_back({truth->name(), truth->description()});
      report.combination_checks += truth->combination_checks();
      report.crashes.insert(report.crashes.end(), truth->crashes().begin(),
                            truth->crashes().end());
      if (!truth->rejection().empty()) {
        report.notes.push_back(truth->rejection());
        continue;
      }
      absl::StatusOr<std::vector<ClaimedRule>> claims =
          claimed(truth->args(), options.world_size);
      if (!claims.ok() && claims.status().code() == absl::StatusCode::kInvalidArgument) {
        // Bad input (a strategy table's rule), not a broken strategy.
        return absl::InvalidArgumentError(
            absl::StrCat(claims.status().message(), " (sample ", truth->name(), ")"));
      }
      if (!claims.ok()) {
        report.error = absl::StrCat("sample ", truth->name(), ": ", claims.status().message());
        break;
      }
      book.Add(*truth, *claims);
    }
  }
  if (options.samples.empty() && report.error.empty()) report.error = RejectsEverySample(report);
  report.rules = book.Rules();
  report.origins = book.Origins();
  report.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

bool CrashApplies(const KnownCrash& entry, int world_size) {
  return entry.world_sizes().empty() ||
         std::find(entry.world_sizes().begin(), entry.world_sizes().end(), world_size) !=
             entry.world_sizes().end();
}

std::vector<CaseCrash> UnexplainedCrashes(const LoadedSpec& spec,
                                          const std::vector<CaseCrash>& crashes, int world_size) {
  std::vector<CaseCrash> out;
  for (const CaseCrash& c : crashes) {
    bool explained = false;
    for (const KnownCrash& k : spec.proto().crash()) {
      if (!CrashApplies(k, world_size)) continue;
      for (const std::string& text : k.inputs()) {
        absl::StatusOr<std::vector<Placement>> inputs = ParsePlacements(text);  // checked
        explained = explained || (inputs.ok() && !c.inputs.empty() &&
                                  PlacementsToString(*inputs) == c.inputs);
      }
    }
    if (!explained) out.push_back(c);
  }
  return out;
}

absl::StatusOr<std::vector<absl::StatusOr<OpReport>>> ValidateIsolated(
    int n, const std::function<absl::StatusOr<OpReport>(int)>& validate,
    const std::function<OpReport(int)>& unfinished, const IsolationOptions& options,
    const std::function<void(int)>& done) {
  IsolatedTask task = [&](int i) -> absl::StatusOr<std::string> {
    absl::StatusOr<OpReport> report = validate(i);
    if (!report.ok()) return report.status();
    return SerializeOpReport(*report);
  };
  absl::StatusOr<std::vector<TaskOutcome>> outcomes = RunIsolated(n, task, options, done);
  if (!outcomes.ok()) return outcomes.status();
  std::vector<absl::StatusOr<OpReport>> reports;
  for (int i = 0; i < n; ++i) {
    TaskOutcome& o = (*outcomes)[i];
    if (o.result.ok()) {
      reports.push_back(ParseOpReport(*o.result));
    } else if (o.result.status().code() == absl::StatusCode::kInternal && !o.crashes.empty()) {
      // The task could not finish: a report that says so, crashed.
      OpReport r = unfinished(i);
      r.error = absl::StrCat("validation did not finish: ", o.result.status().message());
      for (const CallCrash& c : o.crashes) {
        r.crashes.push_back({"", absl::StrCat("crashed: ", c.reason, " at operator call #", c.call)});
      }
      reports.push_back(std::move(r));
    } else if (o.result.status().code() == absl::StatusCode::kInternal) {
      OpReport r = unfinished(i);
      r.error = absl::StrCat("validation did not finish: ", o.result.status().message());
      reports.push_back(std::move(r));
    } else {
      reports.push_back(o.result.status());
    }
  }
  return reports;
}

}  // namespace shrt
