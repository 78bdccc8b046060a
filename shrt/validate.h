// The validation pipeline for one overload (DESIGN.md §6):
//   spec -> enumerate cases -> ground truth -> query strategy -> verdicts.
//
// For every sample and every generator of its recipes, the operator runs
// once on the full inputs and, for every tuple of input placements, once per
// rank on the local inputs; every output placement is then checked against
// those local results (DESIGN.md §8). Ground truth decides, per sample,
// which rules are valid; the strategy's claims for that sample are then
// judged:
//   incorrect   claimed on a sample where some case refutes it;
//   missing     not incorrect, valid on a sample where it was not claimed
//               (degenerate and all-Replicate rules are never missing);
//   correct     claimed, valid on every sample that claimed it, with at
//               least one informative case;
//   unverified  claimed, never refuted, but no informative case (the full
//               outputs were all zero or all NaN wherever it applied).
#ifndef SHRT_VALIDATE_H_
#define SHRT_VALIDATE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "shrt/op_args.h"
#include "shrt/placement.h"
#include "shrt/spec_loader.h"

namespace c10 {
class OperatorHandle;
struct IValue;
}  // namespace c10

namespace shrt {

// Receives every per-rank operator call the validator makes, as the
// operator and its boxed stack, before the call (tools/bench replays them
// alone to measure the floor of DESIGN.md §8).
class CallRecorder {
 public:
  virtual ~CallRecorder() = default;
  virtual void Record(const c10::OperatorHandle& op, std::vector<c10::IValue> stack) = 0;
};

// In report order.
enum class Verdict { kIncorrect, kMissing, kCorrect, kUnverified };

// "correct", "incorrect", "missing", "unverified".
absl::string_view VerdictName(Verdict v);

struct RuleVerdict {
  Rule rule;
  Verdict verdict;
  // incorrect: the sample, generator, redraw, output, rank and largest
  // |difference| or the error text that refute it; missing: the sample on
  // which it holds; unverified: why no case was informative.
  std::string evidence;
};

struct SampleSummary {
  std::string name;
  std::string description;  // "self=Float[8, 16], other=Float[16]"
};

// Ground truth of one (expanded) sample, kept with ValidateOptions::keep_truth
// for discovery and synthesis.
struct SampleRules {
  std::string name;
  OpArgs args;              // what a strategy sees for this sample
  std::vector<Rule> valid;  // non-degenerate rules holding on an informative case, never refuted
  std::vector<Rule> holds;  // every rule no case refutes (degenerate and uninformative included)
};

struct OpReport {
  std::string op;          // canonical overload, "aten::mul.Tensor"
  std::string spec_path;
  int world_size = 0;
  std::vector<SampleSummary> samples;
  std::vector<std::string> recipes;  // recipes used, e.g. "default"
  // (sample, generator, input placements, output placements) verdicts
  // evaluated; a combination already refuted by an earlier generator is not
  // evaluated again.
  int64_t combination_checks = 0;
  double seconds = 0;  // wall time of this overload, seconds
  // Sorted by verdict (incorrect, missing, correct, unverified), then rule.
  std::vector<RuleVerdict> rules;
  // Non-empty when the strategy broke its contract (registry.h), or when an
  // in-place or out= variant rejects every sample of its group's spec: the
  // op cannot be certified and counts as failing.
  std::string error;
  // Findings that are not rule verdicts: each sample an in-place or out=
  // variant rejects on full inputs, with the operator's error ("sample
  // broadcast_row: aten::add_.Tensor rejects the full inputs: ..."). Such a
  // sample is not applicable to that overload.
  std::vector<std::string> notes;
  // c10 warnings (TORCH_WARN) the operator raised during the run: how many,
  // and the first one's text. They are collected here instead of reaching
  // stderr.
  int64_t warning_count = 0;
  std::string first_warning;
  // With ValidateClaims: one verdict per declaration (e.g. per rule of a
  // strategy table), judged over all its concrete instances: incorrect if
  // any instance is, else correct if one holds on an informative case,
  // else unverified (no instance applied, or none was informative).
  struct OriginVerdict {
    Verdict verdict = Verdict::kUnverified;
    std::string evidence;
  };
  std::vector<OriginVerdict> origins;
  // What each origin is, for reports (set by the caller of ValidateClaims):
  // a table rule's placements text as written and its condition.
  struct Declaration {
    std::string placements;
    std::string condition;
  };
  std::vector<Declaration> declarations;
  // With ValidateOptions::keep_truth: each expanded sample's ground truth.
  std::vector<SampleRules> truths;
  // The command that reproduces this report, when the caller knows a more
  // precise one than ReproCommand(op, world_size) (report.h).
  std::string repro;

