// The repository's own recipes and specs, which some fuzz targets need
// around the text they fuzz (a spec names recipes; a table's conditions
// are evaluated on real samples). Fuzz targets run with the workspace's
// runfiles as the working directory (short_fuzz_test.sh,
// tools/fuzz/run_fuzzers.sh). Each is loaded once; a missing or broken
// file aborts, since no input could be judged without it.
#ifndef SHRT_FUZZ_REPO_DATA_H_
#define SHRT_FUZZ_REPO_DATA_H_

#include <memory>

#include "ATen/core/operator_name.h"
#include "shrt/ops/op_args.h"
#include "shrt/spec/recipes.h"

namespace shrt::fuzz {

// op_specs/recipes/.
std::shared_ptr<const RecipeSet> RepoRecipes();

// What a strategy sees for the first sample of `op`'s spec in op_specs/ or
// tables/specs/ (inputs of zeros, outputs from one call on them), or
// nullptr when `op` has no spec or that call fails. Computed once per
// overload.
const OpArgs* RepoSampleArgs(const c10::OperatorName& op);

}  // namespace shrt::fuzz

#endif  // SHRT_FUZZ_REPO_DATA_H_
