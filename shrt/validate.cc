#include "shrt/validate.h"

#include <algorithm>
#include <chrono>

#include "absl/strings/str_cat.h"
#include "c10/util/Exception.h"
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

}  // namespace shrt
