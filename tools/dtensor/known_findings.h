// The known-findings list of DTensor's incorrect rules (known.proto,
// dtensor/known.textproto) and its check against `validate --dtensor`
// reports: what the nightly run fails on.
#ifndef TOOLS_DTENSOR_KNOWN_FINDINGS_H_
#define TOOLS_DTENSOR_KNOWN_FINDINGS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "shrt/report/report.pb.h"
#include "tools/dtensor/known.pb.h"

namespace shrt {

// One entry, its rule in canonical text, and "<path>:<line>" of it.
struct KnownEntry {
  dtensor::KnownFinding finding;
  std::string rule;
  std::string where;
};

// Reads a known-findings file. Errors: the text_proto.h forms
// ("<path>:<line>: field 'finding[i].<f>': ...") for a syntax error, an
// empty op or evidence, a rule that parses neither as a 1-D nor as an N-D
// rule, an upstream that is neither an http(s) URL nor "unreported", or an
// (op, rule) listed twice.
absl::StatusOr<std::vector<KnownEntry>> LoadKnownFindings(const std::string& path);

// What a set of reports says against the list.
struct KnownCheck {
  // Incorrect rules no entry lists: "aten::x: RULE (W=4): evidence".
  std::vector<std::string> unlisted;
  // Entries no report finds incorrect: "<path>:<line>: aten::x: RULE".
  std::vector<std::string> stale;
};

// Checks `reports` (ValidationReport JSON of `validate --dtensor`, 1-D or
// N-D, together covering the runs the list is kept for) against `known`.
KnownCheck CheckKnownFindings(const std::vector<ValidationReport>& reports,
                              const std::vector<KnownEntry>& known);

}  // namespace shrt

#endif  // TOOLS_DTENSOR_KNOWN_FINDINGS_H_
