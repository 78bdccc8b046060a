// `shrt coverage`: which of the dispatcher's overloads have a spec, a
// registered strategy, or both (checked by a generated test), by namespace
// and by spec family, listing what lacks one of the two (shrt/coverage.h).
#ifndef TOOLS_COVERAGE_COMMAND_H_
#define TOOLS_COVERAGE_COMMAND_H_

#include <ostream>
#include <string>

#include "shrt/registry.h"

namespace shrt {

struct CoverageCommand {
  std::string ns;                 // --namespace: only this one ("aten"); "" for all
  bool uncovered = false;         // --uncovered: list overloads with neither
  std::string format = "text";    // --format: text | json
  std::string spec_dir = "op_specs";
  std::string recipe_dir = "op_specs/recipes";
};

// Runs the command against `registry` and the dispatcher's overloads,
// writing the report to `out` and errors to `err`. Returns kExitOk, or
// kExitUsage on a usage or spec error (naming the file, line and field).
int RunCoverage(const CoverageCommand& cmd, const StrategyRegistry& registry, std::ostream& out,
                std::ostream& err);

}  // namespace shrt

#endif  // TOOLS_COVERAGE_COMMAND_H_
