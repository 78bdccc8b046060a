// Strategy tables (table.proto): rule sets written as text, with symbolic
// dims and conditions, turned into the concrete rules of each sample.
//
// Conditions and dim expressions are evaluated with muparser (Debian's
// libmuparser): arguments are muparser variables (int-list arguments as
// bit sets of normalised dims, tensors as handles for ndim()/size()), `in`
// is a binary operator on such sets and `!` an infix not. Compiled tables
// are not thread-safe (muparser evaluates into shared variables).
#ifndef SHRT_STRATEGIES_TABLE_H_
#define SHRT_STRATEGIES_TABLE_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ATen/core/operator_name.h"
#include "absl/status/statusor.h"
#include "shrt/ops/op_args.h"
#include "shrt/strategies/table.pb.h"
#include "shrt/vocab/nd_rule.h"
#include "shrt/vocab/placement.h"
#include "shrt/vocab/text_proto.h"

namespace shrt {

// One concrete rule of a sample and the table rule it came from.
struct TableInstance {
  Rule rule;
  int origin;  // index of the TableRule in its TableOp
};

// The compiled rules of one overload.
class TableStrategy {
 public:
  ~TableStrategy();
  TableStrategy(TableStrategy&&) noexcept;

  const TableOp& proto() const { return proto_; }
  const c10::OperatorName& op() const { return op_; }
  // "<path>:<line>" of the entry's name in its table file.
  const std::string& where() const { return where_; }

  // The N-D rules of the entry (table.proto), with their index among its
  // rules, in order. Instantiate does not yield them.
  const std::vector<std::pair<int, NdRule>>& nd_rules() const { return nd_rules_; }

  // Every concrete rule each table rule yields for `args` at `world_size`:
  // one per assignment of its free dim variables (each over 0 .. the
  // largest rank - 1) for which every placement is well-formed and the
  // condition holds; rules whose arity does not match `args` yield none.
  // Errors: InvalidArgument "<path>:<line>: field 'op[i].rule[j].<f>': ..."
  // when an expression cannot be evaluated for `args`: a dim expression
  // that is not an integer, a condition that is NaN (neither true nor
  // false; e.g. size(self, 3) alone on a 2-d self).
  absl::StatusOr<std::vector<TableInstance>> Instantiate(const OpArgs& args, int world_size) const;

  // The concrete rules for `args`, deduplicated: the body of a registered
  // strategy backed by a table (`shrt discover --format=cc`). Strategies do
  // not know the world size, so a table read this way must not use `ws`.
  // Errors: FailedPrecondition if a rule reads `ws`; else Instantiate's.
  absl::StatusOr<std::vector<Rule>> Rules(const OpArgs& args) const;

 private:
  friend class StrategyTableFile;
  struct Compiled;
  TableStrategy(TableOp proto, c10::OperatorName op);
  TableOp proto_;
  c10::OperatorName op_;
  std::string where_;
  std::vector<std::unique_ptr<Compiled>> rules_;  // one per rule; empty for N-D ones
  std::vector<std::pair<int, NdRule>> nd_rules_;
};

// The claims a table makes for one overload: the entry that lists it, or,
// for an in-place or out= variant (op_group.h) the table does not list, the
// entry of its functional overload, whose rules the variant inherits as a
// registered strategy's variants do (variant_rules.h).
struct TableEntry {
  const TableStrategy* strategy = nullptr;  // nullptr: no claims for the overload
  bool inplace = false;  // the variant keeps only the rules KeepsSelfPlacement accepts
};

// A parsed and compiled table file.
class StrategyTableFile {
 public:
  // Parses and compiles `text` (the content of `path`). Errors:
  // InvalidArgument "<path>:<line>: field 'op[i].rule[j].placements' ..."
  // (or '.condition', '.name') naming the offending token, for a syntax
  // error, an unknown overload, a placement that does not parse, an unknown
  // name in an expression, a condition variable that no placement binds,
  // an expression that assigns (`ws = 3`: muparser's `=` and `op=` write
  // a variable) or is NaN whatever the sample (0/0), an overload listed
  // twice, or an N-D rule that does not parse, mixes Partial reduce ops
  // on a tensor (nd_rule.h CheckNdRule) or has a condition.
  static absl::StatusOr<StrategyTableFile> FromText(const std::string& text,
                                                    const std::string& path);
  static absl::StatusOr<StrategyTableFile> FromFile(const std::string& path);
  // Compiles a table built in code (e.g. by synthesis); errors as FromText,
  // naming `name` instead of a file and line.
  static absl::StatusOr<StrategyTableFile> FromProto(const StrategyTable& table,
                                                     const std::string& name);

  const std::string& path() const { return path_; }
  // The table of `op` as listed, or nullptr.
  const TableStrategy* Find(const c10::OperatorName& op) const;
  // The claims for `op`: Find(op), else its functional's entry for a
  // variant (TableEntry), else none.
  TableEntry Lookup(const c10::OperatorName& op) const;
  // Every overload in the table, in file order.
  std::vector<const TableStrategy*> ops() const;

 private:
  static absl::StatusOr<StrategyTableFile> Compile(const StrategyTable& table,
                                                   const TextLocations& where);
  std::string path_;
  std::vector<std::unique_ptr<TableStrategy>> ops_;
};

}  // namespace shrt

#endif  // SHRT_STRATEGIES_TABLE_H_
