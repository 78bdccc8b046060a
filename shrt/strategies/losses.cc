// Strategies for loss functions (mse, l1, smooth_l1, huber, soft_margin,
// kl_div, binary_cross_entropy[_with_logits], nll_loss*), and the backward
// ops of the pointwise ones.
//
// `reduction` is an int: 0 none, 1 mean, 2 sum (at::Reduction).
//
// Pointwise losses reduce(f(x, y, w, ...)), f elementwise with broadcasting:
// mse (x - y)^2, l1 |x - y|, smooth_l1, huber, soft_margin log(1 + exp(-x y)),
// kl_div, bce, bce_with_logits.
// Shard rules: the pointwise shard rules (pointwise_rules.h, as DTensor's
// pointwise_strategy) on the broadcast shape of the tensor inputs:
//   none:  each rank computes f on its chunk: inputs S(d) -> S(d).
//   sum:   the sum over the whole tensor is the sum over ranks of the sums
//          over their chunks, an empty chunk giving 0: inputs S(d) -> P(sum).
//          On a size-1 dim rank 0 sums every term and the others none (0),
//          so for f >= 0 (mse, l1, smooth_l1, huber, soft_margin) that is
//          also the max over ranks: -> P(max).
//   mean:  no shard rule. The average of the local means is the mean only
//          when every chunk holds as many terms (size(d) % W == 0), which a
//          strategy cannot know (it does not see W); an empty chunk even
//          gives NaN. DTensor has the same restriction: its
//          nll_loss_forward_strategy (torch/distributed/tensor/_ops/
//          _math_ops.py) raises unless the target is evenly shardable, and
//          then claims P(avg). The specs explain the even-W cases as missing.
//   On a size-1 dim a replicated size-1 input meets the others' empty
//   chunks by broadcasting 1 against 0. Some libtorch kernels reject
//   that for the inputs whose shape they write into (their "anchors",
//   MissesAnchor): such rules are not claimed.
// Partial rules (R for every other input), for every reduction unless said:
// sum and mean are linear, so the loss keeps P(sum)/P(avg) of an input in
// which f is linear, and P(avg) where f is affine (a constant term would be
// counted W times by P(sum)). Where the loss is elementwise (none, or one
// term), a monotone f keeps P(max)/P(min).
//   kl_div(x, t), log_target=False: xlogy(t, t) - t x, affine in x:
//          P(avg), R -> P(avg); non-increasing in x for t >= 0 (t < 0 gives
//          NaN for every x): P(max), R -> P(min), P(min), R -> P(max)
//          (elementwise only: a sum of maxima is not the max of the sums).
//   kl_div, log_target=True: exp(t) (t - x): affine and decreasing in x.
//   bce(x, y, w) = -w (y log x + (1 - y) log(1 - x)) (logs clamped at
//          -100): linear in w (P(sum), P(avg)); affine in y, but libtorch
//          2.13 rejects a target outside [0, 1], so a Partial y raises;
//          and since it enforces x, y in [0, 1], -(...) >= 0 and the
//          term is non-decreasing in w (elementwise: P(max), P(min)).
//   bce_with_logits(x, y, w, pw) = w ((1 - y) x + (1 + (pw - 1) y) sp(-x)),
//          sp = softplus: affine in y and in pw (P(avg)), linear in w.
//   mse, l1, smooth_l1, huber, soft_margin: no Partial rule (neither
//          linear nor monotone with a known sign in any argument).
//
// Pointwise backward ops: g * f'(x, y, ...) * norm, norm = 1 / numel(self)
// for mean, 1 otherwise.
//   Shard rules: the pointwise rules of (grad_output, self, target, ...) ->
//   grad_input (a 0-d grad_output stays R), for none and sum. For mean,
//   norm is the GLOBAL element count while a rank would divide by its local
//   count: only size-1 dims may be sharded (rank 0 holds all, the others
//   empty chunks). Anchors as above.
//   Linear in grad_output: P(sum), R... -> P(sum), P(avg), R... -> P(avg).
//   mse: 2 g (x - y) norm is linear in (x, y) jointly and affine in each:
//   R, P(sum), P(sum) -> P(sum), R, P(avg), P(avg) -> P(avg),
//   R, P(avg), R -> P(avg), R, R, P(avg) -> P(avg).
//   bce: g w (x - y) / max(x (1 - x), eps) norm: affine in y, linear in w.
//
// nll_loss_forward / nll_loss2d_forward (self [N, C, ...] or [C], target
// [N, ...] or [], weight [C]?) -> (output, total_weight), and the one-output
// nll_loss (1-d/2-d), nll_loss_nd (any rank) and nll_loss2d. The class dim
// is 1 (0 for a 1-d self). Term i is -w[t_i] x[i, t_i] (0 where t_i is
// ignore_index; w = 1 without weight); none: the terms; sum: their sum;
// mean: their sum / total_weight, total_weight = sum of w[t_i] over the
// non-ignored terms (libtorch writes 0 for a none call on a 2-d+ self).
//   Shard rules (DTensor's nll_loss_forward_strategy): self sharded on a
//   dim d != 1, target on the matching dim d', weight R:
//     none: output S(d'), total_weight R;
//     sum:  P(sum), P(sum): both are sums over the terms;
//     mean: nothing (see above). Even on even chunks P(avg) is WRONG once a
//           weight or ignored targets make the ranks' total weights differ
//           (checked at W = 5 on a 5-row weighted sample), which DTensor's
//           rule does not check.
//   Sharding the class dim would need DTensor's MaskPartial (target holds
//   global class indices): the local kernel raises.
//   Partial rules: linear in self for every reduction (total_weight does not
//   depend on self): P(sum) -> P(sum), P(avg) -> P(avg), total_weight R;
//   -x is decreasing where the loss is elementwise (none, or one term) and
//   there is no weight (or w[t] / w[t] = 1 cancels, a one-term mean):
//   P(max) -> P(min), P(min) -> P(max). For none and sum, linear in weight
//   (output and total_weight): P(sum) and P(avg) pass. total_weight is a
//   sum of w[t_i]: P(sum)/P(avg) of weight pass, and for one term (a
//   gather) every Partial does. A one-term mean -x w[t] / w[t] is the same
//   on every rank whatever its part of w: P(avg|max|min) (not R: where the
//   full w[t] is 0 the full output is NaN, the ranks' are not). With no
//   weight and one term (or a 1-d self), total_weight is 0 or 1: also
//   P(product). Identical outputs on every rank are also P(avg|max|min).
//   P(product) of self (-x) holds only at odd W: not claimed.
//
// nll_loss_backward / nll_loss2d_backward (grad_output, self, target,
// weight?, reduction, ignore_index, total_weight) -> grad_input of self's
// shape: zero except grad_input[i, t_i] = -w[t_i] * g / total_weight (mean)
// or -w[t_i] * g (sum; none with g per term), t_i != ignore_index
// (aten/src/ATen/native/LossNLL.cpp nll_loss_backward_out_frame; LossNLL2d.cpp).
//   self is read for its shape only, and total_weight too for reduction
//   sum: any placement that keeps its local shape (R or a Partial) gives
//   the same grad_input.
//   Shard rules: self S(d) for d != class dim 1 with target S(d') on the
//   matching dim (grad_output too for reduction none, shaped like target),
//   weight and total_weight R -> S(d): each term is its own row. The class
//   dim does not shard (target holds global class indices).
//   Linear in grad_output and in weight (total_weight is an input):
//   g P(sum|avg) -> P(sum|avg); w P(sum|avg) -> P(sum|avg); a Partial self
//   with everything else R gives the full grad_input on every rank. With
//   reduction sum and no weight grad_input is -g at the targets and 0
//   elsewhere: g P(max) -> P(min) and the mirror (with mean it is -g / tw,
//   monotone by the sign of total_weight, a value: not claimed).
//   reduction none is not sampled: its CPU kernel does not check target
//   against self's class dim (nll_loss_backward with reduction none on a
//   [7, 1] self and targets up to 2 returns without an error, torch 2.13,
//   where mean and sum raise "Target 1 is out of bounds"), so the tuples
//   that shard self's class dim index past it.
#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include "shrt/strategies/pointwise_rules.h"
#include "shrt/strategies/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

