// The rule collector of the structural strategy families (concatenation,
// copies, indexing, slicing, splits, views): each builds its rules by
// adding every rule its reasoning allows, and RuleSet keeps only those a
// strategy may claim for the sample at hand.
#ifndef SHRT_STRATEGIES_RULE_SET_H_
#define SHRT_STRATEGIES_RULE_SET_H_

#include <vector>

#include "shrt/ops/op_args.h"
#include "shrt/vocab/placement.h"

namespace shrt {

// Collects rules for one OpArgs, in insertion order. A negative shard dim
// counts from its tensor's last dim (S(-1) of a 2-d tensor is kept as
// S(1)). Dropped:
//   - rules whose arity differs from the args' tensor inputs or outputs, and
//     rules without outputs;
//   - rules with a placement that never applies to its tensor
//     (candidates.h: Partial on bool, S(d) beyond the tensor's rank, ...);
//   - the all-Replicate rule, implicit in every strategy (placement.h);
//   - rules already added.
// `args` must outlive the RuleSet.
class RuleSet {
 public:
  explicit RuleSet(const OpArgs& args) : args_(args) {}

  // Adds `in -> out` unless one of the cases above drops it.
  void Add(std::vector<Placement> in, std::vector<Placement> out);

  // The rules kept, in the order they were first added; empties the set.
  std::vector<Rule> Take() { return std::move(rules_); }

 private:
  const OpArgs& args_;
  std::vector<Rule> rules_;
};

// `rules` passed through a RuleSet for `args`: the applicable ones, in
// order, without duplicates.
std::vector<Rule> KeepApplicable(const OpArgs& args, std::vector<Rule> rules);

// The shard rules of an op that works along one dim of input 0 (its "dim"
// argument) and independently across the others (scans, softmax): for each
// dim d of input 0 but `dim`, every input and output S(d); `dim` too where
// it has size 1 (or input 0 is 0-d), since then the op is the identity
// along it. Empty when the op has no int "dim" argument. Sets `*unit` to
// whether `dim` has size 1 (or input 0 is 0-d).
std::vector<Rule> ShardOffDimRules(const OpArgs& args, bool* unit);

}  // namespace shrt

#endif  // SHRT_STRATEGIES_RULE_SET_H_
