#include "shrt/table_claims.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace shrt {

ClaimSource TableClaims(const TableStrategy& table) {
  return [&table](const OpArgs& args, int world_size) -> absl::StatusOr<std::vector<ClaimedRule>> {
    absl::StatusOr<std::vector<TableInstance>> instances = table.Instantiate(args, world_size);
    if (!instances.ok()) return instances.status();
    std::vector<ClaimedRule> out;
    for (TableInstance& i : *instances) out.push_back({std::move(i.rule), {i.origin}});
    return out;
  };
}

NdClaimSource TableNdClaims(const TableStrategy& table, const MeshShape& mesh) {
  NdClaimSource expanded =
      ExpandedClaims([&table](const OpArgs& args) { return table.Rules(args); }, mesh);
  return [&table, mesh, expanded](const OpArgs& args) -> absl::StatusOr<NdClaims> {
    absl::StatusOr<NdClaims> all = expanded(args);
    if (!all.ok()) return all.status();
    std::vector<NdClaim>* claims = &all->claims;
    auto find = [&](const NdRule& rule) {
      return std::find_if(claims->begin(), claims->end(),
                          [&](const NdClaim& c) { return c.rule == rule; });
    };
    std::vector<NdRule> written;
    for (const auto& [j, rule] : table.nd_rules()) {
      if (rule.ndim() != mesh.ndim()) {
        return absl::InvalidArgumentError(absl::StrCat(
            table.where(), ": field 'rule[", j, "].placements': N-D rule '", NdRuleToString(rule),
            "' has ", rule.ndim(), " mesh dims, the mesh ", mesh.ToString(), " ", mesh.ndim()));
      }
      if (rule.num_inputs() != args.inputs().size() ||
          rule.num_outputs() != args.outputs().size()) {
        continue;  // another arity: does not apply to this sample
      }
      auto it = find(rule);
      if (it == claims->end()) {
        claims->push_back({rule, NdClaim::Kind::kKept, ""});
      } else {
        *it = {rule, NdClaim::Kind::kKept, ""};
      }
      written.push_back(rule);
    }
    for (const NdRule& rule : written) {
      for (int m = 0; m < rule.ndim(); ++m) {
        NdRule alone = EmbedRule(rule.mesh_dims[m], m, rule.ndim());
        if (find(alone) == claims->end()) {
          claims->push_back({std::move(alone), NdClaim::Kind::kReference, ""});
        }
      }
    }
    return all;
  };
}

}  // namespace shrt