  int Count(Verdict v) const;
};

struct ValidateOptions {
  int world_size = 4;
  // Independent redraws of the parts of Partial inputs (DESIGN.md §3).
  int partial_redraws = 3;
  // Base seed of every generator and partial draw.
  uint64_t seed = 0;
  // When non-empty, only the spec's samples with these names (each with
  // all its sweep expansions) are validated.
  std::vector<std::string> samples;
  // Keep each sample's valid rules in OpReport::truths.
  bool keep_truth = false;
  // Use the reference (unoptimised) comparison paths; verdicts must not
  // change (validate_test checks it).
  bool reference_paths = false;
  // If set, sees every per-rank call (not thread-safe: one validation at a
  // time).
  CallRecorder* recorder = nullptr;
};

// The rules a strategy claims for one sample's metadata. Errors are the
// strategy's (e.g. FailedPrecondition from StrategyRegistry::Query).
using RuleSource = std::function<absl::StatusOr<std::vector<Rule>>(const OpArgs&)>;

// A concrete rule claimed for one sample, with the declarations (indices,
// e.g. of table rules) it was instantiated from.
struct ClaimedRule {
  Rule rule;
  std::vector<int> origins;
};

// The claims for one sample's metadata at a world size.
using ClaimSource =
    std::function<absl::StatusOr<std::vector<ClaimedRule>>(const OpArgs&, int world_size)>;

// Note: validating turns off c10's stack-trace capture for c10::Error
// (c10::SetStackTraceFetcher) for the whole process. Most input placements
// make some rank's call throw; symbolising a backtrace per throw (dladdr,
// under the dynamic loader's lock) took ~70% of the time and serialised
// threads, and ShRT reports only what_without_backtrace().
//
// As ValidateOp, for claims with origins in [0, num_origins): the report
// also carries one OriginVerdict per origin.
absl::StatusOr<OpReport> ValidateClaims(const LoadedSpec& spec, const ClaimSource& claimed,
                                        int num_origins, const ValidateOptions& options);

// Validates `claimed` against ground truth on every sample of `spec`.
// Errors: InvalidArgument "<path>:<line>: ..." when a sample does not bind
// to the schema or the operator rejects a sample's full inputs (a bad spec;
// for an in-place or out= variant, spec.is_variant(), that is a note of the
// report instead, and an error of the report if no sample applies);
// InvalidArgument for options out of range (world size, redraws).
absl::StatusOr<OpReport> ValidateOp(const LoadedSpec& spec, const RuleSource& claimed,
                                    const ValidateOptions& options);

// "" unless every sample of `report` was rejected by its in-place or out=
// variant (OpReport::notes); then the error that says so. ValidateOp sets
// it when it validates every sample; callers that merge per-sample reports
// check the merged report.
std::string RejectsEverySample(const OpReport& report);

// Merges reports of the same overload (e.g. one per sample or world size)
// as if validated together: a rule takes the first of incorrect, missing,
// correct, unverified that any report gives it, with that report's
// evidence. Counts, seconds, samples, notes and warnings add up; errors
// are joined.
OpReport MergeReports(const std::vector<OpReport>& reports);

}  // namespace shrt

#endif  // SHRT_VALIDATE_H_
