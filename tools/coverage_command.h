// `shrt coverage`: every overload of the dispatcher accounted for, by
// namespace: checked (a spec and a registered strategy: a generated test),
// not checkable here (by category: shrt/report/checkability.h, with the overloads
// named in <spec_dir>/not_checkable.textproto), or not yet covered; and the
// specs by family, listing what lacks a spec or a strategy
// (shrt/report/coverage.h).
#ifndef TOOLS_COVERAGE_COMMAND_H_
#define TOOLS_COVERAGE_COMMAND_H_

#include <ostream>
#include <string>

#include "shrt/strategies/registry.h"

namespace shrt {

struct CoverageCommand {
  std::string ns;                 // --namespace: only this one ("aten"); "" for all
  bool uncovered = false;         // --uncovered: list the not yet covered, by family
  std::string format = "text";    // --format: text | json
  std::string spec_dir = "op_specs";
  std::string recipe_dir = "op_specs/recipes";
};

// Runs the command against `registry` and the dispatcher's overloads,
// writing the report to `out` and errors to `err`. Returns kExitOk, or
// kExitUsage on a usage or spec error (naming the file, line and field),
// including a bad not_checkable.textproto (a missing one is empty).
int RunCoverage(const CoverageCommand& cmd, const StrategyRegistry& registry, std::ostream& out,
                std::ostream& err);

}  // namespace shrt

#endif  // TOOLS_COVERAGE_COMMAND_H_
