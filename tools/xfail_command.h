// `shrt xfail add|remove|list`: edit and list op_specs/xfails.textproto
// (shrt/xfail.proto) without hand-editing.
#ifndef TOOLS_XFAIL_COMMAND_H_
#define TOOLS_XFAIL_COMMAND_H_

#include <ostream>
#include <string>

namespace shrt {

struct XfailCommand {
  std::string action;  // "add", "remove" or "list"
  // The xfails file (the CLI resolves relative paths against the
  // workspace under `bazel run`).
  std::string file = "op_specs/xfails.textproto";
  std::string op;          // --op (add, remove; optional filter for list)
  std::string rule;        // --rule (add, remove), canonical or not
  bool all_rules = false;  // --all_rules instead of --rule
  std::string reason;      // --reason (add)
  std::string issue;       // --issue (add): http(s) link, mandatory
  std::string expires;     // --expires (add): optional YYYY-MM-DD
};

// Runs the command; returns 0 on success and 2 on a usage or input error
// (named on `err`: the flag, or the file, line and field).
int RunXfail(const XfailCommand& cmd, std::ostream& out, std::ostream& err);

}  // namespace shrt

#endif  // TOOLS_XFAIL_COMMAND_H_
