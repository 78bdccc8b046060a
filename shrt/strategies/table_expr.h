// The expression language of strategy tables (shrt/strategies/table.proto): muparser
// expressions over a sample's int and bool arguments, tensor handles and
// free variables, in doubles, with the world size `ws`, the functions
// ndim(t), size(t, d) and count_lt(mask, d), the operator `d in mask` (a dim
// set: bit d of an int-list argument) and the prefix `!`. Internal to
// table.cc, which compiles a table's rules with it (namespace table_internal).
#ifndef SHRT_STRATEGIES_TABLE_EXPR_H_
#define SHRT_STRATEGIES_TABLE_EXPR_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "muParser.h"

namespace shrt {
namespace table_internal {

// Names an expression may use besides arguments and free variables.
inline constexpr absl::string_view kWorldSize = "ws";
inline constexpr absl::string_view kFunctions[] = {"ndim", "size", "count_lt"};

// What the muparser callbacks of one compiled rule read.
struct EvalContext {
  std::map<std::string, std::unique_ptr<double>> vars;  // stable addresses
  std::vector<std::vector<int64_t>> shapes;              // tensor handle -> sizes
  std::set<std::string> unusable;                        // None (or non-numeric) here
  std::string error;                                     // set by a callback
};

// A parser for `expr` reading `ctx` (its variables by address, its shapes
// through ndim() and size()); the functions and operators above defined.
// muparser reports a bad expression when it is first evaluated or its
// variables are asked for (mu::Parser::exception_type).
std::unique_ptr<mu::Parser> MakeTableParser(const std::string& expr, EvalContext& ctx);

// The value of `p`, or nullopt when it reads a variable in ctx.unusable
// (of `used`, the names it reads). Errors: InvalidArgument with a
// callback's error (ctx.error) or muparser's message (ParserError).
absl::StatusOr<std::optional<double>> EvalTableExpr(mu::Parser& p,
                                                    const std::set<std::string>& used,
                                                    EvalContext& ctx);

// The identifiers of `expr`, in order, repeats included.
std::vector<std::string> Identifiers(absl::string_view expr);

// Splits at top-level commas (not inside parentheses).
std::vector<std::string> SplitTopLevel(absl::string_view text);

// Why `expr` assigns (muparser's `=`, `+=`, `-=`, `*=`, `/=` write a
// variable and yield the value written: `ws = 3` would hold everywhere and
// change ws for the rest of the rule), or "". Comparisons `==`, `!=`,
// `<=`, `>=` are not assignments.
std::string Assignment(absl::string_view expr);

// muparser's message, with the offending token.
std::string ParserError(const mu::Parser::exception_type& e);

}  // namespace table_internal
}  // namespace shrt

#endif  // SHRT_STRATEGIES_TABLE_EXPR_H_
