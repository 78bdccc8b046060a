// Rendering validation results for people (text) and programs (JSON).
#ifndef SHRT_REPORT_REPORT_H_
#define SHRT_REPORT_REPORT_H_

#include <string>
#include <vector>

#include "shrt/engine/validate.h"
#include "shrt/report/report.pb.h"

namespace shrt {

// Per overload: spec, mesh, recipes, samples, combination checks, seconds,
// then the incorrect, missing, correct and unverified rules with evidence
// and a command that reproduces the run; then a summary table
// `Op | Correct | Incorrect | Missing | Time`. `seconds` is the whole run's
// wall time. On an N-D mesh (OpReport::mesh) the rules are N-D rules, and
// the composition failures among the incorrect ones are listed apart
// (nd_verdicts.h); "missing" are the rules the expansion filters out
// although they hold.
std::string TextReport(const std::vector<OpReport>& ops, int world_size, double seconds);

// The machine-readable report of a run (report.proto ValidationReport):
// {"world_size": W, "seconds": s, "ops": [{"op": ..., "combination_checks":
// n, "seconds": s, "correct": [rule, ...], "incorrect": [{"rule": rule,
// "evidence": "..."}], "missing": [...], "unverified": [...], "error": "",
// "repro": "bazel run ..."}]}, rules in canonical text; on an N-D mesh,
// N-D rule text, "mesh": "2x2", and a composition failure's IncorrectRule
// has category "composition failure". `--format=json` and `--html`
// (html_report.h) print this one message.
ValidationReport ReportProto(const std::vector<OpReport>& ops, int world_size, double seconds);

// `report` as `shrt validate --format=json` prints it: protobuf's JSON
// printer with snake_case field names, empty fields and lists kept,
// indented, and a final newline.
std::string ReportJson(const ValidationReport& report);

// A validation to reproduce: which `shrt` binary, what it validates, how.
struct Repro {
  // The Bazel target of a `shrt` binary that knows the strategy (a custom
  // op's own CLI, e.g. //testing/custom_op:shrt).
  std::string cli = "//tools:shrt";
  // --spec=FILE when set, else --op=OP.
  std::string spec;
  std::string op;
  // --strategies=TABLE when set.
  std::string strategies;
  // --dtensor: DTensor's rules (tools/dtensor/).
  bool dtensor = false;
  // --dtensor_rules=FILE.py[,...]: the strategy registrations the run
  // loaded into DTensor first (with dtensor only).
  std::vector<std::string> dtensor_rules;
  int world_size = 4;
  // --mesh=2x2 instead of --world_size when set (an N-D mesh).
  std::string mesh;
  // --load=LIB.so[,...]: the custom-op libraries the run loaded.
  std::vector<std::string> load;
};

// The one builder of reproduction commands, e.g. "bazel run //tools:shrt --
// validate --spec=op_specs/binary/aten_add_Tensor.textproto --world_size=3"
// (reports, generated tests and the CLI all print this).
std::string ReproCommand(const Repro& repro);

}  // namespace shrt

#endif  // SHRT_REPORT_REPORT_H_
