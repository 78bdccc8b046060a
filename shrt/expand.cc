#include "shrt/expand.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace shrt {

std::string WhyNotShardable(const std::vector<int64_t>& shape,
                            const std::vector<Placement>& placements, const MeshShape& mesh) {
  std::vector<int64_t> shards(shape.size(), 1);
  for (int m = 0; m < mesh.ndim(); ++m) {
    const Placement& p = placements[m];
    if (!p.is_shard() && !p.is_strided_shard()) continue;
    if (p.dim() < 0 || p.dim() >= static_cast<int64_t>(shape.size())) {
      return absl::StrCat(p.ToString(), " of a ", shape.size(), "-d tensor");
    }
    shards[p.dim()] *= mesh.dims()[m];
  }
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shards[d] > 1 && shape[d] < shards[d]) {
      return absl::StrCat("dim ", d, " of size ", shape[d], " is split into ", shards[d], " shards");
    }
  }
  return "";
}

std::vector<ExpandedRule> ExpandToMesh(const std::vector<Rule>& rules,
                                       const std::vector<std::vector<int64_t>>& input_shapes,
                                       size_t num_outputs, const MeshShape& mesh) {
  // The single-dim rules: all-Replicate first (DTensor strategies list it
  // among theirs; ShRT's registry keeps it implicit), then the rest, once.
  const size_t n_in = input_shapes.size();
  std::vector<Rule> single{{std::vector<Placement>(n_in, Placement::Replicate()),
                            std::vector<Placement>(num_outputs, Placement::Replicate())}};
  for (const Rule& r : rules) {
    if (std::find(single.begin(), single.end(), r) == single.end()) single.push_back(r);
  }
  std::vector<ExpandedRule> out;
  std::vector<size_t> pick(mesh.ndim(), 0);
  while (true) {
    NdRule rule;
    for (size_t k : pick) rule.mesh_dims.push_back(single[k]);
    if (CheckNdRule(rule).ok()) {
      ExpandedRule e{std::move(rule), ""};
      for (size_t i = 0; i < n_in && e.filtered.empty(); ++i) {
        const std::vector<Placement> ps = e.rule.Input(i);
        const std::string why = WhyNotShardable(input_shapes[i], ps, mesh);
        if (!why.empty()) {
          e.filtered = absl::StrCat("input ", i, " ", NdPlacementToString(ps), ": ", why);
        }
      }
      out.push_back(std::move(e));
    }
    // The next combination, the last mesh dim fastest (itertools.product).
    int m = mesh.ndim() - 1;
    while (m >= 0 && ++pick[m] == single.size()) pick[m--] = 0;
    if (m < 0) break;
  }
  return out;
}

}  // namespace shrt