constexpr int64_t kNone = 0;
constexpr int64_t kMean = 1;
constexpr int64_t kSum = 2;

const Placement kR = Placement::Replicate();
Placement P(ReduceOp op) { return Placement::Partial(op); }

int64_t Reduction(const OpArgs& args) { return args.GetInt("reduction").value_or(kMean); }

// The index, among the rule's inputs, of tensor argument `name`, or -1.
int InputIndex(const OpArgs& args, const char* name) {
  int i = 0;
  for (const OpArg& a : args.args()) {
    if (std::holds_alternative<TensorMeta>(a.value)) {
      if (a.name == name) return i;
      ++i;
    } else if (std::holds_alternative<std::vector<TensorMeta>>(a.value)) {
      i += static_cast<int>(std::get<std::vector<TensorMeta>>(a.value).size());
    }
  }
  return -1;
}

// A rule with every input R except `in` (placement `p`), and `outs`.
Rule OneInput(const OpArgs& args, int in, Placement p, std::vector<Placement> outs) {
  Rule rule;
  rule.inputs.assign(args.inputs().size(), kR);
  rule.inputs[in] = p;
  rule.outputs = std::move(outs);
  return rule;
}

// P(sum) and P(avg) on input `in` kept on every output (linear).
void AddLinear(const OpArgs& args, int in, std::vector<Rule>& rules) {
  if (in < 0) return;
  const size_t n = args.outputs().size();
  for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kAvg}) {
    rules.push_back(OneInput(args, in, P(op), std::vector<Placement>(n, P(op))));
  }
}

