// Xfails (xfail.proto): known incorrect rules, tolerated until a date, each
// with a tracking issue. Strict: an xfail whose rule is no longer incorrect
// is itself a failure ("remove the xfail").
#ifndef SHRT_REPORT_XFAILS_H_
#define SHRT_REPORT_XFAILS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/civil_time.h"
#include "shrt/engine/validate.h"
#include "shrt/report/xfail.pb.h"
#include "shrt/vocab/placement.h"

namespace shrt {

// Entries older than this print a warning.
inline constexpr int kXfailWarnDays = 90;

// One checked entry.
struct XfailEntry {
  Xfail proto;
  std::string op;  // canonical overload
  Rule rule;       // meaningful unless proto.all_rules()
  absl::CivilDay added;
  bool has_expiry = false;
  absl::CivilDay expires;

  // "aten::mean.dim rule 'S(0) -> P(avg)'" or "aten::mean.dim (all rules)".
  std::string Describe() const;
};

// Checks one entry on its own and returns it checked.
// Errors: InvalidArgument with the problem, and `*field` set to the field
// it is in ("op", "rule", ...), for an op that does not parse or that the
// dispatcher lacks, a rule that does not parse or whose arity does not
// match the op's schema (CheckRuleArity, SchemaArity), both or neither of
// rule and all_rules, an empty reason, an issue that is not an http(s)
// URL, a date that is not YYYY-MM-DD, or an expiry before the date added.
absl::StatusOr<XfailEntry> CheckXfail(const Xfail& x, std::string* field);

// Parses and checks xfail text (the content of `path`, or an overload's
// entries embedded in its generated test, where no entries is no text).
// Errors: InvalidArgument "<path>:<line>: field 'xfail[i].<f>': ..." for a
// syntax error, an entry that CheckXfail refuses, or a repeated (op, rule).
absl::StatusOr<std::vector<XfailEntry>> ParseXfails(absl::string_view text,
                                                    const std::string& path);

// As ParseXfails, for the whole content of the xfails file `path`, which is
// never empty (ShRT writes a header comment in every xfails file: an empty
// one was cut short). Errors: also InvalidArgument "<path>: is empty (0
// bytes); ..." for an empty `text`.
absl::StatusOr<std::vector<XfailEntry>> ParseXfailsFile(absl::string_view text,
                                                        const std::string& path);

// As ParseXfailsFile, reading `path`. Errors: also those of ReadFile
// (text_proto.h).
absl::StatusOr<std::vector<XfailEntry>> LoadXfails(const std::string& path);

// Today's date in UTC.
absl::CivilDay Today();

// True if an entry of `entries` for `op` covers `rule` on `today`: it names
// the rule (or all rules) and has not expired.
bool XfailCovers(const std::vector<XfailEntry>& entries, absl::string_view op, const Rule& rule,
                 absl::CivilDay today);

// What the xfail check of one overload finds, given its verdicts merged
// over every sample and world size.
struct XfailFindings {
  std::vector<std::string> failures;  // expired, or no longer failing
  std::vector<std::string> warnings;  // older than kXfailWarnDays
};
XfailFindings JudgeXfails(const std::vector<XfailEntry>& entries, const OpReport& merged,
                          absl::CivilDay today, absl::string_view cli);

}  // namespace shrt

#endif  // SHRT_REPORT_XFAILS_H_
