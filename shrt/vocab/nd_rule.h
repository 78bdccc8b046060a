// N-D rules: a single-dim strategy's rules expanded to a mesh of several
// dims (DESIGN.md §9).
//
// On a mesh of shape (W0, W1[, W2]) every tensor has one placement per mesh
// dim, written as DTensor prints a DTensorSpec's placements: `[S(0), S(1)]`
// (mesh dim 0 first). An N-D rule has one such list per tensor, inputs then
// outputs:
//
//   [S(0), S(1)], [S(0), R] -> [S(0), S(1)]
//
// It is stored as one single-dim rule per mesh dim (NdRule::mesh_dims),
// which is how DTensor's expand_to_full_mesh_op_strategy builds it: the
// product over mesh dims of single-dim rules, zipped per tensor
// (torch/distributed/tensor/_ops/utils.py).
//
// Partial on several mesh dims must be one reduce op: `[P(sum), P(sum)]` is
// a placement, `[P(sum), P(max)]` is not (DTensor cannot redistribute it;
// PyTorch issue #172610). CheckNdPlacements says so.
#ifndef SHRT_VOCAB_ND_RULE_H_
#define SHRT_VOCAB_ND_RULE_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "shrt/vocab/placement.h"

namespace shrt {

// One inputs -> outputs combination of N-D placements. Every rule of
// mesh_dims has the same numbers of inputs and outputs.
struct NdRule {
  // mesh_dims[m]: every tensor's placement on mesh dim m.
  std::vector<Rule> mesh_dims;

  int ndim() const { return static_cast<int>(mesh_dims.size()); }
  size_t num_inputs() const { return mesh_dims.empty() ? 0 : mesh_dims[0].inputs.size(); }
  size_t num_outputs() const { return mesh_dims.empty() ? 0 : mesh_dims[0].outputs.size(); }
  // Input i's / output k's placements, one per mesh dim.
  std::vector<Placement> Input(size_t i) const;
  std::vector<Placement> Output(size_t k) const;

  friend bool operator==(const NdRule& a, const NdRule& b) { return a.mesh_dims == b.mesh_dims; }
  friend bool operator<(const NdRule& a, const NdRule& b) { return a.mesh_dims < b.mesh_dims; }
  template <typename H>
  friend H AbslHashValue(H h, const NdRule& r) {
    return H::combine(std::move(h), r.mesh_dims);
  }
};

// "[S(0), S(1)]": one tensor's placements.
std::string NdPlacementToString(const std::vector<Placement>& placements);

// Canonical text, "[S(0), S(1)], [S(0), R] -> [S(0), S(1)]".
std::string NdRuleToString(const NdRule& rule);

// Parses the canonical text; whitespace is free, and every placement
// spelling of ParsePlacement is accepted (DTensor's "Shard(dim=0)" is not;
// write "Shard(0)"). Every list must have the same length, 1 to 3 (the mesh
// dims). Errors: InvalidArgument naming the offending token (a missing "->",
// '[' or ']', lists of different lengths, no output).
absl::StatusOr<NdRule> ParseNdRule(absl::string_view text);

// Parses one side of an N-D rule, "[S(0), R], [P(sum), P(sum)]" (one list
// per tensor; "" is none). Errors: as ParseNdRule.
absl::StatusOr<std::vector<std::vector<Placement>>> ParseNdPlacementLists(absl::string_view text);

// The N-D rule that places every tensor as `rule` on mesh dim `m` and
// Replicate on the other `ndim - 1` mesh dims: the single-dim rule as it
// runs on mesh dim m alone.
NdRule EmbedRule(const Rule& rule, int m, int ndim);

// OK if one tensor's placements are a DTensor placement: Partial on several
// mesh dims only with one reduce op, and no Shard placeholder (negative
// dim); and ones ShRT builds on a mesh: no _NormP or _MaskP
// (Placement::is_named_only), which N-D ground truth does not build yet.
// Errors: InvalidArgument "[P(sum), P(max)] mixes Partial reduce ops,
// which DTensor cannot express (PyTorch #172610)", "[_NormP(2), R] holds
// _NormP(2), which ShRT builds on a 1-D mesh only".
absl::Status CheckNdPlacements(const std::vector<Placement>& placements);

// CheckNdPlacements of every tensor of `rule`, and that its mesh dims agree
// in arity. Errors: InvalidArgument naming the tensor ("input 1: ...").
absl::Status CheckNdRule(const NdRule& rule);

}  // namespace shrt

#endif  // SHRT_VOCAB_ND_RULE_H_
