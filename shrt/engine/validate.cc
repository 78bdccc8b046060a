#include "shrt/engine/validate.h"

#include <algorithm>
#include <chrono>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "c10/util/Exception.h"
#include "shrt/engine/isolation.h"
#include "shrt/engine/list_elements.h"
#include "shrt/engine/nd_truth.h"
#include "shrt/engine/sample.h"
#include "shrt/ops/overload_name.h"
#include "shrt/vocab/expand.h"
#include "shrt/vocab/limits.h"

namespace shrt {
namespace {

// Counts the c10 warnings raised while installed and keeps the first.
class WarningCollector : public c10::WarningHandler {
 public:
  explicit WarningCollector(OpReport& report) : report_(report) {}
  void process(const c10::Warning& warning) override {
    if (report_.warning_count++ == 0) report_.first_warning = warning.msg();
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

namespace {

// The loop every validation shares: the report's header, the operator's
// warnings, then `one(s, sample)` for every expansion of every selected
// sample (its recipes recorded) until `one` fails or sets report.error;
// then the every-sample-rejected check and the wall time. `finish` moves
// the verdicts into the report.
absl::StatusOr<OpReport> RunSamples(
    const LoadedSpec& spec, const ValidateOptions& options,
    const std::function<absl::Status(OpReport&, int, const BoundSample&)>& one,
    const std::function<void(OpReport&)>& finish) {
  const auto start = std::chrono::steady_clock::now();
  OpReport report;
  report.op = OverloadToString(spec.op());
  report.spec_path = spec.path();
  report.world_size = options.world_size;
  // The operator's TORCH_WARN messages go to the report (the handler is
  // per thread in c10, so parallel validations keep theirs apart).
  WarningCollector warnings(report);
  c10::WarningUtils::WarningHandlerGuard guard(&warnings);
  int skipped = 0;  // not run (options.skip): it may be one the overload accepts
  for (int s = 0; s < spec.proto().sample_size() && report.error.empty(); ++s) {
    const std::string& name = spec.proto().sample(s).name();
    if (!options.samples.empty() &&
        std::find(options.samples.begin(), options.samples.end(), name) == options.samples.end()) {
      continue;
    }
    absl::StatusOr<std::vector<BoundSample>> bound = BoundSample::BindAll(spec, s);
    if (!bound.ok()) return bound.status();
    for (const BoundSample& sample : *bound) {
      if (!report.error.empty()) break;
      if (auto skip = options.skip.find(sample.name()); skip != options.skip.end()) {
        report.sampled.push_back(
            absl::StrCat("sample ", sample.name(), " not validated: ", skip->second));
        ++skipped;
        continue;
      }
      for (const InputSpec& in : sample.inputs()) {
        if (std::find(report.recipes.begin(), report.recipes.end(), in.recipe) ==
            report.recipes.end()) {
          report.recipes.push_back(in.recipe);
        }
      }
      if (absl::Status st = one(report, s, sample); !st.ok()) return st;
    }
  }
  if (options.samples.empty() && skipped == 0 && report.error.empty()) {
    report.error = RejectsEverySample(report);
  }
  finish(report);
  report.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

// What a claims error means (validate.h): InvalidArgument is bad input (a
// strategy table's rule), returned with the sample named; any other is a
// broken strategy, the report's error. OK when `status` is.
absl::Status ClaimsError(const absl::Status& status, const std::string& sample, OpReport& report) {
  if (status.ok()) return status;
  if (status.code() == absl::StatusCode::kInvalidArgument) {
    return absl::InvalidArgumentError(absl::StrCat(status.message(), " (sample ", sample, ")"));
  }
  report.error = absl::StrCat("sample ", sample, ": ", status.message());
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<OpReport> ValidateClaims(const LoadedSpec& spec, const ClaimSource& claimed,
                                        int num_origins, const ValidateOptions& options) {
  VerdictBook book(num_origins);
  auto one = [&](OpReport& report, int s, const BoundSample& sample) -> absl::Status {
    absl::StatusOr<SampleTruth> truth = GroundTruth(spec, s, sample, options);
    if (!truth.ok()) return truth.status();
    report.samples.push_back({truth->name(), truth->description()});
    report.combination_checks += truth->combination_checks();
    report.crashes.insert(report.crashes.end(), truth->crashes().begin(), truth->crashes().end());
    if (!truth->not_split().empty()) report.notes.push_back(truth->not_split());
    if (!truth->rejection().empty()) {
      ++report.rejected_samples;
      report.notes.push_back(truth->rejection());
      return absl::OkStatus();
    }
    absl::StatusOr<std::vector<ClaimedRule>> claims = claimed(truth->args(), options.world_size);
    if (!claims.ok()) return ClaimsError(claims.status(), truth->name(), report);
    book.Add(*truth, *claims);
    return absl::OkStatus();
  };
  return RunSamples(spec, options, one, [&](OpReport& report) {
    report.rules = book.Rules();
    report.origins = book.Origins();
  });
}

NdClaimSource ExpandedClaims(const RuleSource& claimed, const MeshShape& mesh) {
  return [claimed, mesh](const OpArgs& args) -> absl::StatusOr<NdClaims> {
    absl::StatusOr<std::vector<Rule>> rules = claimed(args);
    if (!rules.ok()) return rules.status();
    std::vector<std::vector<int64_t>> shapes;
    for (const TensorMeta& m : args.inputs()) shapes.push_back(m.sizes);
    Expansion e = ExpandToMesh(*rules, shapes, args.outputs().size(), mesh, kMaxNdRules);
    NdClaims out;
    for (ExpandedRule& r : e.rules) {
      const NdClaim::Kind kind = r.filtered.empty() ? NdClaim::Kind::kKept : NdClaim::Kind::kFiltered;
      out.claims.push_back({std::move(r.rule), kind, std::move(r.filtered)});
    }
    if (e.sampled) {
      out.sampled = absl::StrCat(
          "the expansion has ", e.combinations, " N-D rules, more than ", kMaxNdRules,
          " (shrt/vocab/limits.h): checked ", out.claims.size(),
          " of them, every single-dim rule alone on each mesh dim and on all, and a fixed "
          "draw of the rest");
    }
    return out;
  };
}

absl::StatusOr<OpReport> ValidateOnMesh(const LoadedSpec& spec, const NdClaimSource& claimed,
                                        const MeshShape& mesh, const ValidateOptions& options) {
  NdVerdictBook book;
  auto one = [&](OpReport& report, int s, const BoundSample& sample) -> absl::Status {
    std::vector<NdClaim> claims;
    NdRuleSource rules = [&](const OpArgs& args) -> absl::StatusOr<std::vector<NdRule>> {
      absl::StatusOr<NdClaims> c = claimed(args);
      if (!c.ok()) return c.status();
      claims = std::move(c->claims);
      if (!c->sampled.empty()) {
        report.sampled.push_back(absl::StrCat("sample ", sample.name(), ": ", c->sampled));
      }
      std::vector<NdRule> out;
      for (const NdClaim& claim : claims) out.push_back(claim.rule);
      return out;
    };
    absl::StatusOr<NdSampleTruth> truth = NdGroundTruth(spec, s, sample, mesh, rules, options);
    if (!truth.ok()) return truth.status();
    report.samples.push_back({truth->name, truth->description});
    report.combination_checks += truth->combination_checks;
    report.crashes.insert(report.crashes.end(), truth->crashes.begin(), truth->crashes.end());
    if (!truth->rejection.empty()) {
      ++report.rejected_samples;
      report.notes.push_back(truth->rejection);
      return absl::OkStatus();
    }
    if (!truth->source_status.ok()) return ClaimsError(truth->source_status, truth->name, report);
    book.Add(*truth, claims);
    return absl::OkStatus();
  };
  // A list op's sample is judged element by element, each element a
  // sample of its own with its own claims (list_elements.h): DTensor
  // expands _foreach_ ops per element on a mesh (expanded_foreach_strategy),
  // and the N-D rules of the whole list are the products of the elements'.
  auto per_element = [&](OpReport& report, int s, const BoundSample& sample) -> absl::Status {
    absl::StatusOr<ElementSplit> split = SplitListElements(spec, s, sample, options);
    if (!split.ok()) return split.status();
    if (!split->not_split.empty()) report.notes.push_back(split->not_split);
    if (split->elements.empty()) return one(report, s, sample);
    for (const ListElement& e : split->elements) {
      if (absl::Status st = one(report, s, *e.sample); !st.ok() || !report.error.empty()) return st;
    }
    return absl::OkStatus();
  };
  absl::StatusOr<OpReport> report = RunSamples(
      spec, options, per_element, [&](OpReport& report) { report.nd_rules = book.Rules(); });
  if (report.ok()) {
    report->mesh = mesh.ToString();
    report->world_size = mesh.size();
  }
  return report;
}

bool CrashApplies(const KnownCrash& entry, int world_size) {
  return entry.world_sizes().empty() ||
         std::find(entry.world_sizes().begin(), entry.world_sizes().end(), world_size) !=
             entry.world_sizes().end();
}

std::vector<CaseCrash> UnexplainedCrashes(const LoadedSpec& spec,
                                          const std::vector<CaseCrash>& crashes, int world_size) {
  // Whether entry k explains single-dim input placements `inputs`.
  auto explains = [&](const KnownCrash& k, const std::string& inputs) {
    for (const std::string& text : k.inputs()) {
      absl::StatusOr<std::vector<Placement>> ps = ParsePlacements(text);  // checked
      if (ps.ok() && PlacementsToString(*ps) == inputs) return true;
    }
    return false;
  };
  std::vector<CaseCrash> out;
  for (const CaseCrash& c : crashes) {
    bool explained = false;
    // On an N-D mesh ("[S(0), R], [R, R]"): explained by an entry for the
    // inputs' placements on one mesh dim, at any world size.
    absl::StatusOr<std::vector<std::vector<Placement>>> nd =
        absl::StartsWith(c.inputs, "[") ? ParseNdPlacementLists(c.inputs)
                                        : absl::StatusOr<std::vector<std::vector<Placement>>>();
    for (const KnownCrash& k : spec.proto().crash()) {
      if (c.inputs.empty()) break;
      if (!nd.ok()) {
        explained = explained || (CrashApplies(k, world_size) && explains(k, c.inputs));
        continue;
      }
      for (size_t m = 0; !nd->empty() && m < nd->front().size(); ++m) {
        std::vector<Placement> dim;
        for (const std::vector<Placement>& ps : *nd) dim.push_back(ps[m]);
        explained = explained || explains(k, PlacementsToString(dim));
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
      absl::StatusOr<OpReport> r = ParseOpReport(*o.result);
      if (r.ok()) {
        r->operator_calls = o.operator_calls;
        r->operator_seconds = o.operator_seconds;
      }
      reports.push_back(std::move(r));
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
