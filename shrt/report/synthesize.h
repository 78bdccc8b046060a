// Conditional rule synthesis: generalising the concrete valid rules that
// ground truth finds on each sample into symbolic table rules with
// conditions, e.g. for aten::sum.dim_IntList
//   S(d) -> P(sum)                      when d in dim
//   S(d) -> S(d - count_lt(dim, d))     when !(d in dim) && !keepdim
//
// Candidates come from each valid concrete rule: its shard dims written as
// free variables (d, e, ...), as dim arguments (S(dim)), as a dim shifted
// by the dims a reduction removes (d - count_lt(dim, d), d - (d > dim)), or
// as literals; conditions are conjunctions of up to three atoms over the
// sample's arguments (`d in dim`, `d != dim`, `keepdim`,
// `size(self, d) == size(index, d)`, ...). A candidate is kept only if
// every concrete rule it yields on every sample holds in every case of that
// sample (the re-check), and candidates are chosen greedily by how many
// (sample, valid rule) pairs they explain, simplest first on ties.
#ifndef SHRT_REPORT_SYNTHESIZE_H_
#define SHRT_REPORT_SYNTHESIZE_H_

#include <string>
#include <vector>

#include "ATen/core/operator_name.h"
#include "absl/status/statusor.h"
#include "shrt/engine/validate.h"

namespace shrt {

struct SynthesizedRule {
  std::string placements;  // table.proto placements text
  std::string condition;   // table.proto condition, "" when unconditional
  int covers = 0;          // (sample, valid concrete rule) pairs it explains
};

struct Synthesis {
  std::vector<SynthesizedRule> rules;  // most covering first
  // Valid concrete rules that no synthesised rule explains, per sample.
  std::vector<std::pair<std::string, std::vector<Rule>>> uncovered;
};

// Synthesises rules for `op` from the ground truth of its samples
// (ground_truth.h SpecTruth) found at `world_size`. Errors: those of compiling a candidate (an internal error).
absl::StatusOr<Synthesis> Synthesize(const c10::OperatorName& op,
                                     const std::vector<SampleTruth>& truths, int world_size);

}  // namespace shrt

#endif  // SHRT_REPORT_SYNTHESIZE_H_
