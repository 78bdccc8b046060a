#include "shrt/vocab/expand.h"

#include <algorithm>
#include <random>
#include <set>

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
      return absl::StrCat("dim ", d, " of size ", shape[d], " is split into ", shards[d],
                          " shards");
    }
  }
  return "";
}

Expansion ExpandToMesh(const std::vector<Rule>& rules,
                       const std::vector<std::vector<int64_t>>& input_shapes, size_t num_outputs,
                       const MeshShape& mesh, int64_t max_rules) {
  // The single-dim rules: all-Replicate first (DTensor strategies list it
  // among theirs; ShRT's registry keeps it implicit), then the rest, once.
  const size_t n_in = input_shapes.size();
  std::vector<Rule> single{{std::vector<Placement>(n_in, Placement::Replicate()),
                            std::vector<Placement>(num_outputs, Placement::Replicate())}};
  for (const Rule& r : rules) {
    if (std::find(single.begin(), single.end(), r) == single.end()) single.push_back(r);
  }
  const int n = mesh.ndim();
  const int64_t k = static_cast<int64_t>(single.size());
  Expansion out;
  out.combinations = 1;
  for (int m = 0; m < n; ++m) out.combinations *= k;
  // The combinations to build, as indices into the product (last mesh dim
  // fastest, as itertools.product).
  std::set<int64_t> picked;
  auto index = [&](const std::vector<int64_t>& pick) {
    int64_t i = 0;
    for (int64_t p : pick) i = i * k + p;
    return i;
  };
  if (out.combinations > max_rules) {
    out.sampled = true;
    for (int64_t r = 0; r < k; ++r) {
      picked.insert(index(std::vector<int64_t>(n, r)));  // r on every mesh dim
      for (int m = 0; m < n; ++m) {                      // r alone on mesh dim m
        std::vector<int64_t> pick(n, 0);
        pick[m] = r;
        picked.insert(index(pick));
      }
    }
    std::mt19937_64 rng(static_cast<uint64_t>(out.combinations));
    while (static_cast<int64_t>(picked.size()) < max_rules) {
      picked.insert(static_cast<int64_t>(rng() % static_cast<uint64_t>(out.combinations)));
    }
  } else {
    for (int64_t i = 0; i < out.combinations; ++i) picked.insert(i);
  }
  for (int64_t i : picked) {
    NdRule rule;
    rule.mesh_dims.resize(n);
    for (int m = n - 1; m >= 0; --m) {
      rule.mesh_dims[m] = single[i % k];
      i /= k;
    }
    if (!CheckNdRule(rule).ok()) continue;
    ExpandedRule e{std::move(rule), ""};
    for (size_t t = 0; t < n_in && e.filtered.empty(); ++t) {
      const std::vector<Placement> ps = e.rule.Input(t);
      const std::string why = WhyNotShardable(input_shapes[t], ps, mesh);
      if (why.empty()) continue;
      e.filtered = absl::StrCat("input ", t, " ", NdPlacementToString(ps), ": ", why);
    }
    out.rules.push_back(std::move(e));
  }
  return out;
}

}  // namespace shrt
