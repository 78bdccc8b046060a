// The metadata a strategy sees for each sample of a spec (OpArgs), found
// without ground truth. For claim sources that must be asked before a
// validation runs: DTensor's rules are exported by a separate Python
// process for every sample at once (tools/dtensor/, DESIGN.md §11), and
// ground truth later passes the same OpArgs to the claims (ValidateClaims).
#ifndef SHRT_ENGINE_SAMPLE_ARGS_H_
#define SHRT_ENGINE_SAMPLE_ARGS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "shrt/engine/ground_truth.h"
#include "shrt/engine/spec_loader.h"
#include "shrt/ops/op_args.h"

namespace shrt {

// One bound sample's name ("<name>[dim=0]" for a sweep) and its OpArgs.
struct NamedOpArgs {
  std::string sample;
  OpArgs args;
};

// For every bound sample of `spec` (BoundSample::BindAll, in order), the
// OpArgs ground truth gives its claims (SampleTruth::args()): its outputs
// are those of the first generator's call on the full inputs that the
// operator accepts, made as ground truth makes it (CaseMaker, `options`'
// seed), so they are equal. A sample the operator rejects or crashes on
// under every generator has no claims to ask for and is left out (its
// validation reports it). Operator calls go through BeginOperatorCall
// (isolation.h): run it in RunIsolated. Errors: BindAll's and CaseMaker's
// InvalidArgument "<path>:<line>: ..." for a bad sample.
absl::StatusOr<std::vector<NamedOpArgs>> SampleOpArgs(const LoadedSpec& spec,
                                                      const TruthOptions& options);

}  // namespace shrt

#endif  // SHRT_ENGINE_SAMPLE_ARGS_H_
