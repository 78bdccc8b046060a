// Strategies for pooling ops: avg / max pools over k = 1, 2, 3 trailing
// spatial dims, their adaptive and fractional forms, the max pools that
// also return indices, and the backward and inverse pools (PlaneRules). Input is [N, C, *spatial] (batched) or [C, *spatial]
// (unbatched); every output keeps the leading dims and pools each
// (sample, channel) plane on its own.
//
// Shard rules. Each output plane depends only on the same input plane, so a
// leading (batch or channel) dim shards through: S(d) -> S(d) on every
// output, indices included - max_pool*_with_indices and adaptive_max_pool*
// return indices into the flattened spatial plane of their own (sample,
// channel), which sharding a leading dim does not change (DTensor shards
// batch and channel the same way for convolution-like ops; it has no
// pooling strategy in torch/distributed/tensor/_ops/). A spatial dim never
// shards: windows straddle chunk boundaries, an adaptive pool's window
// bounds come from the global size (output_size stays global on every
// rank), and indices would count from the chunk's start.
// But torch.chunk leaves a rank with an EMPTY chunk at some world size for
// every dim size (n < W, or n = 5 at W = 4), and the libtorch 1.13 CPU
// kernels reject empty dims except the ones below, so only those rules
// are claimed (a strategy does not see W):
//   avg_pool{1,2,3}d, max_pool{1,2,3}d, max_pool{1,2,3}d_with_indices: only
//     the batch dim N of a batched input ("Expected 3D or 4D (batch mode)
//     tensor with optional 0 dim batch size", aten/src/ATen/native/Pool.h);
//     the channel dim C (batched dim 1, unbatched dim 0) may not be empty.
//   adaptive_max_pool{1,2,3}d, _adaptive_avg_pool3d: dim 0 in either layout
//     (their checks skip dim 0 only).
//   adaptive_avg_pool1d, adaptive_avg_pool2d, _adaptive_avg_pool2d: every
//     leading dim (only the spatial dims must be non-empty).
//   adaptive_avg_pool3d: dim 0. With output_size all 1 the functional
//     overload is input.mean(spatial dims, keepdim) (its composite kernel),
//     which accepts an empty C too, but adaptive_avg_pool3d.out always runs
//     the _adaptive_avg_pool3d kernel, which does not, and out= variants
//     get the functional's rules: not claimed (the spec explains it).
// Channel shards hold at world sizes where no chunk is empty; the specs
// explain them as missing there.
//
// Partial rules (values on every rank R otherwise):
//   avg pools (plain and adaptive) are linear maps of the input: each
//     output is sum_i w_i x_i with weights fixed by the shapes and
//     arguments - 1 / window size, 1 / count of non-padding elements
//     (count_include_pad = false), or 1 / divisor_override; zero padding
//     adds 0. So P(sum) -> P(sum) and P(avg) -> P(avg) (mean over ranks of
//     a linear map is the map of the mean), as DTensor's linearity rules for
//     linear pointwise ops. Floating dtypes only: an integer avg pool
//     divides with truncation, which is not additive.
//     Not P(max)/P(min): a mean of maxima is not the maximum of means.
//   max pools are max over a window, and max commutes with max:
//     max_w max_r p_r = max_r max_w p_r, padding being ignored (-inf). So
//     P(max) -> P(max) for the one-output max_pool{1,2,3}d. Not P(min)
//     (max of minima is not the minimum of maxima) nor P(sum).
//     The indices of *_with_indices and adaptive_max_pool* are where each
//     rank's own part attains its maximum, which differs across ranks and
//     no reduction recovers the global argmax: no Partial rule at all for
//     these two-output ops (the values alone would be P(max)).
#include <vector>

#include "shrt/strategies/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

const Placement kSum = Placement::Partial(ReduceOp::kSum);
const Placement kAvg = Placement::Partial(ReduceOp::kAvg);
const Placement kMax = Placement::Partial(ReduceOp::kMax);

// What the pool computes: a linear map (avg), a window max with one output,
// or a window max with its indices (no Partial rule).
enum class Kind { kLinear, kMax, kWithIndices };