// P(avg) on input `in` (affine).
void AddAffine(const OpArgs& args, int in, std::vector<Rule>& rules) {
  if (in < 0) return;
  rules.push_back(OneInput(args, in, P(ReduceOp::kAvg), {P(ReduceOp::kAvg)}));
}

// P(max) -> P(min) and P(min) -> P(max) on input `in` (non-increasing),
// every other output R.
void AddDecreasing(const OpArgs& args, int in, std::vector<Rule>& rules) {
  std::vector<Placement> outs(args.outputs().size(), kR);
  outs[0] = P(ReduceOp::kMin);
  rules.push_back(OneInput(args, in, P(ReduceOp::kMax), outs));
  outs[0] = P(ReduceOp::kMax);
  rules.push_back(OneInput(args, in, P(ReduceOp::kMin), outs));
}

// P(max) -> P(max) and P(min) -> P(min) on input `in` (non-decreasing),
// every other output R.
void AddIncreasing(const OpArgs& args, int in, std::vector<Rule>& rules) {
  if (in < 0) return;
  std::vector<Placement> outs(args.outputs().size(), kR);
  for (ReduceOp op : {ReduceOp::kMax, ReduceOp::kMin}) {
    outs[0] = P(op);
    rules.push_back(OneInput(args, in, P(op), outs));
  }
}

// The broadcast shape of the tensor inputs.
std::vector<int64_t> BroadcastShape(const OpArgs& args) {
  std::vector<int64_t> shape;
  for (const TensorMeta& t : args.inputs()) {
    if (t.ndim() > static_cast<int64_t>(shape.size())) {
      shape.insert(shape.begin(), t.ndim() - shape.size(), 1);
    }
    for (int64_t k = 0; k < t.ndim(); ++k) {
      int64_t& s = shape[shape.size() - t.ndim() + k];
      if (s == 1) s = t.sizes[k];
    }
  }
  return shape;
}

int64_t Numel(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return n;
}

// Groups of inputs, at least one of each must be sharded on a size-1 dim.
using Anchors = std::vector<std::vector<int>>;

