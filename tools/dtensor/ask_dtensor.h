// Asking the installed torch's DTensor about every sample of a run
// (`validate --dtensor`, DESIGN.md §11): the one place that turns specs
// into DTensor's claims before their validation.
#ifndef TOOLS_DTENSOR_ASK_DTENSOR_H_
#define TOOLS_DTENSOR_ASK_DTENSOR_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "shrt/engine/ground_truth.h"
#include "shrt/engine/isolation.h"
#include "shrt/engine/spec_loader.h"
#include "shrt/vocab/mesh.h"
#include "tools/dtensor/dtensor_claims.h"

namespace shrt {

// The most input tuples (the product of every tensor's candidate
// placements, out= tensors included) DTensor is asked about per sample: a
// sample with more is not validated (DTensorClaims::Unasked), as asking
// takes about 0.7 ms per tuple (BENCHMARKS.md). For a single-dim
// registration whose rules leave out the tuples it cannot claim (each a
// table lookup: runtime_claims.py prunes_by_rules) only those it could
// claim are asked, and the limit counts those, for a sample of at most
// 262,144 tuples (export_claims.py _MAX_ENUMERATED).
inline constexpr int kMaxTuplesAsked = 20000;

// The same limit for an overload DTensor shards through its decomposition:
// each input tuple is traced through the decomposition on meta tensors
// (runtime_claims.py _TracedInputs), about 2 ms, and the few that trace are
// then asked, each through DTensor's expansion and selection over every
// candidate (tens of ms). 300 leaves out 671 of 2,818 such samples at
// W = 4, mostly of out= and backward overloads of losses and of
// three-tensor ops, and leaves 68 of the 413 such overloads with no sample
// asked (BENCHMARKS.md).
inline constexpr int kMaxDecompositionTuplesAsked = 300;

// How to ask DTensor.
struct DTensorAsk {
  // The Python program that answers (export_claims.py; DTensorClaims::Export
  // runs it under the interpreter of the torch ShRT is built against).
  std::string program;
  // Custom-op libraries the run loaded (--load), which the program loads
  // too, and Python files it runs first to register DTensor strategies
  // (--dtensor_rules); both as absolute paths in the request.
  std::vector<std::string> libraries;
  std::vector<std::string> rule_modules;
  // An N-D mesh to ask about instead of the 1-D mesh of the options'
  // world size (N-D rules: DTensorClaims::NdRules).
  std::optional<MeshShape> mesh;
  // Also list every overload DTensor registers a rule for
  // (DTensorClaims::Registered), for `--all`.
  bool list_registered = false;
};

// DTensor's claims on ask.mesh, else at options.world_size, for every
// sample of `specs`: each
// spec's samples' OpArgs (SampleOpArgs, ground truth's seed in `options`)
// found in crash-isolated workers (`isolation`: jobs, call time limit), so
// that an operator that crashes leaves its overload unasked (its
// validation then reports the crash) and a spec that does not bind is
// left to its validation's error; then asked of ask.program
// (export_claims.py) in isolation.jobs processes (DTensorClaims::Export),
// at most kMaxTuplesAsked input tuples per sample.
// The caller must be single-threaded (RunIsolated). Errors: RunIsolated's
// and Export's.
absl::StatusOr<DTensorClaims> AskDTensor(const DTensorAsk& ask,
                                         const std::vector<const LoadedSpec*>& specs,
                                         const TruthOptions& options,
                                         const IsolationOptions& isolation);

}  // namespace shrt

#endif  // TOOLS_DTENSOR_ASK_DTENSOR_H_