// Which leading dims the libtorch 1.13 kernel accepts empty (see header).
enum class EmptyOk {
  kBatchOnly,        // dim 0 of a batched input
  kDimZero,          // dim 0 in either layout
  kAllLeading  // every leading dim
};

std::vector<Rule> PoolRules(const OpArgs& args, int spatial, Kind kind, EmptyOk empty_ok) {
  RuleSet rules(args);
  const TensorMeta& x = args.inputs()[0];
  const int64_t lead = x.ndim() - spatial;  // 2 batched, 1 unbatched
  const size_t nout = args.outputs().size();
  int64_t shardable = 0;  // leading dims [0, shardable) shard through
  switch (empty_ok) {
    case EmptyOk::kBatchOnly:
      shardable = lead == 2 ? 1 : 0;
      break;
    case EmptyOk::kDimZero:
      shardable = lead >= 1 ? 1 : 0;
      break;
    case EmptyOk::kAllLeading:
      shardable = lead;
      break;
  }
  for (int64_t d = 0; d < shardable; ++d) {
    const Placement s = Placement::Shard(d);
    rules.Add({s}, std::vector<Placement>(nout, s));
  }
  if (kind == Kind::kLinear && c10::isFloatingType(x.dtype)) {
    rules.Add({kSum}, {kSum});
    rules.Add({kAvg}, {kAvg});
  }
  if (kind == Kind::kMax) rules.Add({kMax}, {kMax});
  return rules.Take();
}

template <int kSpatial, Kind kKind, EmptyOk kEmptyOk>
absl::StatusOr<std::vector<Rule>> Pool(const OpArgs& args) {
  return PoolRules(args, kSpatial, kKind, kEmptyOk);
}

// Backward and inverse pools of batched [N, C, *spatial] tensors: each
// (sample, channel) plane on its own, so dim 0 shards every tensor input
// and the output alike. The channel dim would too, but these kernels reject
// an empty channel chunk ("Expected grad_output to have non-zero size for
// non-batch dimensions"), which every channel count leaves at some world
// size: not claimed (the specs explain it where it holds).
//   max_pool2d_with_indices_backward(grad_output, self, ..., indices) adds
//     grad_output up at the indices, and _adaptive_avg_pool2d_backward
//     (grad_output, self) spreads it evenly: linear in grad_output, the
//     other inputs R; self is read for its shape alone, so it may be R or
//     any Partial beside any of these rules.
//   max_unpool{2,3}d(self, indices, output_size, ...) writes self's values
//     at the indices into zeros: every Partial of self passes (indices R;
//     the zeros are a P(op) of 0 for every op).
// `shape_only`: the input read for its shape alone (the backwards' self),
// which may then be R or any Partial; -1 for none.
std::vector<Rule> PlaneRules(const OpArgs& args, bool copies, int shape_only) {
  RuleSet rules(args);
  const size_t n = args.inputs().size();
  if (n == 0 || args.outputs().size() != 1) return rules.Take();
  auto add = [&](std::vector<Placement> in, Placement out) {
    rules.Add(in, {out});
    if (shape_only < 0 || static_cast<size_t>(shape_only) >= n || !in[shape_only].is_replicate()) {
      return;
    }
    for (ReduceOp op : kAllReduceOps) {
      in[shape_only] = Placement::Partial(op);
      rules.Add(in, {out});
    }
  };
  add(std::vector<Placement>(n, Placement::Shard(0)), Placement::Shard(0));
  add(std::vector<Placement>(n, Placement::Replicate()), Placement::Replicate());
  for (ReduceOp op : kAllReduceOps) {
    if (!copies && op != ReduceOp::kSum && op != ReduceOp::kAvg) continue;
    std::vector<Placement> in(n, Placement::Replicate());
    in[0] = Placement::Partial(op);
    add(std::move(in), Placement::Partial(op));
  }
  return rules.Take();
}

// max_pool2d_with_indices_backward(grad_output, self, ..., indices) and
// _adaptive_avg_pool2d_backward(grad_output, self) read self for its shape.
absl::StatusOr<std::vector<Rule>> PlaneBackward(const OpArgs& args) {
  return PlaneRules(args, /*copies=*/false, /*shape_only=*/1);
}
absl::StatusOr<std::vector<Rule>> Unpool(const OpArgs& args) {
  return PlaneRules(args, /*copies=*/true, /*shape_only=*/-1);
}