// True when `rule`, a pointwise shard rule whose outputs are S(d) on a dim
// of `shape` (the broadcast shape), shards a size-1 dim d but leaves every
// input of one of `anchors` replicated. Those kernels take their output
// (or an in-place buffer) from the anchor's shape, and a replicated size-1
// anchor does not broadcast against the other inputs' empty chunks
// ("output with shape [3, 1, 5] doesn't match the broadcast shape
// [3, 0, 5]"). Inputs off the anchors do broadcast 1 against 0.
bool MissesAnchor(const Rule& rule, const std::vector<int64_t>& shape, const Anchors& anchors) {
  const int64_t d = rule.outputs[0].dim();
  if (shape[d] != 1) return false;
  for (const std::vector<int>& group : anchors) {
    bool sharded = false;
    for (int i : group) sharded = sharded || rule.inputs[i].is_shard();
    if (!sharded) return true;
  }
  return false;
}

// ---- pointwise forward losses ----

enum class Fwd { kPlain, kKlDiv, kBce, kBceLogits };

// `nonneg`: f >= 0 (mse, l1, smooth_l1, huber, soft_margin). `anchors`: see
// MissesAnchor.
absl::StatusOr<std::vector<Rule>> PointwiseLoss(const OpArgs& args, Fwd kind, bool nonneg,
                                                const Anchors& anchors) {
  const int64_t reduction = Reduction(args);
  const std::vector<int64_t> shape = BroadcastShape(args);
  std::vector<Rule> rules;
  if (reduction == kNone || reduction == kSum) {
    TensorMeta out;
    out.sizes = shape;
    out.dtype = args.outputs()[0].dtype;
    const OpArgs full(args.args(), args.inputs(), {out});
    for (Rule& rule : PointwiseShardRules(full)) {
      if (MissesAnchor(rule, shape, anchors)) continue;
      const int64_t d = rule.outputs[0].dim();
      if (reduction == kSum) {
        // On a size-1 dim rank 0 sums every term, the others none (0): for
        // f >= 0 that is also the max over ranks.
        if (nonneg && shape[d] == 1) {
          Rule max = rule;
          max.outputs = {P(ReduceOp::kMax)};
          rules.push_back(std::move(max));
        }
        rule.outputs = {P(ReduceOp::kSum)};
      }
      rules.push_back(std::move(rule));
    }
  }
  const bool elementwise = reduction == kNone || Numel(shape) == 1;
  switch (kind) {
    case Fwd::kPlain:
      break;
    case Fwd::kKlDiv:
      AddAffine(args, 0, rules);
      if (elementwise) AddDecreasing(args, 0, rules);
      break;
    case Fwd::kBce:
      // Affine in target, but libtorch 2.13 raises unless every target
      // element is in [0, 1] ("all elements of target should be between 0
      // and 1", aten/src/ATen/native/Loss.cpp), which the parts of a
      // Partial target need not be: no Partial target. With self and
      // target in [0, 1] the bracket is <= 0, so the term is w times a
      // value >= 0: non-decreasing in w.
      AddLinear(args, InputIndex(args, "weight"), rules);
      if (elementwise) AddIncreasing(args, InputIndex(args, "weight"), rules);
      break;
    case Fwd::kBceLogits:
      AddAffine(args, 1, rules);
      AddLinear(args, InputIndex(args, "weight"), rules);
      AddAffine(args, InputIndex(args, "pos_weight"), rules);
      break;
  }
  return KeepApplicable(args, std::move(rules));
}

// ---- pointwise backward ops ----

enum class Bwd { kPlain, kMse, kBce };

