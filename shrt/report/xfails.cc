#include "shrt/report/xfails.h"

#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "shrt/ops/op_lookup.h"
#include "shrt/ops/overload_name.h"
#include "shrt/vocab/text_proto.h"

namespace shrt {
namespace {

bool ParseDay(const std::string& text, absl::CivilDay* day) {
  return text.size() == 10 && absl::ParseCivilTime(text, day);
}

}  // namespace

std::string XfailEntry::Describe() const {
  return proto.all_rules() ? absl::StrCat(op, " (all rules)")
                           : absl::StrCat(op, " rule '", RuleToString(rule), "'");
}

absl::StatusOr<XfailEntry> CheckXfail(const Xfail& x, std::string* field) {
  auto bad = [&](absl::string_view f, absl::string_view what) {
    *field = std::string(f);
    return absl::InvalidArgumentError(what);
  };
  XfailEntry e;
  e.proto = x;
  absl::StatusOr<c10::OperatorName> op = ParseOverloadName(x.op());
  if (!op.ok()) return bad("op", op.status().message());
  absl::StatusOr<RuleArity> arity = SchemaArity(*op);
  if (!arity.ok()) return bad("op", arity.status().message());
  e.op = OverloadToString(*op);
  if (x.all_rules() == !x.rule().empty()) {
    return bad("rule", "give exactly one of rule and all_rules: true");
  }
  if (!x.all_rules()) {
    absl::StatusOr<Rule> rule = ParseRule(x.rule());
    if (!rule.ok()) return bad("rule", rule.status().message());
    if (absl::Status s = CheckRuleArity(*rule, *arity); !s.ok()) {
      return bad("rule", absl::StrCat("'", RuleToString(*rule), "' ", s.message(), " (", e.op, ")"));
    }
    e.rule = *rule;
  }
  if (x.reason().empty()) return bad("reason", "is required");
  if (!absl::StartsWith(x.issue(), "https://") && !absl::StartsWith(x.issue(), "http://")) {
    return bad("issue", "a link to the tracking issue (http:// or https://) is required");
  }
  if (!ParseDay(x.added(), &e.added)) return bad("added", "must be a date YYYY-MM-DD");
  if (!x.expires().empty()) {
    if (!ParseDay(x.expires(), &e.expires)) return bad("expires", "must be a date YYYY-MM-DD");
    if (e.expires < e.added) return bad("expires", "is before the date added");
    e.has_expiry = true;
  }
  return e;
}

absl::StatusOr<std::vector<XfailEntry>> ParseXfails(absl::string_view text,
                                                    const std::string& path) {
  XfailList list;
  absl::StatusOr<TextLocations> where = ParseTextProto(text, path, &list);
  if (!where.ok()) return where.status();
  std::vector<XfailEntry> entries;
  absl::flat_hash_set<std::string> seen;
  for (int i = 0; i < list.xfail_size(); ++i) {
    auto bad = [&](absl::string_view field, absl::string_view what) {
      return FieldError(where->Where({{"xfail", i}, {std::string(field), -1}}, list),
                        absl::StrCat("xfail[", i, "].", field), what);
    };
    std::string field;
    absl::StatusOr<XfailEntry> e = CheckXfail(list.xfail(i), &field);
    if (!e.ok()) return bad(field, e.status().message());
    if (!seen.insert(e->Describe()).second) return bad("op", absl::StrCat(e->Describe(), " is listed twice"));
    entries.push_back(*std::move(e));
  }
  return entries;
}

absl::StatusOr<std::vector<XfailEntry>> ParseXfailsFile(absl::string_view text,
                                                        const std::string& path) {
  if (text.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": is empty (0 bytes); an xfails file always has at least its header comment, "
              "so this one was cut short: restore it (e.g. from version control)"));
  }
  return ParseXfails(text, path);
}

absl::StatusOr<std::vector<XfailEntry>> LoadXfails(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  return ParseXfailsFile(*text, path);
}

absl::CivilDay Today() { return absl::ToCivilDay(absl::Now(), absl::UTCTimeZone()); }

bool XfailCovers(const std::vector<XfailEntry>& entries, absl::string_view op, const Rule& rule,
                 absl::CivilDay today) {
  for (const XfailEntry& e : entries) {
    if (e.op != op || (e.has_expiry && today > e.expires)) continue;
    if (e.proto.all_rules() || e.rule == rule) return true;
  }
  return false;
}

XfailFindings JudgeXfails(const std::vector<XfailEntry>& entries, const OpReport& merged,
                          absl::CivilDay today, absl::string_view cli) {
  XfailFindings f;
  for (const XfailEntry& e : entries) {
    if (e.op != merged.op) continue;
    if (e.has_expiry && today > e.expires) {
      f.failures.push_back(absl::StrCat("xfail for ", e.Describe(), " expired on ",
                                        e.proto.expires(), " (", e.proto.issue(),
                                        "): fix the rule or extend the xfail"));
      continue;
    }
    if (today - e.added > kXfailWarnDays) {
      f.warnings.push_back(absl::StrCat("xfail for ", e.Describe(), " is ", today - e.added,
                                        " days old (added ", e.proto.added(), "; ",
                                        e.proto.issue(), ")"));
    }
    bool still_fails = false;
    std::string now = "not judged by any sample";
    for (const RuleVerdict& v : merged.rules) {
      if (!e.proto.all_rules() && v.rule != e.rule) continue;
      if (v.verdict == Verdict::kIncorrect) still_fails = true;
      if (!e.proto.all_rules()) now = std::string(VerdictName(v.verdict));
    }
    if (!still_fails) {
      f.failures.push_back(absl::StrCat(
          "xfail for ", e.Describe(), " no longer fails (", e.proto.all_rules() ? "no rule is incorrect" : now,
          "): remove the xfail: bazel run ", cli, " -- xfail remove --op=", e.op,
          e.proto.all_rules() ? " --all_rules" : absl::StrCat(" --rule='", RuleToString(e.rule), "'")));
    }
  }
  return f;
}

}  // namespace shrt
