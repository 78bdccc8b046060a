// The report of one overload's validation (validate.h), and helpers to
// merge the reports of one overload (per sample, per world size).
#ifndef SHRT_ENGINE_OP_REPORT_H_
#define SHRT_ENGINE_OP_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "shrt/engine/nd_verdicts.h"
#include "shrt/engine/verdicts.h"

namespace shrt {

struct SampleSummary {
  std::string name;
  std::string description;  // "self=Float[8, 16], other=Float[16]"
};

struct OpReport {
  std::string op;          // canonical overload, "aten::mul.Tensor"
  std::string spec_path;
  int world_size = 0;
  // The N-D mesh validated on ("2x2", mesh.h MeshShape::ToString), or ""
  // for the 1-D mesh of world_size; world_size is then its rank count.
  std::string mesh;
  std::vector<SampleSummary> samples;
  std::vector<std::string> recipes;  // recipes used, e.g. "default"
  // (sample, generator, input placements, output placements) verdicts
  // evaluated; a combination already refuted by an earlier generator is not
  // evaluated again.
  int64_t combination_checks = 0;
  // Wall time of this overload, seconds; with --dtensor, the time DTensor
  // took to answer for its samples included (DTensorClaims::AskSeconds).
  double seconds = 0;
  // The operator calls the validation made (full inputs, float64
  // references and every rank's locals alike) and their wall time, seconds,
  // part of `seconds`: set by ValidateIsolated from its worker
  // (isolation.h TaskOutcome), 0 for a validation run in-process. Not part
  // of the wire form: the parent sets them.
  int64_t operator_calls = 0;
  double operator_seconds = 0;
  // In report order (verdicts.h InReportOrder). Empty on an N-D mesh.
  std::vector<RuleVerdict> rules;
  // On an N-D mesh: the verdicts of the expanded rules, in report order
  // (nd_verdicts.h).
  std::vector<NdRuleVerdict> nd_rules;
  // Non-empty when the strategy broke its contract (registry.h), or when an
  // in-place or out= variant rejects every sample of its group's spec: the
  // op cannot be certified and counts as failing.
  std::string error;
  // Findings that are not rule verdicts: each sample an in-place or out=
  // variant rejects on full inputs, with the operator's error ("sample
  // broadcast_row: aten::add_.Tensor rejects the full inputs: ..."). Such a
  // sample is not applicable to that overload. Also a sample with list
  // elements judged whole, with why (list_elements.h), and the notes of a
  // rule source (DTensor's).
  std::vector<std::string> notes;
  // The samples the overload rejects (each with its note above).
  int rejected_samples = 0;
  // Per sample not checked in full, what was checked: on an N-D mesh, an
  // expansion checked on a subset (limits.h kMaxNdRules); a sample skipped
  // (ValidateOptions::skip).
  std::vector<std::string> sampled;
  // c10 warnings (TORCH_WARN) the operator raised during the run: how many,
  // and the first one's text. They are collected here instead of reaching
  // stderr. TORCH_WARN_ONCE warns at every call too (torch_runtime.h), so
  // the count grows with the calls and never depends on what ran before.
  int64_t warning_count = 0;
  std::string first_warning;
  // With ValidateClaims (validate.h) for a strategy table: one verdict per
  // table rule (VerdictBook::Origins), and what each is, for reports: its
  // placements text as written and its condition (set by the caller).
  std::vector<OriginVerdict> origins;
  struct Declaration {
    std::string placements;
    std::string condition;
  };
  std::vector<Declaration> declarations;
  // The operator calls that crashed (ground_truth.h CaseCrash), over all
  // samples: the overload's verdict is *crashed* when one is not explained
  // by its spec (UnexplainedCrashes, validate.h).
  std::vector<CaseCrash> crashes;
  // The command that reproduces this report, when the caller knows a more
  // precise one than ReproCommand(op, world_size) (report.h).
  std::string repro;

  // Rules (1-D or N-D) with verdict v.
  int Count(Verdict v) const;
  // N-D rules that are composition failures (nd_verdicts.h).
  int CompositionFailures() const;
};

// "" unless every sample of `report` was rejected by its in-place or out=
// variant (OpReport::rejected_samples); then the error that says so. ValidateOp sets
// it when it validates every sample; callers that merge per-sample reports
// check the merged report.
std::string RejectsEverySample(const OpReport& report);

// The wire form of a report (op_report.proto), for crash isolation
// (isolation.h): ParseOpReport(SerializeOpReport(r)) equals r.
// ParseOpReport errors: Internal when the bytes or a rule do not parse.
std::string SerializeOpReport(const OpReport& report);
absl::StatusOr<OpReport> ParseOpReport(absl::string_view bytes);

// Merges reports of the same overload (e.g. one per sample or world size)
// as if validated together: a rule's verdicts combine as CombineVerdicts
// (verdicts.h) combines them. Counts, seconds, samples, notes and warnings add up; errors
// are joined; crashes add up.
OpReport MergeReports(const std::vector<OpReport>& reports);

}  // namespace shrt

#endif  // SHRT_ENGINE_OP_REPORT_H_
