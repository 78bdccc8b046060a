// Strategies for the discrete Fourier transforms ATen's torch.fft
// functions call: _fft_r2c (real to complex, the last transformed dim
// halved when onesided), _fft_c2c and _fft_c2r (complex to real, the last
// transformed dim restored to last_dim_size).
//
// Each is a separate transform of every 1-D (or N-D) slice along `dim`, so
// a dim not transformed shards through mathematically: S(d) -> S(d), d not
// in dim. But MKL rejects a transform of an empty batch ("Intel oneMKL DFTI
// ERROR: Inconsistent configuration parameters"), and torch.chunk leaves
// some rank an empty chunk of every dim at some world size (n < W, or 6 at
// W = 4): not claimed (the specs explain them where they hold). A
// transformed dim never shards (every output frequency reads every input
// sample of the slice). The transforms are linear over the reals (the
// normalization a fixed scale), so P(sum) and P(avg) pass through; they
// are neither monotone nor multiplicative. DTensor (torch/distributed/
// tensor/_ops/_tensor_ops.py fft_single_dim_strategy) claims the shard
// rules and _pass_through_partials (P(sum|avg|max|min)).
#include <vector>

#include "shrt/strategies/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

using P = Placement;

absl::StatusOr<std::vector<Rule>> FftRules(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() != 1 || args.outputs().size() != 1) return rules.Take();
  for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kAvg}) rules.Add({P::Partial(op)}, {P::Partial(op)});
  return rules.Take();
}

SHRT_REGISTER_STRATEGY("aten::_fft_r2c", FftRules);
SHRT_REGISTER_STRATEGY("aten::_fft_c2c", FftRules);
SHRT_REGISTER_STRATEGY("aten::_fft_c2r", FftRules);

}  // namespace
}  // namespace shrt
