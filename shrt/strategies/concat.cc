// Strategies for concatenation: aten::cat and its aliases concat and
// concatenate, aten::stack (and _stack, the same op without the
// TensorIterator fast path), and the NumPy-style stacks hstack, vstack
// (= row_stack), dstack and column_stack (the registry derives their out=
// overloads). All copy every input element to one place of the output:
//   - every input sharded alike on a dim other than the concatenation dim
//     gives the output sharded on that dim (for stack, input dims at or
//     after the new dim shift by one); sharding the cat dim is not local
//     (chunk r of a concatenation is not the concatenation of chunks r);
//   - the output selects input elements, so all inputs P(op) -> P(op) for
//     every reduce op; for the idempotent reductions (avg, max, min) a
//     Replicate input holds the same value on every rank, so any mix of R
//     and P(op) inputs (one at least Partial) -> P(op).
// The NumPy-style stacks reshape each input first, then cat: vstack and
// row_stack take atleast_2d ((n) -> (1, n)) and cat on dim 0; dstack takes
// atleast_3d ((n) -> (1, n, 1), (m, n) -> (m, n, 1)) and cats on dim 2;
// hstack takes atleast_1d and cats on dim 0 when the inputs are 1-d, else
// on dim 1; column_stack turns a 0-d or 1-d (n) into a column (n, 1) and
// cats on dim 1. The reshape only inserts size-1 dims, so input dim d is
// some output dim o(d) with the same size and chunk layout; an output dim
// other than the cat dim that is such a dim of every input is sharded when
// every input is sharded on its dim for it (a dim inserted with size 1 in
// some input cannot be: that input's replica holds its one row on every
// rank). DTensor: torch/distributed/tensor/_ops/_tensor_ops.py
// (cat_single_dim_strategy / stack strategy; the atleast_Nd reshapes are
// unsqueezes, _view_ops.py dim_atleast_2d / dim_atleast_3d).
#include <algorithm>
#include <vector>

#include "c10/core/WrapDimMinimal.h"
#include "shrt/strategies/partial_algebra.h"
#include "shrt/strategies/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

using P = Placement;

// The Partial rules of an op whose output selects elements of its inputs.
void SelectionPartialRules(RuleSet& rules, size_t n) {
  for (ReduceOp op : kAllReduceOps) {
    rules.Add(std::vector<Placement>(n, P::Partial(op)), {P::Partial(op)});
  }
  if (n > 8) return;  // mixes of R and P: 2^n rules
  for (ReduceOp op : kIdempotentReduceOps) {
    for (size_t mask = 1; mask < (size_t{1} << n); ++mask) {
      std::vector<Placement> in;
      for (size_t i = 0; i < n; ++i) in.push_back((mask >> i) & 1 ? P::Partial(op) : P::Replicate());
      rules.Add(std::move(in), {P::Partial(op)});
    }
  }
}

// stack = false: aten::cat; true: aten::stack.
absl::StatusOr<std::vector<Rule>> ConcatRules(const OpArgs& args, bool stack) {
  RuleSet rules(args);
  const size_t n = args.inputs().size();
  if (n == 0 || args.outputs().empty()) return rules.Take();
  const int64_t out_ndim = args.outputs()[0].ndim();
  const int64_t dim = c10::maybe_wrap_dim(args.GetInt("dim").value_or(0), out_ndim);
  const int64_t in_ndim = stack ? out_ndim - 1 : out_ndim;
  bool same_rank = true;
  for (const TensorMeta& m : args.inputs()) same_rank = same_rank && m.ndim() == in_ndim;
  if (same_rank) {
    for (int64_t d = 0; d < in_ndim; ++d) {
      if (!stack && d == dim) continue;
      const int64_t od = stack && d >= dim ? d + 1 : d;
      rules.Add(std::vector<Placement>(n, P::Shard(d)), {P::Shard(od)});
    }
  }
  SelectionPartialRules(rules, n);
  return rules.Take();
}

