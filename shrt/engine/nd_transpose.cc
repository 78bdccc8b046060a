#include "shrt/engine/nd_transpose.h"

#include <map>

#include "shrt/engine/nd_layout.h"

namespace shrt {

std::optional<NdRule> Transposed(const NdRule& rule) {
  if (rule.ndim() != 2) return std::nullopt;
  const Rule& a = rule.mesh_dims[0];
  const Rule& b = rule.mesh_dims[1];
  for (size_t i = 0; i < a.inputs.size(); ++i) {
    if (!TransposesOnSquareMesh(a.inputs[i], b.inputs[i])) return std::nullopt;
  }
  for (size_t k = 0; k < a.outputs.size(); ++k) {
    if (!TransposesOnSquareMesh(a.outputs[k], b.outputs[k])) return std::nullopt;
  }
  return NdRule{{b, a}};
}

std::vector<std::optional<size_t>> TransposeLeaders(const std::vector<NdRule>& rules,
                                                    const std::vector<bool>& needs_calls,
                                                    const MeshShape& mesh) {
  std::vector<std::optional<size_t>> leaders(rules.size());
  if (mesh.ndim() != 2 || mesh.dims()[0] != mesh.dims()[1]) return leaders;
  std::map<NdRule, size_t> first;  // each rule's first index
  for (size_t r = 0; r < rules.size(); ++r) first.emplace(rules[r], r);
  for (size_t r = 0; r < rules.size(); ++r) {
    if (!needs_calls[r]) continue;
    const std::optional<NdRule> transposed = Transposed(rules[r]);
    if (!transposed.has_value() || *transposed == rules[r]) continue;
    const auto it = first.find(*transposed);
    const size_t l = it == first.end() ? r : it->second;
    if (l < r && needs_calls[l] && !leaders[l].has_value()) leaders[r] = l;
  }
  return leaders;
}

int TransposedRank(const MeshShape& mesh, int rank) {
  const int w = mesh.dims()[1];
  return (rank % w) * w + rank / w;
}

std::vector<at::Tensor> TransposeRanks(const std::vector<at::Tensor>& ranks,
                                       const MeshShape& mesh) {
  std::vector<at::Tensor> out(ranks.size());
  for (size_t q = 0; q < ranks.size(); ++q) out[q] = ranks[TransposedRank(mesh, q)];
  return out;
}

}  // namespace shrt