// fractional_max_pool{2,3}d(self, kernel_size, output_size, random_samples)
// is a max pool with indices whose windows start at offsets drawn per
// (sample, channel) plane from random_samples [N, C, k] (the CPU kernels'
// randomSamples[batch][plane]; [1, C, k] for an unbatched self): the
// samples shard with a batched self's batch dim, and the kernels reject an
// empty channel or spatial dim as the max pools do, so only the batch dim
// of a batched self is claimed. No Partial rule (indices, see the header).
template <int kSpatial>
absl::StatusOr<std::vector<Rule>> FractionalPool(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() != 2 || args.inputs()[0].ndim() != kSpatial + 2) return rules.Take();
  const Placement s = Placement::Shard(0);
  rules.Add({s, s}, {s, s});
  return rules.Take();
}

constexpr Kind kLin = Kind::kLinear;
constexpr Kind kMx = Kind::kMax;
constexpr Kind kIdx = Kind::kWithIndices;
constexpr EmptyOk kBatch = EmptyOk::kBatchOnly;
constexpr EmptyOk kDim0 = EmptyOk::kDimZero;
constexpr EmptyOk kAll = EmptyOk::kAllLeading;

SHRT_REGISTER_STRATEGY("aten::avg_pool1d", (Pool<1, kLin, kBatch>));
SHRT_REGISTER_STRATEGY("aten::avg_pool2d", (Pool<2, kLin, kBatch>));
SHRT_REGISTER_STRATEGY("aten::avg_pool3d", (Pool<3, kLin, kBatch>));
SHRT_REGISTER_STRATEGY("aten::adaptive_avg_pool1d", (Pool<1, kLin, kAll>));
SHRT_REGISTER_STRATEGY("aten::adaptive_avg_pool2d", (Pool<2, kLin, kAll>));
SHRT_REGISTER_STRATEGY("aten::_adaptive_avg_pool2d", (Pool<2, kLin, kAll>));
SHRT_REGISTER_STRATEGY("aten::adaptive_avg_pool3d", (Pool<3, kLin, kDim0>));
SHRT_REGISTER_STRATEGY("aten::_adaptive_avg_pool3d", (Pool<3, kLin, kDim0>));
SHRT_REGISTER_STRATEGY("aten::max_pool1d", (Pool<1, kMx, kBatch>));
SHRT_REGISTER_STRATEGY("aten::max_pool2d", (Pool<2, kMx, kBatch>));
SHRT_REGISTER_STRATEGY("aten::max_pool3d", (Pool<3, kMx, kBatch>));
SHRT_REGISTER_STRATEGY("aten::max_pool1d_with_indices", (Pool<1, kIdx, kBatch>));
SHRT_REGISTER_STRATEGY("aten::max_pool2d_with_indices", (Pool<2, kIdx, kBatch>));
SHRT_REGISTER_STRATEGY("aten::max_pool3d_with_indices", (Pool<3, kIdx, kBatch>));
SHRT_REGISTER_STRATEGY("aten::adaptive_max_pool1d", (Pool<1, kIdx, kDim0>));
SHRT_REGISTER_STRATEGY("aten::adaptive_max_pool2d", (Pool<2, kIdx, kDim0>));
SHRT_REGISTER_STRATEGY("aten::adaptive_max_pool3d", (Pool<3, kIdx, kDim0>));
SHRT_REGISTER_STRATEGY("aten::fractional_max_pool2d", FractionalPool<2>);
SHRT_REGISTER_STRATEGY("aten::fractional_max_pool3d", FractionalPool<3>);
SHRT_REGISTER_STRATEGY("aten::max_pool2d_with_indices_backward", PlaneBackward);
SHRT_REGISTER_STRATEGY("aten::_adaptive_avg_pool2d_backward", PlaneBackward);
SHRT_REGISTER_STRATEGY("aten::max_unpool2d", Unpool);
SHRT_REGISTER_STRATEGY("aten::max_unpool3d", Unpool);

}  // namespace
}  // namespace shrt