absl::StatusOr<std::vector<Rule>> PointwiseLossBackward(const OpArgs& args, Bwd kind,
                                                        const Anchors& anchors) {
  const int64_t reduction = Reduction(args);
  std::vector<Rule> rules;
  const TensorMeta& out = args.outputs()[0];
  for (Rule& rule : PointwiseShardRules(args)) {
    const int64_t d = rule.outputs[0].dim();
    if (reduction == kMean && out.sizes[d] != 1) continue;
    if (MissesAnchor(rule, out.sizes, anchors)) continue;
    rules.push_back(std::move(rule));
  }
  AddLinear(args, 0, rules);
  switch (kind) {
    case Bwd::kPlain:
      break;
    case Bwd::kMse:
      AddAffine(args, 1, rules);
      AddAffine(args, 2, rules);
      for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kAvg}) {
        Rule rule = OneInput(args, 1, P(op), {P(op)});
        rule.inputs[2] = P(op);
        rules.push_back(std::move(rule));
      }
      break;
    case Bwd::kBce:
      AddAffine(args, 2, rules);
      AddLinear(args, InputIndex(args, "weight"), rules);
      break;
  }
  return KeepApplicable(args, std::move(rules));
}

// ---- nll_loss ----

// Shard rules of nll: self S(d) for d != class dim 1, target S(d') on the
// matching dim, every other input R; outputs `outs(d')`.
template <typename Outs>
void NllShardRules(const OpArgs& args, int self, int target, Outs outs, std::vector<Rule>& rules) {
  const TensorMeta& x = args.inputs()[self];
  const TensorMeta& t = args.inputs()[target];
  if (x.ndim() < 2) return;
  for (int64_t d = 0; d < x.ndim(); ++d) {
    if (d == 1) continue;
    const int64_t td = d == 0 ? 0 : d - 1;
    if (td >= t.ndim()) continue;
    Rule rule;
    rule.inputs.assign(args.inputs().size(), kR);
    rule.inputs[self] = Placement::Shard(d);
    rule.inputs[target] = Placement::Shard(td);
    rule.outputs = outs(td);
    rules.push_back(std::move(rule));
  }
}

// The Partial placement `op`, or R for nullopt.
Placement Pl(std::optional<ReduceOp> op) { return op ? P(*op) : kR; }

const std::vector<Placement>& ReplicatedValued() {
  static const auto* v = new std::vector<Placement>{kR, P(ReduceOp::kAvg), P(ReduceOp::kMax),
                                                    P(ReduceOp::kMin)};
  return *v;
}

absl::StatusOr<std::vector<Rule>> NllBackward(const OpArgs& args) {
  const int64_t reduction = Reduction(args);
  const int w = InputIndex(args, "weight");
  const TensorMeta& self = args.inputs()[1];
  const TensorMeta& target = args.inputs()[2];
  std::vector<Rule> rules;
  // self, and total_weight for reduction sum, are read for their shapes
  // only: R or any Partial.
  std::vector<Placement> any = {kR};
  for (ReduceOp op : kAllReduceOps) any.push_back(P(op));
  const int tw = static_cast<int>(args.inputs().size()) - 1;
  const std::vector<Placement> tws = reduction == kSum ? any : std::vector<Placement>{kR};
  // Shards: a row (or pixel) dim of self, target's matching one.
  for (int64_t d = 0; self.ndim() >= 2 && d < self.ndim(); ++d) {
    const int64_t td = d == 0 ? 0 : d - 1;
    if (d == 1 || td >= target.ndim()) continue;
    for (const Placement& pt : tws) {
      Rule rule{std::vector<Placement>(args.inputs().size(), kR), {Placement::Shard(d)}};
      rule.inputs[1] = Placement::Shard(d);
      rule.inputs[2] = Placement::Shard(td);
      rule.inputs[tw] = pt;
      if (reduction == kNone) rule.inputs[0] = Placement::Shard(td);
      rules.push_back(std::move(rule));
    }
  }
  for (const Placement& ps : any) {
    for (const Placement& pt : tws) {
      auto rule = [&](Placement g, Placement pw, Placement out) {
        Rule r{std::vector<Placement>(args.inputs().size(), kR), {out}};
        r.inputs[0] = g;
        r.inputs[1] = ps;
        r.inputs[tw] = pt;
        if (w >= 0) r.inputs[w] = pw;
        return r;
      };
      for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kAvg}) {
        rules.push_back(rule(P(op), kR, P(op)));
        if (w >= 0) rules.push_back(rule(kR, P(op), P(op)));
      }
      if (reduction == kSum && w < 0) {  // -g: non-increasing in g
        rules.push_back(rule(P(ReduceOp::kMax), kR, P(ReduceOp::kMin)));
        rules.push_back(rule(P(ReduceOp::kMin), kR, P(ReduceOp::kMax)));
      }
      if (ps != kR || pt != kR) {
        for (const Placement& out : ReplicatedValued()) rules.push_back(rule(kR, kR, out));
      }
    }
  }
  return KeepApplicable(args, std::move(rules));
}

