// Strategies for convolutions: aten::convolution and its composite wrappers
// (_convolution, _convolution_mode, conv1d/2d/3d, conv_transpose1d/2d/3d,
// conv_tbc), the CPU kernels with the same math (thnn_conv2d,
// _slow_conv2d_forward, slow_conv_dilated2d/3d, slow_conv_transpose2d/3d;
// these take a kernel_size argument equal to w's spatial sizes) and
// aten::convolution_backward. Not registered: slow_conv3d and
// slow_conv3d_forward, whose libtorch 1.13 CPU kernel crashes (SIGFPE) on
// the local inputs of some placements (empty chunks).
//
// A convolution is a sum of products, linear in the input x and in the
// weight w, plus a bias b broadcast over the output channels:
//   out[n, co, o] = b[co] + sum_{ci in group(co), k} x[n, ci, pos(o, k)] * w[co, ci', k]
// (transposed: w is [C_in, C_out / groups, *k] and pos runs the other way;
// conv_tbc lays x out as [T, B, C_in], w as [K, C_in, C_out]). Rules, in
// input order (x, w[, b]):
//   - batch: x S(batch), w R, b R -> S(batch): each sample is convolved on
//     its own (DTensor's convolution_rules in
//     torch/distributed/tensor/_ops/_conv_ops.py, the only forward rule
//     DTensor registers). A rank past the end convolves an empty batch,
//     which every kernel accepts except slow_conv_transpose2d/3d ("non-empty
//     3D or 4D input tensor expected"): no batch rule for those two.
//     Unbatched inputs of conv1d/2d/3d ([C, *]) have no batch dim.
//   - channel rules are NOT claimed, although the algebra gives them for
//     groups == 1: x S(C), w S(in-channel dim of w), b P(sum) -> P(sum)
//     (rank r sums the products over its block of input channels; a bias
//     split into P(sum) parts makes sum_r (conv_r + b_r) = conv + b), and
//     x R, w S(out-channel dim of w), b S(0) -> S(C) (output channel co
//     reads only w's slice co and b[co]). libtorch 1.13 breaks both on a
//     rank whose channel chunk is empty, which torch.chunk's layout gives
//     some rank at every world size above the channel count (and at W = 3
//     for 2 or 4 channels): a weight with 0 output channels raises ("expected
//     weight to be at least 1 at dimension 0"; transposed: "non-empty 2D or
//     4D weight tensor expected"), and 0 input channels make the direct
//     convolution return an empty output ([N, 0, *]) instead of zeros. A
//     strategy does not see W, so these rules are explained as missing in
//     the specs where a sample happens to avoid empty chunks. With groups > 1
//     a rank's channel block does not even line up with the groups the local
//     call forms (its groups argument is still `groups`).
//   - linearity: x P(sum), w R, b P(sum) -> P(sum) (without a bias x alone),
//     and the mirror with w; P(avg) the same, with b P(avg) or R (the mean
//     of conv_r + b is conv + b); the bias alone: x R, w R, b P(avg|max|min)
//     -> the same P (a constant plus b_r, reduced by mean/max/min).
//     No P(max|min) rule on x or w: a sum of products of unknown sign is
//     not monotone in either factor.
//   - spatial rules are NOT claimed either. Only a pointwise convolution
//     (every kernel dim 1, stride 1, zero padding and output_padding; a
//     "same" or "valid" padding string is zero padding for a unit kernel)
//     maps a spatial chunk of x (w, b R) to the same chunk of the output;
//     any other kernel/stride/padding needs a halo from the neighbours
//     (DTensor's _tp_conv.py exchanges it with communication). Even the
//     pointwise case fails on a rank whose spatial chunk is empty: libtorch
//     1.13 raises "Kernel size can't be greater than actual input size".
//   - conv_tbc (one matmul per kernel tap, x[t] @ w[k] accumulated into
//     out[t - k + pad]) and slow_conv_dilated2d/3d (im2col + gemm per
//     sample) accept empty channel and spatial chunks, so for them the
//     channel rules above are claimed (groups == 1; conv_tbc has no groups):
//     conv_tbc x S(2), w S(1), b P(sum) -> P(sum) and x R, w S(2), b S(0)
//     -> S(2); slow_conv_dilated x S(1), w S(1), b P(sum) -> P(sum) and
//     x R, w S(0), b S(0) -> S(1); and so is the spatial rule along each
//     pointwise dim (kernel 1, stride 1, padding 0 on that dim; dilation
//     is then irrelevant): positions along it are independent, so
//     x S(d), w R, b R -> S(d) (conv_tbc: time dim 0 with K = 1, pad 0).
//     All three were checked with empty chunks at W = 3, 4 (and 2, 5, 8).
//   - product: when each output element is a single product (no bias, one
//     input channel per group, unit kernel) conv is multiplicative in each
//     factor: P(product), P(product) -> P(product) (zero padding stays 0).
//
// convolution_backward(grad_output g, input x, weight w, ...) returns
// (grad_input, grad_weight, grad_bias):
//   grad_input  = conv_transpose(g, w): linear in g and in w, independent of
//                 x's values (x gives only its shape);
//   grad_weight = correlation of x with g: bilinear, contracting the batch
//                 and spatial positions;
//   grad_bias   = sum of g over batch and spatial dims: linear in g only.
// Rules, inputs (g, x, w) -> (grad_input, grad_weight, grad_bias):
//   - batch: S(0), S(0), R -> S(0), P(sum), P(sum) (DTensor's
//     convolution_backward_rules: the weight and bias gradients are sums
//     over samples, split by rank). Not claimed for a unit kernel (every
//     kernel dim 1): libtorch 1.13's convolution_backward crashes (SIGSEGV)
//     there on a rank whose batch chunk is empty (seen with N = 2, 4 at
//     W = 3 and N = 7 at W = 8);
//   - channels (groups == 1, not claimed, as in the forward: an empty
//     channel chunk of w breaks the local call): C_out: S(1), R, S(out dim
//     of w) -> P(sum), S(out dim), S(0) (grad_input sums over output
//     channels); C_in: R, S(1), S(in dim of w) -> S(1), S(in dim), R
//     (grad_bias does not depend on x or w: every rank computes it whole);
//   - linearity: P(sum|avg), R, R -> P, P, P; R, P, R -> R, P, R (grad_input
//     and grad_bias ignore x's values); R, R, P -> P, R, R; and x, w both
//     partial: R, P, P' -> P', P, R (grad_input sees only w and g,
//     grad_weight only x and g);
//   - an output whose inputs are all replicated in a rule (grad_input
//     when only x is partial, grad_weight when only w is, grad_bias unless
//     g is) is identical on every rank, so besides R it is also P(avg),
//     P(max) and P(min) of itself (mean, max and min of W equal values);
//   - spatial rules are not claimed (as in the forward): only a unit-kernel
//     convolution keeps positions apart, and an empty spatial chunk makes
//     the local call fail.
// The output_mask must be all true: a false entry leaves that output
// undefined, which ShRT rejects.
#include <optional>
#include <utility>
#include <vector>

