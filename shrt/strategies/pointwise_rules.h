// The rule builder shared by pointwise operators (elementwise, with NumPy
// broadcasting): the shard rules every pointwise op has, plus the Partial
// rules each op justifies, given as rule text in the op's table.
//
// Shard rules (DTensor's pointwise_strategy does the same on one mesh dim):
// for each output dim d, the output is S(d), every input whose
// right-aligned dim has the output's size is sharded on that dim, and every
// input that broadcasts along d (dim missing, or size 1 against a larger
// output) stays R. On a size-1 output dim, size-1 inputs may be either: every
// non-empty subset of them sharded gives a rule.
#ifndef SHRT_STRATEGIES_POINTWISE_RULES_H_
#define SHRT_STRATEGIES_POINTWISE_RULES_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "shrt/op_args.h"
#include "shrt/placement.h"

namespace shrt {

// The shard rules described above, for output 0 of `args`.
std::vector<Rule> PointwiseShardRules(const OpArgs& args);

// Parses each text of `rules` ("P(sum), R -> P(sum)") and keeps those a
// RuleSet keeps (rule_set.h): arity matching `args`, every placement
// applicable to its tensor (no Partial on bool, ...), no duplicates.
// Errors: InvalidArgument for text that does not parse.
absl::StatusOr<std::vector<Rule>> ApplicableRules(const OpArgs& args,
                                                  absl::Span<const absl::string_view> rules);

// PointwiseShardRules plus ApplicableRules(partial_rules). With `in_place`,
// keeps only rules whose output 0 keeps input 0's placement (the output is
// self, written in place).
absl::StatusOr<std::vector<Rule>> PointwiseRules(const OpArgs& args,
                                                 absl::Span<const absl::string_view> partial_rules,
                                                 bool in_place = false);

// One row of a pointwise family's table: the overload, the Partial rules
// its algebra justifies (rule text), and whether it writes self in place.
struct PointwiseOp {
  const char* overload;
  std::vector<absl::string_view> partial_rules;
  bool in_place = false;
};

// Registers PointwiseRules(args, op.partial_rules, op.in_place) for every
// row in the global registry; `ops` must outlive it (a static table).
// Returns true, so that a family file can register from a static
// initialiser: `const bool kRegistered = RegisterPointwiseOps(Table());`.
bool RegisterPointwiseOps(const std::vector<PointwiseOp>& ops);

}  // namespace shrt

#endif  // SHRT_STRATEGIES_POINTWISE_RULES_H_
