// Ground truth of N-D rules (DESIGN.md §9): which of a given list of N-D
// rules hold for one sample on a simulated N-D mesh.
//
// Where the 1-D engine (ground_truth.h) enumerates every tuple of
// placements, an N-D mesh has too many (the square or cube of the 1-D
// count), so this engine is driven by rules: for each generator of the
// sample's recipes the overload runs once on the full inputs and, for every
// distinct tuple of N-D input placements among the rules and every run of
// that tuple (Partial redraws, negation: cases.h PartialVariants), once on
// each of the mesh's ranks with its nested local inputs (nd_layout.h); each
// rule's N-D output placements are then checked against those local
// results (nd_layout.h CheckNdOutput). The unsharded side (inputs,
// references, tolerance) is the 1-D engine's (full_case.h).
//
// On a square 2-D mesh, a rule whose transpose (its two mesh dims swapped)
// is also among the rules, and every tensor of which transposes
// (nd_layout.h TransposesOnSquareMesh: its rank (i, j) holds what the
// transpose's rank (j, i) holds, and is checked alike), makes exactly the
// transpose's calls on the transposed ranks, so its every check is the
// transpose's: the later of the two in rule order is not run, but judged
// with the earlier one (nd_transpose.h TransposeLeaders), run by run, and
// counted in combination_checks as checked. Where the earlier one fails a
// check, the later one's own check of the transposed rank outputs gives it
// its evidence; where a rank
// raises, the transposed rank raises for it. Its verdict and checks are
// those it gets run alone, and so is its evidence, except that where
// several ranks raise it names the transpose of the earlier one's first
// (which rank alone would name first, of those that raise, is not known
// without the calls skipped after it) (NdValidateTest.
// TransposedRulesAreJudgedAsTheyRunAlone).
#ifndef SHRT_ENGINE_ND_TRUTH_H_
#define SHRT_ENGINE_ND_TRUTH_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "shrt/engine/ground_truth.h"
#include "shrt/engine/spec_loader.h"
#include "shrt/ops/op_args.h"
#include "shrt/vocab/mesh.h"
#include "shrt/vocab/nd_rule.h"

namespace shrt {

class BoundSample;

// What ground truth says of one N-D rule on one sample.
struct NdFinding {
  Finding finding = Finding::kNotApplicable;
  // kRefuted: the sample, generator, run, output, rank (i, j) and largest
  // |difference| or the error a rank raised; kNotApplicable and
  // kUninformative: why; kValid: "".
  std::string evidence;
};

// The N-D rules to check for one sample, from its metadata (what a strategy
// sees, BoundSample::MakeOpArgs). An error is the rule source's (a broken
// strategy, a bad table rule).
using NdRuleSource = std::function<absl::StatusOr<std::vector<NdRule>>(const OpArgs&)>;

// The ground truth of the N-D rules of one bound sample.
struct NdSampleTruth {
  std::string name;         // as SampleTruth::name()
  std::string description;  // as SampleTruth::description()
  // As SampleTruth::rejection(): non-empty when the overload (a variant)
  // rejects the full inputs, or every call on them crashed.
  std::string rejection;
  // The rule source's error for this sample, if it failed (then no rule
  // was checked).
  absl::Status source_status;
  // The rules the source gave, and what ground truth says of each.
  std::vector<NdRule> rules;
  std::vector<NdFinding> findings;
  // (generator, N-D rule) verdicts evaluated, per run.
  int64_t combination_checks = 0;
  // Of `rules`, those judged with their transpose instead of running
  // themselves (square 2-D meshes only, see above).
  int transposed = 0;
  std::vector<CaseCrash> crashes;
};

// Runs `sample`, an expansion of sample `s` of `spec`, on `mesh` for the
// rules `source` gives for its metadata. Every rule must have the sample's
// numbers of tensors and mesh.ndim() mesh dims (nd_rule.h CheckNdRule
// holds: the caller checks a table's rules). A rule is kNotApplicable when
// a placement cannot be built for its tensor (a Shard dim past the
// tensor's rank, Partial on bool: candidates.h PlacementApplies), refuted
// when it moves an input written in place or makes an index input Partial.
// Errors: as GroundTruth (ground_truth.h), with options.world_size
// ignored; InvalidArgument for a rule of the wrong shape.
absl::StatusOr<NdSampleTruth> NdGroundTruth(const LoadedSpec& spec, int s,
                                            const BoundSample& sample, const MeshShape& mesh,
                                            const NdRuleSource& source,
                                            const TruthOptions& options);

}  // namespace shrt

#endif  // SHRT_ENGINE_ND_TRUTH_H_