#include "shrt/strategies/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

// Where the dims of a convolution's tensors are.
struct ConvLayout {
  int64_t x_batch = 0;  // -1 when unbatched
  int64_t x_chan = 1;   // also the output's channel dim
  std::vector<int64_t> x_spatial;
  int64_t w_in = 1;   // weight dim over input channels (per group)
  int64_t w_out = 0;  // weight dim over output channels
  std::vector<int64_t> w_kernel;
};

// [N, C, *sp] / [C, *sp] input with a [C_out, C_in / g, *k] weight (or
// [C_in, C_out / g, *k] when transposed).
ConvLayout ChannelsFirst(const OpArgs& args, bool transposed) {
  const TensorMeta& x = args.inputs()[0];
  const TensorMeta& w = args.inputs()[1];
  ConvLayout l;
  const bool batched = x.ndim() == w.ndim();
  l.x_batch = batched ? 0 : -1;
  l.x_chan = batched ? 1 : 0;
  for (int64_t d = l.x_chan + 1; d < x.ndim(); ++d) l.x_spatial.push_back(d);
  l.w_in = transposed ? 0 : 1;
  l.w_out = transposed ? 1 : 0;
  for (int64_t d = 2; d < w.ndim(); ++d) l.w_kernel.push_back(d);
  return l;
}

