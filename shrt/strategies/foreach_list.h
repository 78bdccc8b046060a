// The list strategy shared by the foreach family's sources (foreach.cc:
// the `_foreach_*` ops; foreach_optimizers.cc: the fused optimizers): ops
// that compute, at every list position i, one op on the tensors at i (and
// on the tensors every position shares), independently of the other
// positions (on CPU the slow path calls the element op once per position:
// ATen/native/ForeachOpsKernels.cpp; FusedAdamKernel.cpp runs the Adam step
// per tensor). Internal to the family.
//
// Tensor[] arguments are flattened in order (DESIGN.md §5): for list
// arguments L_0 .. L_{k-1} of length n the rule inputs are L_0[0..n), then
// L_1[0..n), ..., then the lone Tensor arguments (every position's, in
// schema order: `_foreach_add.Tensor`'s 0-d `other`, the optimizers'
// `grad_scale`, `found_inf` and tensor `lr`); the outputs are the returned
// lists (or the written ones, for `-> ()` variants) likewise.
//
// Since position i's outputs depend only on position i's inputs, a rule of
// the list op is any choice, per position, of one of that position's element
// rules that agree on the shared tensors, and every such choice holds: the
// positions do not interact, so each rank's locals are correct position by
// position. The strategy is therefore the product over positions of each
// position's element rules (per placement of the shared tensors), minus the
// all-R rule overall. This is DTensor's list strategy
// (torch/distributed/tensor/_ops/_pointwise_ops.py, `list_pointwise_strategy`
// for the ops of `for_each_ops`; single-dim registrations are expanded per
// element, _ops/utils.py `expanded_foreach_strategy`), which gives each
// position its own placement.
//
// The element rules of a position are, first, its replicated ones: all-R
// inputs -> R, and, when the list has more than one position, all-R inputs
// -> each output R, P(avg), P(max) or P(min) (every rank computes the full
// output; the mean, max and min of W identical values are that value).
// These are degenerate for a single op (DESIGN.md §3), but in a list they
// combine with another position's real rule, e.g. abs on two tensors:
// `S(0), R -> S(0), P(max)`; DTensor does not produce them, but they hold.
//
// A Scalar[] argument with one value per position (`_foreach_add.ScalarList`'s
// `scalars`) gives each position its own value of the element op's scalar.
#ifndef SHRT_STRATEGIES_FOREACH_LIST_H_
#define SHRT_STRATEGIES_FOREACH_LIST_H_

#include <functional>
#include <vector>

#include "absl/status/statusor.h"
#include "shrt/strategies/pointwise_rules.h"
#include "shrt/strategies/strategy.h"

namespace shrt::foreach {

// The rules of one position's element op on the position's own args
// (inputs: per slot, the position's list element or the shared tensor;
// outputs: the position's outputs).
using ElementFn = std::function<absl::StatusOr<Rules>(const OpArgs& element)>;

// The list strategy of `fn`: each position's replicated rules and `fn`'s
// (kept where they apply), combined over positions as above. Errors, at
// query: InvalidArgument when the tensors do not form lists of one length;
// `fn`'s.
Strategy ListStrategy(ElementFn fn);

}  // namespace shrt::foreach

#endif  // SHRT_STRATEGIES_FOREACH_LIST_H_
