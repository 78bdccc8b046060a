#include "tools/xfail_command.h"

#include <fstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/time/civil_time.h"
#include "google/protobuf/text_format.h"
#include "shrt/overload_name.h"
#include "shrt/text_proto.h"
#include "shrt/xfails.h"
#include "tools/validate_command.h"

namespace shrt {
namespace {

// The leading comment block of `text`, kept when the file is rewritten.
std::string Header(const std::string& text) {
  std::string header;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (!absl::StartsWith(line, "#")) break;
    absl::StrAppend(&header, line, "\n");
  }
  return header;
}

// Checks `list` as the new content of `path` and writes it.
absl::Status Write(const std::string& path, const std::string& header, const XfailList& list) {
  std::string body;
  google::protobuf::TextFormat::PrintToString(list, &body);
  const std::string text = header + (header.empty() || body.empty() ? "" : "\n") + body;
  if (absl::StatusOr<std::vector<XfailEntry>> check = ParseXfails(text, path); !check.ok()) {
    return check.status();
  }
  std::ofstream out(path);
  out << text;
  if (!out) return absl::InternalError(absl::StrCat(path, ": cannot write the file"));
  return absl::OkStatus();
}

bool Matches(const XfailEntry& e, const std::string& op, const Rule* rule, bool all_rules) {
  if (e.op != op) return false;
  return all_rules ? e.proto.all_rules() : (!e.proto.all_rules() && rule && e.rule == *rule);
}

}  // namespace

int RunXfail(const XfailCommand& cmd, std::ostream& out, std::ostream& err) {
  auto usage = [&](absl::string_view message) {
    return UsageError(err, absl::StrCat("xfail ", cmd.action), message);
  };
  const std::string& path = cmd.file;
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return usage(text.status().message());
  absl::StatusOr<std::vector<XfailEntry>> entries = ParseXfails(*text, path);
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
  if (cmd.action != "add" && cmd.action != "remove") {
    return usage("the action must be add, remove or list");
  }
  if (cmd.op.empty()) return usage("--op is required");
  absl::StatusOr<c10::OperatorName> name = ParseOverloadName(cmd.op);
  if (!name.ok()) return usage(absl::StrCat("--op: ", name.status().message()));
  const std::string op = OverloadToString(*name);
  if (cmd.all_rules == !cmd.rule.empty()) return usage("give exactly one of --rule and --all_rules");
  std::optional<Rule> rule;
  if (!cmd.all_rules) {
    absl::StatusOr<Rule> r = ParseRule(cmd.rule);
    if (!r.ok()) return usage(absl::StrCat("--rule: ", r.status().message()));
    rule = *r;
  }
  if (cmd.action == "add") {
    absl::CivilDay day;
    if (cmd.reason.empty()) return usage("--reason is required");
    if (!absl::StartsWith(cmd.issue, "https://") && !absl::StartsWith(cmd.issue, "http://")) {
      return usage("--issue: a link to the tracking issue (http:// or https://) is required");
    }
    if (!cmd.expires.empty() && (cmd.expires.size() != 10 || !absl::ParseCivilTime(cmd.expires, &day))) {
      return usage("--expires: must be a date YYYY-MM-DD");
    }
  }
  XfailList list;
  for (const XfailEntry& e : *entries) {
    if (cmd.action == "remove" && Matches(e, op, rule ? &*rule : nullptr, cmd.all_rules)) continue;
    *list.add_xfail() = e.proto;
  }
  if (cmd.action == "remove") {
    if (list.xfail_size() == static_cast<int>(entries->size())) {
      return usage(absl::StrCat("no xfail for ", op, cmd.all_rules ? " (all rules)" : absl::StrCat(" rule '", cmd.rule, "'"), " in ", path));
    }
  } else {
    Xfail* x = list.add_xfail();
    x->set_op(op);
    if (rule) x->set_rule(RuleToString(*rule));
    x->set_all_rules(cmd.all_rules);
    x->set_reason(cmd.reason);
    x->set_issue(cmd.issue);
    x->set_added(absl::FormatCivilTime(Today()));
    x->set_expires(cmd.expires);
  }
  if (absl::Status s = Write(path, Header(*text), list); !s.ok()) {
    // Name the flag behind the field that failed.
    return usage(absl::StrCat(s.message(), " (from the flags; nothing was written)"));
  }
  out << (cmd.action == "add" ? "added" : "removed") << " xfail for " << op
      << (cmd.all_rules ? " (all rules)" : absl::StrCat(" rule '", rule ? RuleToString(*rule) : "", "'"))
      << " in " << path << "\n";
  return 0;
}

}  // namespace shrt