// conv_tbc: x [T, B, C_in], w [K, C_in, C_out].
ConvLayout Tbc() {
  ConvLayout l;
  l.x_batch = 1;
  l.x_chan = 2;
  l.x_spatial = {0};
  l.w_in = 1;
  l.w_out = 2;
  l.w_kernel = {0};
  return l;
}

// The forward rules of a convolution with inputs (x, w[, b]).
// What a kernel accepts on a rank with an empty chunk.
struct Kernel {
  bool empty_batch_ok = true;      // slow_conv_transpose2d/3d raise
  bool empty_channels_ok = false;  // conv_tbc, slow_conv_dilated2d/3d
  bool empty_spatial_ok = false;   // conv_tbc, slow_conv_dilated2d/3d
};
constexpr Kernel kConvolution{};
constexpr Kernel kNoEmptyBatch{false, false, false};
constexpr Kernel kEmptyOk{true, true, true};

// Whether spatial dim i (0-based among the spatial dims) is pointwise:
// kernel 1, stride 1, zero padding (dilation is then irrelevant).
bool PointwiseDim(const OpArgs& args, const ConvLayout& l, size_t i) {
  if (args.inputs()[1].sizes[l.w_kernel[i]] != 1) return false;
  auto at = [&](const char* name, int64_t fallback) {
    const std::optional<std::vector<int64_t>> v = args.GetIntList(name);
    if (!v || v->empty()) return fallback;
    return v->size() == 1 ? (*v)[0] : (i < v->size() ? (*v)[i] : fallback);
  };
  if (at("stride", 1) != 1) return false;
  if (at("padding", 0) != 0) return false;
  if (args.GetInt("pad").value_or(0) != 0) return false;  // conv_tbc
  return true;
}

std::vector<Rule> ConvForward(const OpArgs& args, const ConvLayout& l, const Kernel& kernel = kConvolution) {
  const bool has_bias = args.inputs().size() == 3;
  const int64_t groups = args.GetInt("groups").value_or(1);
  const Placement r = Placement::Replicate();
  const Placement sum = Placement::Partial(ReduceOp::kSum);
  const Placement avg = Placement::Partial(ReduceOp::kAvg);
  RuleSet rules(args);
  auto add = [&](const Placement& x, const Placement& w, const Placement& b, const Placement& out) {
    if (has_bias) {
      rules.Add({x, w, b}, {out});
    } else {
      rules.Add({x, w}, {out});
    }
  };
  if (l.x_batch >= 0 && kernel.empty_batch_ok) add(Placement::Shard(l.x_batch), r, r, Placement::Shard(l.x_batch));
  if (kernel.empty_channels_ok && groups == 1) {
    add(Placement::Shard(l.x_chan), Placement::Shard(l.w_in), sum, sum);
    add(r, Placement::Shard(l.w_out), Placement::Shard(0), Placement::Shard(l.x_chan));
  }
  if (kernel.empty_spatial_ok) {
    for (size_t i = 0; i < l.x_spatial.size() && i < l.w_kernel.size(); ++i) {
      if (PointwiseDim(args, l, i)) add(Placement::Shard(l.x_spatial[i]), r, r, Placement::Shard(l.x_spatial[i]));
    }
  }
  add(sum, r, sum, sum);
  add(r, sum, sum, sum);
  for (const Placement& b : {avg, r}) {
    add(avg, r, b, avg);
    add(r, avg, b, avg);
  }
  if (has_bias) {
    for (ReduceOp op : {ReduceOp::kAvg, ReduceOp::kMax, ReduceOp::kMin}) {
      add(r, r, Placement::Partial(op), Placement::Partial(op));
    }
  }
  const TensorMeta& x = args.inputs()[0];
  const TensorMeta& w = args.inputs()[1];
  bool single_product = !has_bias && groups > 0 && x.sizes[l.x_chan] / groups == 1;
  for (int64_t d : l.w_kernel) single_product = single_product && w.sizes[d] == 1;
  if (single_product) {
    const Placement prod = Placement::Partial(ReduceOp::kProduct);
    add(prod, prod, r, prod);
  }
  return rules.Take();
}