absl::StatusOr<std::vector<Rule>> NllForward(const OpArgs& args) {
  const int64_t reduction = Reduction(args);
  const size_t n_out = args.outputs().size();  // 2 with total_weight
  const int w = InputIndex(args, "weight");
  const TensorMeta& self = args.inputs()[0];
  const bool one = Numel(args.inputs()[1].sizes) == 1;  // a single loss term
  const bool mean_one = reduction == kMean && one;
  // The 2-d (and 2d) kernels write total_weight = 0 for reduction none.
  const bool tw_zero = reduction == kNone && self.ndim() >= 2;
  std::vector<Rule> rules;
  if (reduction == kNone) {
    NllShardRules(args, 0, 1, [&](int64_t td) {
      std::vector<Placement> outs(n_out, kR);
      outs[0] = Placement::Shard(td);
      return outs;
    }, rules);
  } else if (reduction == kSum) {
    NllShardRules(args, 0, 1, [&](int64_t) {
      return std::vector<Placement>(n_out, P(ReduceOp::kSum));
    }, rules);
  }
  // -x per term: without weight (w / w = 1 for a one-term mean).
  const bool decreasing = (reduction == kNone || one) && (w < 0 || mean_one);
  std::vector<std::optional<ReduceOp>> self_ops = {std::nullopt, ReduceOp::kSum, ReduceOp::kAvg,
                                                   ReduceOp::kMax, ReduceOp::kMin};
  std::vector<std::optional<ReduceOp>> weight_ops = {std::nullopt};
  if (w >= 0) {
    for (ReduceOp op : kAllReduceOps) weight_ops.push_back(op);
  }
  for (std::optional<ReduceOp> ps : self_ops) {
    for (std::optional<ReduceOp> pw : weight_ops) {
      // Placements of output.
      std::vector<Placement> out0;
      if (!ps && !pw) {
        out0 = ReplicatedValued();
      } else if (ps && (!pw || mean_one)) {
        if (*ps == ReduceOp::kSum || *ps == ReduceOp::kAvg) out0.push_back(P(*ps));
        if (*ps == ReduceOp::kMax && decreasing) out0.push_back(P(ReduceOp::kMin));
        if (*ps == ReduceOp::kMin && decreasing) out0.push_back(P(ReduceOp::kMax));
      } else if (!ps && pw) {
        if (mean_one) {
          // -x w[t] / w[t] = -x on every rank whatever its part of w: the
          // same value everywhere, so P(avg|max|min), but not R: where the
          // full w[t] is 0 the full output is NaN (no evidence for a
          // Partial, DESIGN.md section 3) while the ranks' parts are not 0.
          out0 = {P(ReduceOp::kAvg), P(ReduceOp::kMax), P(ReduceOp::kMin)};
        } else if (reduction != kMean && (*pw == ReduceOp::kSum || *pw == ReduceOp::kAvg)) {
          out0.push_back(P(*pw));
        }
      }
      // Placements of total_weight (it does not depend on self).
      std::vector<Placement> tw = {kR};
      if (n_out == 2 && !tw_zero) {
        if (!pw) {
          tw = ReplicatedValued();
          // No weight and one term (or a 1-d self): total_weight is 0 or 1.
          if (w < 0 && (one || self.ndim() == 1)) tw.push_back(P(ReduceOp::kProduct));
        } else if (one) {
          tw = {P(*pw)};  // w[t]: a gather keeps every Partial
        } else if (*pw == ReduceOp::kSum || *pw == ReduceOp::kAvg) {
          tw = {P(*pw)};  // sum of w[t_i]: linear
        } else {
          tw.clear();
        }
      }
      for (const Placement& o : out0) {
        for (const Placement& t : tw) {
          Rule rule;
          rule.inputs.assign(args.inputs().size(), kR);
          rule.inputs[0] = Pl(ps);
          if (w >= 0) rule.inputs[w] = Pl(pw);
          rule.outputs = {o};
          if (n_out == 2) rule.outputs.push_back(t);
          if (!IsDegenerate(rule)) rules.push_back(std::move(rule));
        }
      }
    }
  }
  return KeepApplicable(args, std::move(rules));
}

