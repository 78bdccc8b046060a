#include "tools/dtensor/known_findings.h"

#include <map>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "shrt/vocab/nd_rule.h"
#include "shrt/vocab/placement.h"
#include "shrt/vocab/text_proto.h"

namespace shrt {
namespace {

// The canonical text of a 1-D or N-D rule.
absl::StatusOr<std::string> CanonicalRule(const std::string& text) {
  if (absl::StatusOr<Rule> rule = ParseRule(text); rule.ok()) return RuleToString(*rule);
  absl::StatusOr<NdRule> nd = ParseNdRule(text);
  if (!nd.ok()) return nd.status();
  return NdRuleToString(*nd);
}

}  // namespace

absl::StatusOr<std::vector<KnownEntry>> LoadKnownFindings(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  dtensor::KnownFindings list;
  absl::StatusOr<TextLocations> where = ParseTextProto(*text, path, &list);
  if (!where.ok()) return where.status();
  std::vector<KnownEntry> out;
  std::set<std::pair<std::string, std::string>> seen;
  for (int i = 0; i < list.finding_size(); ++i) {
    const dtensor::KnownFinding& f = list.finding(i);
    auto bad = [&](absl::string_view field, absl::string_view what) {
      return FieldError(where->Where({{"finding", i}, {std::string(field), -1}}, list),
                        absl::StrCat("finding[", i, "].", field), what);
    };
    if (f.op().empty()) return bad("op", "is empty");
    if (f.evidence().empty()) return bad("evidence", "is empty: say what is wrong, in one line");
    absl::StatusOr<std::string> rule = CanonicalRule(f.rule());
    if (!rule.ok()) return bad("rule", rule.status().message());
    if (f.upstream() != "unreported" && !absl::StartsWith(f.upstream(), "https://") &&
        !absl::StartsWith(f.upstream(), "http://")) {
      return bad("upstream", absl::StrCat("'", f.upstream(),
                                          "' is neither an http(s) URL nor \"unreported\""));
    }
    if (!seen.insert({f.op(), *rule}).second) {
      return bad("rule", absl::StrCat(f.op(), " ", *rule, " is listed twice"));
    }
    out.push_back({f, *rule, where->Where({{"finding", i}}, list)});
  }
  return out;
}

KnownCheck CheckKnownFindings(const std::vector<ValidationReport>& reports,
                              const std::vector<KnownEntry>& known) {
  std::set<std::pair<std::string, std::string>> listed, found;
  for (const KnownEntry& k : known) listed.insert({k.finding.op(), k.rule});
  KnownCheck check;
  for (const ValidationReport& report : reports) {
    const std::string run = report.mesh().empty() ? absl::StrCat("W=", report.world_size())
                                                  : report.mesh();
    for (const OpVerdicts& op : report.ops()) {
      for (const IncorrectRule& r : op.incorrect()) {
        found.insert({op.op(), r.rule()});
        if (listed.count({op.op(), r.rule()}) == 0) {
          check.unlisted.push_back(
              absl::StrCat(op.op(), ": ", r.rule(), " (", run, "): ", r.evidence()));
        }
      }
    }
  }
  for (const KnownEntry& k : known) {
    if (found.count({k.finding.op(), k.rule}) == 0) {
      check.stale.push_back(absl::StrCat(k.where, ": ", k.finding.op(), ": ", k.rule));
    }
  }
  return check;
}

}  // namespace shrt
