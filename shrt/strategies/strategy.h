// The signature of a single-dim strategy.
//
// A strategy is the function registered for one overload that returns the
// rules under which every rank can run the operator on its local tensors
// with no communication (DESIGN.md §1, §5). It sees only argument metadata
// (op_args.h), like a DTensor single-dim strategy sees an OpSchema.
//
// Contract (checked by StrategyRegistry::Query):
//   - each rule has one placement per flattened tensor input and output;
//   - Shard dims may be negative (shard placeholders, counted from the end)
//     and must lie within the tensor's rank;
//   - the all-Replicate rule is implicit and must not be listed;
//   - a rule appears at most once.
#ifndef SHRT_STRATEGIES_STRATEGY_H_
#define SHRT_STRATEGIES_STRATEGY_H_

#include <functional>
#include <vector>

#include "absl/status/statusor.h"
#include "shrt/ops/op_args.h"
#include "shrt/vocab/placement.h"

namespace shrt {

// Returns the rules for `args`, or an error when the strategy cannot
// answer (e.g. a malformed rule table: InvalidArgument).
using Strategy = std::function<absl::StatusOr<std::vector<Rule>>(const OpArgs& args)>;

}  // namespace shrt

#endif  // SHRT_STRATEGIES_STRATEGY_H_
