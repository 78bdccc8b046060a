// `shrt discover`: find the rules an overload admits, and generalise them
// into symbolic rules with conditions (shrt/report/synthesize.h).
#ifndef TOOLS_DISCOVER_COMMAND_H_
#define TOOLS_DISCOVER_COMMAND_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "absl/time/time.h"

namespace shrt {

struct DiscoverCommand {
  std::string op;                 // --op: found in spec_dir
  std::string spec;               // --spec: a spec file instead
  int world_size = 4;             // --world_size
  std::string format = "text";    // --format: text | json | textproto | cc | python
  std::string spec_dir = "op_specs";
  std::string recipe_dir = "op_specs/recipes";
  uint64_t seed = 0;
  int redraws = 3;
  // Wall time one operator call may take before it counts as crashed.
  absl::Duration call_time_limit = absl::Seconds(60);
  // The program that writes the rules as a DTensor strategy for
  // --format=python (tools/dtensor/python_strategy.py in the CLI's
  // runfiles, run under the torch's interpreter); set by main().
  std::string python_strategy_program;
};

// Runs the command, writing the report to `out` and errors to `err`.
// Returns 0; 1 when the operator crashed (the report lists the crashes;
// shrt/engine/isolation.h); 2 on a usage or input error.
int RunDiscover(const DiscoverCommand& cmd, std::ostream& out, std::ostream& err);

}  // namespace shrt

#endif  // TOOLS_DISCOVER_COMMAND_H_
