// Strategies for interpolation: the upsample family (nearest, linear,
// bilinear, bicubic, trilinear, and the anti-aliased _aa ones) with their
// backwards, and grid_sampler_{2,3}d.
//
// upsample_*(self [N, C, *spatial], output_size, ...) resamples each
// (sample, channel) plane on its own, so the leading dims shard through
// and a spatial dim never does (an output position reads input positions
// on both sides of a chunk boundary). But a rank with an empty channel
// chunk raises ("Non-empty 4D data tensor expected",
// aten/src/ATen/native/UpSample.h upsample_2d_common_check), and every
// channel count leaves an empty chunk at some world size (C < W, or C = 6
// at W = 4): only S(0) -> S(0) is claimed; the specs explain S(1) where it
// holds. An empty batch chunk is accepted.
// Each output is a fixed linear combination of input values (the weights
// come from the sizes, scales and align_corners alone), so P(sum) and
// P(avg) pass through; the nearest modes (nearest, _nearest_exact) copy
// one input value per output, so every Partial passes through
// (IdentityRules). DTensor claims the shard rules on dims 0 and 1 and
// P(sum), P(avg) for all of them (torch/distributed/tensor/_ops/
// _math_ops.py interp_upsample_1out_1in_strategy).
//
// upsample_*_backward(grad_output, output_size, input_size, ...) is the
// adjoint map (a scatter-add of grad_output), linear in grad_output: S(0)
// and S(1) shard through (an empty channel chunk is accepted), P(sum) and
// P(avg) pass through; each rank passes its own input_size (the spec's
// local_shape_arg, as DTensor rewrites it).
//
// grid_sampler_{2,3}d(input [N, C, *in], grid [N, *out, k]) -> [N, C, *out]
// reads input[n, c] at the positions grid[n, *out]: batch shards both,
// a channel shard of input with grid R gives a channel shard, a shard of
// grid on an output spatial dim (grid dim 1 + i) with input R gives the
// output's dim 2 + i. Linear in input for every mode and padding (a
// padded position reads 0, or a border or reflected value): P(sum),
// P(avg) with grid R; in nearest mode (interpolation_mode 1) a copy, so
// every Partial. Not linear in grid.
//
// grid_sampler_{2,3}d_backward(grad_output, input, grid, ...) ->
// (grad_input, grad_grid): grad_input scatters grad_output into input's
// positions (linear in grad_output, not reading input); grad_grid sums over
// channels grad_output times input's slope at each grid position (linear in
// grad_output and in input). So: batch shards all; a channel shard of
// grad_output and input (grid R) gives grad_input S(1) and grad_grid the
// sum over channels, P(sum); a shard of an output spatial dim (grad_output
// dim 2 + i, grid dim 1 + i, input R) gives grad_input the sum over those
// positions, P(sum), and grad_grid S(1 + i); P(sum|avg) of grad_output (the
// rest R) gives both P(sum|avg); of input, grad_input R and grad_grid
// P(sum|avg).
#include <vector>

#include "shrt/strategies/pointwise_rules.h"
#include "shrt/strategies/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

using P = Placement;

// Which Partial placements pass through a map linear in its one tensor.
enum class Algebra { kLinear, kCopy };

void AddPartials(RuleSet& rules, Algebra algebra, std::vector<Placement> others) {
  const Rules& partials = algebra == Algebra::kCopy ? IdentityRules() : LinearRules();
  for (const Rule& rule : partials) {
    std::vector<Placement> in = {rule.inputs[0]};
    in.insert(in.end(), others.begin(), others.end());
    rules.Add(std::move(in), rule.outputs);
  }
}

template <Algebra kAlgebra>
absl::StatusOr<std::vector<Rule>> Upsample(const OpArgs& args) {
  RuleSet rules(args);
  rules.Add({P::Shard(0)}, {P::Shard(0)});
  AddPartials(rules, kAlgebra, {});
  return rules.Take();
}

absl::StatusOr<std::vector<Rule>> UpsampleBackward(const OpArgs& args) {
  RuleSet rules(args);
  for (int64_t d : {0, 1}) rules.Add({P::Shard(d)}, {P::Shard(d)});
  AddPartials(rules, Algebra::kLinear, {});
  return rules.Take();
}

absl::StatusOr<std::vector<Rule>> GridSampler(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() != 2) return rules.Take();
  const int64_t grid_ndim = args.inputs()[1].ndim();
  rules.Add({P::Shard(0), P::Shard(0)}, {P::Shard(0)});
  rules.Add({P::Shard(1), P::Replicate()}, {P::Shard(1)});
  for (int64_t d = 1; d + 1 < grid_ndim; ++d) {
    rules.Add({P::Replicate(), P::Shard(d)}, {P::Shard(d + 1)});
  }
  const bool nearest = args.GetInt("interpolation_mode").value_or(0) == 1;
  AddPartials(rules, nearest ? Algebra::kCopy : Algebra::kLinear, {P::Replicate()});
  return rules.Take();
}

