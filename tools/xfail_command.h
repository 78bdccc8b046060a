// `shrt xfail add|remove|list`: edit and list op_specs/xfails.textproto
// (shrt/report/xfail.proto) without hand-editing.
//
// add and remove edit the file's text in place (shrt/report/xfail_text.h: every
// comment and the order of entries survive) and replace the file
// atomically (shrt/vocab/atomic_file.h): killed at any moment, or out of disk,
// they leave the old file or the new one, never a torn one, and they write
// nothing if the file changed since they read it. add creates a missing
// file, with a header comment.
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
// (named on `err`: the flag, or the file, line and field), an empty
// (torn) xfails file, an entry the flags repeat (add) or do not name
// (remove), and a failed write (named with its file and errno text; the
// file is then as it was, unless only syncing its directory after the
// rename failed).
int RunXfail(const XfailCommand& cmd, std::ostream& out, std::ostream& err);

}  // namespace shrt

#endif  // TOOLS_XFAIL_COMMAND_H_
