// Strategies for concatenation: aten::cat and aten::stack (the registry
// derives their out= overloads). Both copy every input element to one
// place of the output:
//   - every input sharded alike on a dim other than the concatenation dim
//     gives the output sharded on that dim (for stack, input dims at or
//     after the new dim shift by one); sharding the cat dim is not local
//     (chunk r of a concatenation is not the concatenation of chunks r);
//   - the output selects input elements, so all inputs P(op) -> P(op) for
//     every reduce op; for the idempotent reductions (avg, max, min) a
//     Replicate input holds the same value on every rank, so any mix of R
//     and P(op) inputs (one at least Partial) -> P(op).
#include <vector>

#include "c10/core/WrapDimMinimal.h"
#include "shrt/registry.h"
#include "shrt/strategies/partial_algebra.h"
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

SHRT_REGISTER_STRATEGY("aten::cat", [](const OpArgs& a) { return ConcatRules(a, false); });
SHRT_REGISTER_STRATEGY("aten::stack", [](const OpArgs& a) { return ConcatRules(a, true); });

}  // namespace
}  // namespace shrt