absl::StatusOr<std::vector<Rule>> GridSamplerBackward(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() != 3 || args.outputs().size() != 2) return rules.Take();
  const Placement sum = P::Partial(ReduceOp::kSum);
  const int64_t grid_ndim = args.inputs()[2].ndim();
  rules.Add({P::Shard(0), P::Shard(0), P::Shard(0)}, {P::Shard(0), P::Shard(0)});
  rules.Add({P::Shard(1), P::Shard(1), P::Replicate()}, {P::Shard(1), sum});
  for (int64_t d = 1; d + 1 < grid_ndim; ++d) {
    rules.Add({P::Shard(d + 1), P::Replicate(), P::Shard(d)}, {sum, P::Shard(d)});
  }
  for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kAvg}) {
    const Placement p = P::Partial(op);
    rules.Add({p, P::Replicate(), P::Replicate()}, {p, p});
    rules.Add({P::Replicate(), p, P::Replicate()}, {P::Replicate(), p});
  }
  return rules.Take();
}

constexpr auto kNearest = Upsample<Algebra::kCopy>;
constexpr auto kLinear = Upsample<Algebra::kLinear>;

SHRT_REGISTER_STRATEGY("aten::upsample_nearest1d", kNearest);
SHRT_REGISTER_STRATEGY("aten::upsample_nearest2d", kNearest);
SHRT_REGISTER_STRATEGY("aten::upsample_nearest3d", kNearest);
SHRT_REGISTER_STRATEGY("aten::_upsample_nearest_exact1d", kNearest);
SHRT_REGISTER_STRATEGY("aten::_upsample_nearest_exact2d", kNearest);
SHRT_REGISTER_STRATEGY("aten::_upsample_nearest_exact3d", kNearest);
SHRT_REGISTER_STRATEGY("aten::upsample_linear1d", kLinear);
SHRT_REGISTER_STRATEGY("aten::upsample_bilinear2d", kLinear);
SHRT_REGISTER_STRATEGY("aten::upsample_bicubic2d", kLinear);
SHRT_REGISTER_STRATEGY("aten::upsample_trilinear3d", kLinear);
SHRT_REGISTER_STRATEGY("aten::_upsample_bilinear2d_aa", kLinear);
SHRT_REGISTER_STRATEGY("aten::_upsample_bicubic2d_aa", kLinear);
SHRT_REGISTER_STRATEGY("aten::_upsample_lanczos2d_aa", kLinear);
SHRT_REGISTER_STRATEGY("aten::upsample_nearest1d_backward", UpsampleBackward);
SHRT_REGISTER_STRATEGY("aten::upsample_nearest2d_backward", UpsampleBackward);
SHRT_REGISTER_STRATEGY("aten::upsample_nearest3d_backward", UpsampleBackward);
SHRT_REGISTER_STRATEGY("aten::_upsample_nearest_exact1d_backward", UpsampleBackward);
SHRT_REGISTER_STRATEGY("aten::_upsample_nearest_exact2d_backward", UpsampleBackward);
SHRT_REGISTER_STRATEGY("aten::_upsample_nearest_exact3d_backward", UpsampleBackward);
SHRT_REGISTER_STRATEGY("aten::upsample_linear1d_backward", UpsampleBackward);
SHRT_REGISTER_STRATEGY("aten::upsample_bilinear2d_backward", UpsampleBackward);
SHRT_REGISTER_STRATEGY("aten::upsample_bicubic2d_backward", UpsampleBackward);
SHRT_REGISTER_STRATEGY("aten::upsample_trilinear3d_backward", UpsampleBackward);
SHRT_REGISTER_STRATEGY("aten::_upsample_bilinear2d_aa_backward", UpsampleBackward);
SHRT_REGISTER_STRATEGY("aten::_upsample_bicubic2d_aa_backward", UpsampleBackward);
SHRT_REGISTER_STRATEGY("aten::_upsample_lanczos2d_aa_backward", UpsampleBackward);
SHRT_REGISTER_STRATEGY("aten::grid_sampler_2d", GridSampler);
SHRT_REGISTER_STRATEGY("aten::grid_sampler_3d", GridSampler);
SHRT_REGISTER_STRATEGY("aten::grid_sampler_2d_backward", GridSamplerBackward);
SHRT_REGISTER_STRATEGY("aten::grid_sampler_3d_backward", GridSamplerBackward);

}  // namespace
}  // namespace shrt