absl::StatusOr<std::vector<Rule>> Convolution(const OpArgs& args) {
  const bool transposed = args.GetBool("transposed").value_or(false);
  return ConvForward(args, ChannelsFirst(args, transposed));
}

absl::StatusOr<std::vector<Rule>> Direct(const OpArgs& args) {
  return ConvForward(args, ChannelsFirst(args, false));
}

absl::StatusOr<std::vector<Rule>> Transposed(const OpArgs& args) {
  return ConvForward(args, ChannelsFirst(args, true));
}

absl::StatusOr<std::vector<Rule>> ConvTbc(const OpArgs& args) { return ConvForward(args, Tbc(), kEmptyOk); }

absl::StatusOr<std::vector<Rule>> SlowDilated(const OpArgs& args) {
  return ConvForward(args, ChannelsFirst(args, false), kEmptyOk);
}

absl::StatusOr<std::vector<Rule>> SlowTransposed(const OpArgs& args) {
  return ConvForward(args, ChannelsFirst(args, true), kNoEmptyBatch);
}

// convolution_backward: inputs (grad_output, input, weight), outputs
// (grad_input, grad_weight, grad_bias).
absl::StatusOr<std::vector<Rule>> ConvolutionBackward(const OpArgs& args) {
  const TensorMeta& w = args.inputs()[2];
  bool unit_kernel = true;
  for (int64_t d = 2; d < w.ndim(); ++d) unit_kernel = unit_kernel && w.sizes[d] == 1;
  const Placement r = Placement::Replicate();
  const Placement sum = Placement::Partial(ReduceOp::kSum);
  const std::vector<Placement> same = {r, Placement::Partial(ReduceOp::kAvg), Placement::Partial(ReduceOp::kMax),
                                       Placement::Partial(ReduceOp::kMin)};
  RuleSet rules(args);
  if (!unit_kernel) {
    const Placement s = Placement::Shard(0);
    rules.Add({s, s, r}, {s, sum, sum});
  }
  for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kAvg}) {
    const Placement p = Placement::Partial(op);
    rules.Add({p, r, r}, {p, p, p});
    // x partial (and w partial or R): grad_bias, and grad_input when w is
    // R, see only replicated values.
    for (const Placement& gb : same) {
      for (const Placement& gi : same) rules.Add({r, p, r}, {gi, p, gb});
      for (ReduceOp wop : {ReduceOp::kSum, ReduceOp::kAvg}) {
        const Placement pw = Placement::Partial(wop);
        rules.Add({r, p, pw}, {pw, p, gb});
      }
      for (const Placement& gw : same) rules.Add({r, r, p}, {p, gw, gb});
    }
  }
  return rules.Take();
}

const bool kRegistered = [] {
  StrategyRegistrar("aten::convolution", Convolution);
  StrategyRegistrar("aten::convolution_backward", ConvolutionBackward);
  for (const char* op : {"aten::_convolution", "aten::_convolution.deprecated"}) {
    StrategyRegistrar(op, Convolution);
  }
  for (const char* op : {"aten::_convolution_mode", "aten::conv1d", "aten::conv2d", "aten::conv3d",
                         "aten::conv1d.padding", "aten::conv2d.padding", "aten::conv3d.padding"}) {
    StrategyRegistrar(op, Direct);
  }
  for (const char* op : {"aten::conv_transpose1d", "aten::conv_transpose2d.input",
                         "aten::conv_transpose3d.input"}) {
    StrategyRegistrar(op, Transposed);
  }
  StrategyRegistrar("aten::conv_tbc", ConvTbc);
  for (const char* op : {"aten::thnn_conv2d", "aten::_slow_conv2d_forward"}) StrategyRegistrar(op, Direct);
  for (const char* op : {"aten::slow_conv_dilated2d", "aten::slow_conv_dilated3d"}) {
    StrategyRegistrar(op, SlowDilated);
  }
  for (const char* op : {"aten::slow_conv_transpose2d", "aten::slow_conv_transpose3d"}) {
    StrategyRegistrar(op, SlowTransposed);
  }
  return true;
}();

}  // namespace
}  // namespace shrt