enum class NumpyStack { kH, kV, kD, kColumn };

// For one input of `ndim` dims, the output dim of each of its dims after
// the stack's reshape, and the output rank.
std::vector<int64_t> StackDimMap(NumpyStack kind, int64_t ndim, int64_t* out_ndim) {
  std::vector<int64_t> map(ndim);
  for (int64_t d = 0; d < ndim; ++d) map[d] = d;
  switch (kind) {
    case NumpyStack::kH:
      *out_ndim = std::max<int64_t>(ndim, 1);
      break;
    case NumpyStack::kV:
      *out_ndim = std::max<int64_t>(ndim, 2);
      if (ndim == 1) map[0] = 1;
      break;
    case NumpyStack::kD:
      *out_ndim = std::max<int64_t>(ndim, 3);
      if (ndim == 1) map[0] = 1;
      break;
    case NumpyStack::kColumn:
      *out_ndim = std::max<int64_t>(ndim, 2);
      break;
  }
  return map;
}

absl::StatusOr<std::vector<Rule>> NumpyStackRules(const OpArgs& args, NumpyStack kind) {
  RuleSet rules(args);
  const size_t n = args.inputs().size();
  if (n == 0 || args.outputs().empty()) return rules.Take();
  std::vector<std::vector<int64_t>> maps;
  int64_t out_ndim = -1;
  for (const TensorMeta& m : args.inputs()) {
    int64_t nd = 0;
    maps.push_back(StackDimMap(kind, m.ndim(), &nd));
    if (out_ndim != -1 && nd != out_ndim) return rules.Take();
    out_ndim = nd;
  }
  int64_t cat_dim = 0;
  switch (kind) {
    case NumpyStack::kH:
      cat_dim = out_ndim == 1 ? 0 : 1;
      break;
    case NumpyStack::kV:
      cat_dim = 0;
      break;
    case NumpyStack::kD:
      cat_dim = 2;
      break;
    case NumpyStack::kColumn:
      cat_dim = 1;
      break;
  }
  for (int64_t o = 0; o < out_ndim; ++o) {
    if (o == cat_dim) continue;
    std::vector<Placement> in;
    for (const std::vector<int64_t>& map : maps) {
      auto it = std::find(map.begin(), map.end(), o);
      if (it == map.end()) break;
      in.push_back(P::Shard(it - map.begin()));
    }
    if (in.size() == n) rules.Add(std::move(in), {P::Shard(o)});
  }
  SelectionPartialRules(rules, n);
  return rules.Take();
}

SHRT_REGISTER_STRATEGY("aten::cat", [](const OpArgs& a) { return ConcatRules(a, false); });
SHRT_REGISTER_STRATEGY("aten::stack", [](const OpArgs& a) { return ConcatRules(a, true); });
SHRT_REGISTER_STRATEGY("aten::_stack", [](const OpArgs& a) { return ConcatRules(a, true); });
SHRT_REGISTER_STRATEGY("aten::concat", [](const OpArgs& a) { return ConcatRules(a, false); });
SHRT_REGISTER_STRATEGY("aten::concatenate", [](const OpArgs& a) { return ConcatRules(a, false); });
SHRT_REGISTER_STRATEGY("aten::hstack",
                       [](const OpArgs& a) { return NumpyStackRules(a, NumpyStack::kH); });
SHRT_REGISTER_STRATEGY("aten::vstack",
                       [](const OpArgs& a) { return NumpyStackRules(a, NumpyStack::kV); });
SHRT_REGISTER_STRATEGY("aten::row_stack",
                       [](const OpArgs& a) { return NumpyStackRules(a, NumpyStack::kV); });
SHRT_REGISTER_STRATEGY("aten::dstack",
                       [](const OpArgs& a) { return NumpyStackRules(a, NumpyStack::kD); });
SHRT_REGISTER_STRATEGY("aten::column_stack",
                       [](const OpArgs& a) { return NumpyStackRules(a, NumpyStack::kColumn); });

}  // namespace
}  // namespace shrt
