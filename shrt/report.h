// Rendering validation results for people (text) and programs (JSON).
#ifndef SHRT_REPORT_H_
#define SHRT_REPORT_H_

#include <string>
#include <vector>

#include "shrt/validate.h"

namespace shrt {

// Per overload: spec, mesh, recipes, samples, combination checks, seconds,
// then the incorrect, missing, correct and unverified rules with evidence
// and a command that reproduces the run; then a summary table
// `Op | Correct | Incorrect | Missing | Time`. `seconds` is the whole run's
// wall time.
std::string TextReport(const std::vector<OpReport>& ops, int world_size, double seconds);

// {"world_size": W, "seconds": s, "ops": [{"op": ..., "combination_checks":
// n, "seconds": s, "correct": [rule, ...], "incorrect": [{"rule": rule,
// "evidence": "..."}], "missing": [...], "unverified": [...], "error": ""}]}
// (report.proto), rules in canonical text.
std::string JsonReport(const std::vector<OpReport>& ops, int world_size, double seconds);

// The command that re-runs validation of `op` at `world_size`.
std::string ReproCommand(const std::string& op, int world_size);

}  // namespace shrt

#endif  // SHRT_REPORT_H_
