#include "tools/xfail_command.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/civil_time.h"
#include "shrt/ops/overload_name.h"
#include "shrt/report/xfail_text.h"
#include "shrt/report/xfails.h"
#include "shrt/vocab/atomic_file.h"
#include "tools/validate_command.h"

namespace shrt {

int RunXfail(const XfailCommand& cmd, std::ostream& out, std::ostream& err) {
  auto usage = [&](absl::string_view message) {
    return UsageError(err, absl::StrCat("xfail ", cmd.action), message);
  };
  if (cmd.action != "add" && cmd.action != "remove" && cmd.action != "list") {
    return usage("the action must be add, remove or list");
  }
  const std::string& path = cmd.file;
  // What was read, compared with the file again just before it is replaced.
  absl::StatusOr<FileSnapshot> read = ReadSnapshot(path);
  if (!read.ok()) return usage(read.status().message());
  if (!read->has_value() && cmd.action != "add") return usage(absl::StrCat(path, ": no such file"));
  const std::string text = read->has_value() ? **read : std::string(kNewXfailsFile);
  absl::StatusOr<std::vector<XfailEntry>> entries = ParseXfailsFile(text, path);
  if (!entries.ok()) return usage(entries.status().message());

  if (cmd.action == "list") {
    std::string op;
    if (!cmd.op.empty()) {
      absl::StatusOr<c10::OperatorName> name = ParseOverloadName(cmd.op);
      if (!name.ok()) return usage(absl::StrCat("--op: ", name.status().message()));
      op = OverloadToString(*name);
    }
    const absl::CivilDay today = Today();
    for (const XfailEntry& e : *entries) {
      if (!op.empty() && e.op != op) continue;
      std::string state = e.has_expiry && today > e.expires ? "EXPIRED" : "";
      if (state.empty() && today - e.added > kXfailWarnDays) state = "OLD";
      out << absl::StrFormat("%s | %s | %s | added %s%s%s | %s\n", e.op,
                             e.proto.all_rules() ? "(all rules)" : RuleToString(e.rule),
                             e.proto.issue(), e.proto.added(),
                             e.proto.expires().empty() ? "" : absl::StrCat(", expires ", e.proto.expires()),
                             state.empty() ? "" : absl::StrCat(" ", state), e.proto.reason());
    }
    return 0;
  }
  if (cmd.op.empty()) return usage("--op is required");
  absl::StatusOr<c10::OperatorName> name = ParseOverloadName(cmd.op);
  if (!name.ok()) return usage(absl::StrCat("--op: ", name.status().message()));
  const std::string op = OverloadToString(*name);
  if (cmd.all_rules == !cmd.rule.empty()) return usage("give exactly one of --rule and --all_rules");
  // The entry the flags name, identified by Describe() as in ParseXfails.
  XfailEntry named;
  named.op = op;
  named.proto.set_op(op);
  named.proto.set_all_rules(cmd.all_rules);
  if (!cmd.all_rules) {
    absl::StatusOr<Rule> r = ParseRule(cmd.rule);
    if (!r.ok()) return usage(absl::StrCat("--rule: ", r.status().message()));
    named.rule = *r;
    named.proto.set_rule(RuleToString(*r));
  }
  const std::string what = absl::StrCat("xfail for ", named.Describe());
  auto existing = std::find_if(entries->begin(), entries->end(), [&](const XfailEntry& e) {
    return e.Describe() == named.Describe();
  });
  // The edit: the new entry's text appended, or the old entry's text cut.
  // The result needs no second check: the edit is verified to leave the
  // checked entries as they were and to add one checked, new entry.
  absl::StatusOr<std::string> edited;
  if (cmd.action == "add") {
    if (existing != entries->end()) return usage(absl::StrCat(path, " already has an ", what));
    Xfail x = named.proto;
    x.set_reason(cmd.reason);
    x.set_issue(cmd.issue);
    x.set_added(absl::FormatCivilTime(Today()));
    x.set_expires(cmd.expires);
    std::string field;
    if (absl::StatusOr<XfailEntry> checked = CheckXfail(x, &field); !checked.ok()) {
      return usage(absl::StrCat("--", field, ": ", checked.status().message()));
    }
    edited = AppendXfail(text, path, x);
  } else {
    if (existing == entries->end()) return usage(absl::StrCat("no ", what, " in ", path));
    edited = RemoveXfail(text, path, static_cast<int>(existing - entries->begin()));
  }
  if (!edited.ok()) return usage(absl::StrCat(edited.status().message(), "; nothing written"));
  if (absl::Status s = WriteFileAtomically(path, *read, *edited); !s.ok()) return usage(s.message());
  out << (cmd.action == "add" ? "added " : "removed ") << what << " in " << path << "\n";
  return 0;
}

}  // namespace shrt