const bool kRegistered = [] {
  // Anchors (MissesAnchor), found on libtorch's kernels: soft_margin
  // computes neg(self).mul_(target) in place; bce's TensorIterator output
  // takes self's and target's shape; bce_with_logits computes
  // (1 - target).mul_(self).sub_(log_sigmoid(self)) in place, so both are
  // anchors (libtorch 2.13; 1.13's kernel anchored target only);
  // bce_backward needs self and target sharded; soft_margin_backward
  // multiplies grad_output in place into the (self, target) broadcast.
  static const Anchors kNoAnchor = {};
  static const Anchors kSelf = {{0}};
  static const Anchors kSelfAndTarget = {{0}, {1}};
  static const Anchors kTarget = {{1}};
  static const Anchors kBwdSelfAndTarget = {{1}, {2}};
  static const Anchors kBwdSelfOrTarget = {{1, 2}};
  for (const char* op : {"aten::mse_loss", "aten::l1_loss", "aten::smooth_l1_loss",
                         "aten::huber_loss"}) {
    StrategyRegistrar(op, [](const OpArgs& a) { return PointwiseLoss(a, Fwd::kPlain, true, kNoAnchor); });
  }
  StrategyRegistrar("aten::soft_margin_loss",
                    [](const OpArgs& a) { return PointwiseLoss(a, Fwd::kPlain, true, kSelf); });
  StrategyRegistrar("aten::kl_div",
                    [](const OpArgs& a) { return PointwiseLoss(a, Fwd::kKlDiv, false, kNoAnchor); });
  StrategyRegistrar("aten::binary_cross_entropy", [](const OpArgs& a) {
    return PointwiseLoss(a, Fwd::kBce, false, kSelfAndTarget);
  });
  StrategyRegistrar("aten::binary_cross_entropy_with_logits",
                    [](const OpArgs& a) { return PointwiseLoss(a, Fwd::kBceLogits, false, kSelfAndTarget); });
  for (const char* op : {"aten::smooth_l1_loss_backward", "aten::huber_loss_backward"}) {
    StrategyRegistrar(op, [](const OpArgs& a) {
      return PointwiseLossBackward(a, Bwd::kPlain, kNoAnchor);
    });
  }
  StrategyRegistrar("aten::soft_margin_loss_backward", [](const OpArgs& a) {
    return PointwiseLossBackward(a, Bwd::kPlain, kBwdSelfOrTarget);
  });
  StrategyRegistrar("aten::mse_loss_backward",
                    [](const OpArgs& a) { return PointwiseLossBackward(a, Bwd::kMse, kNoAnchor); });
  StrategyRegistrar("aten::binary_cross_entropy_backward",
                    [](const OpArgs& a) { return PointwiseLossBackward(a, Bwd::kBce, kBwdSelfAndTarget); });
  for (const char* op : {"aten::nll_loss_forward", "aten::nll_loss2d_forward", "aten::nll_loss",
                         "aten::nll_loss_nd", "aten::nll_loss2d"}) {
    StrategyRegistrar(op, NllForward);
  }
  for (const char* op : {"aten::nll_loss_backward", "aten::nll_loss2d_backward"}) {
    StrategyRegistrar(op, NllBackward);
  }
  return true;
}();

}  // namespace
}  // namespace shrt
