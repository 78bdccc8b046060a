// `shrt groups`: the op group (functional, in-place, out=) of every spec of
// a spec tree, from the dispatcher's schemas, as the Starlark manifest the
// Bazel macro reads (shrt/report/group_manifest.h). Prints it, or with --write
// replaces <spec_dir>/groups.bzl atomically.
#ifndef TOOLS_GROUPS_COMMAND_H_
#define TOOLS_GROUPS_COMMAND_H_

#include <ostream>
#include <string>

namespace shrt {

struct GroupsCommand {
  bool write = false;  // --write: replace <spec_dir>/groups.bzl
  std::string spec_dir = "op_specs";
  std::string recipe_dir = "op_specs/recipes";
};

// Returns kExitOk, or kExitUsage on a spec error (file, line, field) or a
// file that cannot be written (nothing is then changed).
int RunGroups(const GroupsCommand& cmd, std::ostream& out, std::ostream& err);

}  // namespace shrt

#endif  // TOOLS_GROUPS_COMMAND_H_
