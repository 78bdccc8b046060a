// The validation pipeline for one overload (DESIGN.md §6):
//   spec -> enumerate cases (cases.h) -> ground truth (ground_truth.h)
//   -> query strategy -> verdicts (verdicts.h) -> report (op_report.h).
// Sample by sample: each expansion of each spec sample gets its ground
// truth, the strategy's claims for that sample's metadata, and their
// verdicts; the report merges them over samples.
#ifndef SHRT_ENGINE_VALIDATE_H_
#define SHRT_ENGINE_VALIDATE_H_

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "shrt/engine/ground_truth.h"
#include "shrt/engine/isolation.h"
#include "shrt/engine/op_report.h"
#include "shrt/engine/spec_loader.h"
#include "shrt/engine/verdicts.h"
#include "shrt/ops/op_args.h"
#include "shrt/vocab/mesh.h"
#include "shrt/vocab/placement.h"

namespace shrt {

struct ValidateOptions : TruthOptions {
  // When non-empty, only the spec's samples with these names (each with
  // all its sweep expansions) are validated.
  std::vector<std::string> samples;
  // Bound samples (by name, "<name>[dim=0]" for a sweep) that are not
  // validated, each with why: a note of the report (OpReport::sampled),
  // e.g. one DTensor was not asked about (tools/dtensor/ask_dtensor.h).
  std::map<std::string, std::string> skip;
};

// The rules a strategy claims for one sample's metadata. Errors are the
// strategy's (e.g. FailedPrecondition from StrategyRegistry::Query).
using RuleSource = std::function<absl::StatusOr<std::vector<Rule>>(const OpArgs&)>;

// The claims for one sample's metadata at a world size. InvalidArgument
// means bad input (a strategy table rule that cannot be evaluated for the
// sample, table.h), any other error a broken strategy.
using ClaimSource =
    std::function<absl::StatusOr<std::vector<ClaimedRule>>(const OpArgs&, int world_size)>;

// Validates `claimed` against ground truth on every sample of `spec`.
// Errors: as GroundTruth (ground_truth.h): InvalidArgument
// "<path>:<line>: ..." when a sample does not bind to the schema or the
// operator rejects a sample's full inputs (for an in-place or out= variant,
// spec.is_variant(), that is a note of the report instead, and an error of
// the report if no sample applies); InvalidArgument for options out of
// range (world size, redraws); the claims' InvalidArgument, with the
// sample named. Any other error of the claims (a broken strategy) is the
// report's `error`, not a Status.
absl::StatusOr<OpReport> ValidateOp(const LoadedSpec& spec, const RuleSource& claimed,
                                    const ValidateOptions& options);

// As ValidateOp, for claims with origins (declarations, e.g. strategy-table
// rules) in [0, num_origins): the report also carries one OriginVerdict per
// origin.
absl::StatusOr<OpReport> ValidateClaims(const LoadedSpec& spec, const ClaimSource& claimed,
                                        int num_origins, const ValidateOptions& options);

// The N-D rules to check for one sample's metadata on a mesh, and what each
// is to the strategy (nd_verdicts.h NdClaim). Errors as ClaimSource's.
using NdClaimSource = std::function<absl::StatusOr<NdClaims>(const OpArgs&)>;

// The expansion of `claimed`'s single-dim rules to `mesh` (expand.h:
// DTensor's expand_to_full_mesh_op_strategy): the kept rules, and the
// filtered ones with why; a subset past limits.h kMaxNdRules (noted).
NdClaimSource ExpandedClaims(const RuleSource& claimed, const MeshShape& mesh);

// Validates `claimed` (e.g. ExpandedClaims) against N-D ground truth
// (nd_truth.h) on `mesh` on every sample of `spec`: the report's nd_rules
// (nd_verdicts.h), with `mesh` and world_size = mesh.size() set
// (options.world_size is not used); a sample whose expansion was checked
// on a subset adds a note to OpReport::sampled. Errors: as ValidateOp.
absl::StatusOr<OpReport> ValidateOnMesh(const LoadedSpec& spec, const NdClaimSource& claimed,
                                        const MeshShape& mesh, const ValidateOptions& options);

// True if `entry` applies at `world_size` (its world_sizes, or every one).
bool CrashApplies(const KnownCrash& entry, int world_size);

// The crashes of `crashes` (e.g. OpReport::crashes, found at `world_size`)
// that no `crash` entry of `spec` applying there explains (spec.proto
// KnownCrash: the same input placements), in order. A crash on an N-D mesh
// (inputs "[S(0), R], [R, R]") is explained by an entry, at any world size,
// for its inputs' placements on one of the mesh dims. A crash on the full
// inputs is never explained. A non-empty result makes the overload
// *crashed*: a failure, like an incorrect rule.
std::vector<CaseCrash> UnexplainedCrashes(const LoadedSpec& spec,
                                          const std::vector<CaseCrash>& crashes, int world_size);

// Runs `validate(i)` for i in [0, n) in crash-isolated worker processes
// (isolation.h) and returns their results in order: a crashing operator
// call becomes a CaseCrash of its report, and the rest of the validation
// still runs. A validation that cannot finish (isolation.h TaskOutcome:
// e.g. more crashes than options.max_crashes, or a worker that died
// outside any operator call) gives the report `unfinished(i)` (the
// overload, spec path, world size and repro command of task i) with an
// error that says why, and its crashes. The caller must be single-threaded.
// Errors: as RunIsolated (Internal when fork, a pipe or a mapping fails).
absl::StatusOr<std::vector<absl::StatusOr<OpReport>>> ValidateIsolated(
    int n, const std::function<absl::StatusOr<OpReport>(int)>& validate,
    const std::function<OpReport(int)>& unfinished, const IsolationOptions& options,
    const std::function<void(int)>& done = {});

}  // namespace shrt

#endif  // SHRT_ENGINE_VALIDATE_H_
