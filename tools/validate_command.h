// `shrt validate`: validate registered strategies (or, later, tables)
// against ground truth for the overloads that have specs, and print the
// report.
#ifndef TOOLS_VALIDATE_COMMAND_H_
#define TOOLS_VALIDATE_COMMAND_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "shrt/strategies/registry.h"

namespace shrt {

struct ValidateCommand {
  std::vector<std::string> ops;  // --op, canonical or alias spellings
  bool all = false;              // --all: every overload with a spec and a strategy
  std::vector<std::string> specs;  // --spec: spec files, possibly outside spec_dir
  // --strategies: a strategy table (shrt/strategies/table.proto) whose rules are
  // validated instead of the registered strategies.
  std::string strategies;
  // --dtensor: validate the rules the installed torch's DTensor registers
  // (tools/dtensor/, DESIGN.md §11) instead of the registered strategies.
  bool dtensor = false;
  // The Python program that exports DTensor's claims
  // (tools/dtensor/export_claims.py in the CLI's runfiles, run under the
  // interpreter of the torch ShRT is built against); set by main().
  std::string dtensor_program;
  // --dtensor_rules: Python files run before DTensor is asked, which
  // register DTensor strategies (e.g. for the custom ops of --load).
  std::vector<std::string> dtensor_rules;
  int world_size = 4;            // --world_size
  // --mesh: an N-D mesh such as "2x2" (shrt/vocab/mesh.h MeshShape::Parse); when
  // set, each strategy's expansion to it is validated (DESIGN.md §9)
  // instead of its rules on the 1-D mesh of world_size.
  std::string mesh;
  std::string format = "text";   // --format: text | json
  // --html: also write the report as one self-contained HTML file to this
  // path; empty writes none.
  std::string html;
  bool quiet = false;  // --quiet: no progress line on a terminal (tools/progress.h)
  // --load: the custom-op libraries main() loaded before the run
  // (load_libraries.h); repro commands name them.
  std::vector<std::string> load;
  std::string spec_dir = "op_specs";       // --spec_dir: root of the spec tree
  // --recipe_dir; the CLI's default is DefaultRecipeDir(spec_dir)
  // (spec_tree.h).
  std::string recipe_dir = "op_specs/recipes";
  uint64_t seed = 0;
  int jobs = 0;  // --jobs: overloads validated in parallel; 0 = one per core
  int redraws = 3;
  // --call_time_limit: wall time one operator call may take before it
  // counts as crashed (shrt/engine/isolation.h).
  absl::Duration call_time_limit = absl::Seconds(60);
};

// Exit statuses of the CLI.
inline constexpr int kExitOk = 0;         // no rule is incorrect
// Some rule is incorrect, a strategy failed, or an operator crashed
// (a crash its spec does not explain).
inline constexpr int kExitIncorrect = 1;
inline constexpr int kExitUsage = 2;      // usage or input error (flags, specs, overloads)

// Writes "shrt <command>: <message>" ("shrt: <message>" for an empty
// command) and a newline to `err` with control
// characters escaped (shrt/vocab/printable.h: a name a user typed cannot move
// the cursor or forge a line), and returns kExitUsage: how every command
// reports a usage or input error.
int UsageError(std::ostream& err, absl::string_view command, absl::string_view message);

// Runs the command with `registry`'s strategies, writing the report to
// `out` and errors to `err`; returns the exit status above. With --all and
// --strategies, a table entry whose overload has no spec in spec_dir is a
// warning on `err` naming its file and line (the table may serve other
// spec trees too; the exit status is unchanged). With --html, the same
// report (the ValidationReport that --format=json prints) is also written
// to that file as one self-contained HTML page (shrt/report/html_report.h),
// replaced atomically (shrt/vocab/atomic_file.h); a directory that does not exist
// or cannot be written is found before the run, and any failure to write
// is a usage error naming --html (kExitUsage). With --dtensor, DTensor is
// asked about every sample first (tools/dtensor/ask_dtensor.h); --all then
// validates the overloads it has a strategy for and lists the others
// (ValidationReport.without_strategy); an overload it has none for, named
// by --op or --spec, reports every valid rule missing without failing the
// run, as an unregistered overload does.
int RunValidate(const ValidateCommand& cmd, const StrategyRegistry& registry, std::ostream& out,
                std::ostream& err);

}  // namespace shrt

#endif  // TOOLS_VALIDATE_COMMAND_H_
