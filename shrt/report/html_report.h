// The HTML validation report: `shrt validate ... --html=FILE`.
//
// One self-contained page, readable offline in any browser: no network, no
// external script, style sheet, font or image. It holds the report's JSON
// (exactly what --format=json prints: ReportJson, report.h) in a
//   <script type="application/json" id="report-data">
// block inside a static template (shrt/report/html_report.html: HTML, inline CSS
// and inline vanilla JavaScript), and the template's script renders, from
// that data alone:
//   - a summary: world size or mesh, overloads, correct / incorrect /
//     missing / unverified totals, wall time;
//   - a table of overloads, sortable by any column and filterable by name
//     and by verdict, overloads with an incorrect rule first;
//   - per overload a placement matrix: one row per input placement tuple
//     (the rule text before " -> "), one column per output placement tuple
//     (the text after it); each cell is coloured AND lettered by what ground
//     truth and the strategy say (C claimed and valid, X claimed and
//     invalid, M valid but not claimed, ? unverified, · neither), with a
//     legend; a cell opens its evidence and the overload's repro command.
//     A matrix is drawn when its section first opens; sections with an
//     incorrect rule, an error or a crash (and all, for up to 12
//     overloads) open at once.
// Elements carry data- attributes for tests (data-op, data-verdict,
// data-rule, data-cell).
#ifndef SHRT_REPORT_HTML_REPORT_H_
#define SHRT_REPORT_HTML_REPORT_H_

#include <string>

#include "absl/strings/string_view.h"

namespace shrt {

// The whole HTML page of a report given as its JSON, `report_json` =
// ReportJson(report) (report.h). Every "<" of the embedded JSON is written
// as \u003c (protobuf's printer does so already; this function makes sure),
// so no string in the report (an error message holding "</script>", say)
// can end the data block early. Cannot fail.
std::string RenderHtmlReport(absl::string_view report_json);

}  // namespace shrt

#endif  // SHRT_REPORT_HTML_REPORT_H_
