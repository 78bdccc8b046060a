// DTensor's expansion of a single-dim strategy to an N-D mesh (DESIGN.md
// §9), as torch/distributed/tensor/_ops/utils.py
// expand_to_full_mesh_op_strategy does it: every combination of one rule
// per mesh dim (the strategy's rules plus the implicit all-Replicate one,
// itertools.product over mesh dims), zipped into one placement list per
// tensor, kept when every input passes is_tensor_shardable.
#ifndef SHRT_VOCAB_EXPAND_H_
#define SHRT_VOCAB_EXPAND_H_

#include <cstdint>
#include <string>
#include <vector>

#include "shrt/vocab/mesh.h"
#include "shrt/vocab/nd_rule.h"
#include "shrt/vocab/placement.h"

namespace shrt {

// One combination of the expansion.
struct ExpandedRule {
  NdRule rule;
  // "" when the expansion keeps it; else why is_tensor_shardable rejects
  // it, "input 0 [S(0), S(0)]: dim 0 of size 3 is split into 4 shards".
  std::string filtered;
};

// "" if a tensor of `shape` can take `placements` on `mesh`, as DTensor's
// is_tensor_shardable (torch/distributed/tensor/_ops/utils.py) decides:
// every Shard (and _StridedShard) dim lies within the tensor, and a dim
// sharded over mesh dims of sizes w1, w2, ... has at least w1 * w2 * ...
// elements. Else why not.
std::string WhyNotShardable(const std::vector<int64_t>& shape,
                            const std::vector<Placement>& placements, const MeshShape& mesh);

// The expansion of one sample's single-dim rules to a mesh.
struct Expansion {
  std::vector<ExpandedRule> rules;
  // The combinations of the whole product, (K + 1)^n for K single-dim
  // rules on n mesh dims; rules.size() is smaller when mixed Partials were
  // left out or the product was sampled.
  int64_t combinations = 0;
  // True when the product had more than the limit and `rules` holds a
  // subset (ExpandToMesh).
  bool sampled = false;
};

// The expansion of `rules` (a strategy's single-dim rules for one sample,
// all-Replicate not included; duplicates ignored), for an overload with
// inputs of `input_shapes` and `num_outputs` outputs, to `mesh`:
// (|rules| + 1) ^ mesh.ndim() combinations in itertools.product order,
// except those that would give some tensor mixed Partial reduce ops
// (nd_rule.h CheckNdPlacements), which DTensor cannot express and the
// expansion never produces. A 1-D mesh gives the rules themselves plus
// all-Replicate.
// When the product has more than `max_rules` combinations (limits.h
// kMaxNdRules), a deterministic subset of `max_rules` of them: every rule
// alone on each mesh dim, every rule on all mesh dims, and the rest drawn
// uniformly (std::mt19937_64 seeded with the product's size), in product
// order.
Expansion ExpandToMesh(const std::vector<Rule>& rules,
                       const std::vector<std::vector<int64_t>>& input_shapes, size_t num_outputs,
                       const MeshShape& mesh, int64_t max_rules);

}  // namespace shrt

#endif  // SHRT_VOCAB_EXPAND_H_
