#include "shrt/report/table_claims.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "shrt/ops/variant_rules.h"

namespace shrt {

ClaimSource TableClaims(const TableEntry& entry) {
  return [entry](const OpArgs& args, int world_size) -> absl::StatusOr<std::vector<ClaimedRule>> {
    absl::StatusOr<std::vector<TableInstance>> instances =
        entry.strategy->Instantiate(args, world_size);
    if (!instances.ok()) return instances.status();
    std::vector<ClaimedRule> out;
    for (TableInstance& i : *instances) {
      if (entry.inplace && !KeepsSelfPlacement(i.rule)) continue;
      out.push_back({std::move(i.rule), {i.origin}});
    }
    return out;
  };
}

NdClaimSource TableNdClaims(const TableEntry& entry, const MeshShape& mesh) {
  const TableStrategy& table = *entry.strategy;
  NdClaimSource expanded = ExpandedClaims(
      [entry](const OpArgs& args) -> absl::StatusOr<std::vector<Rule>> {
        absl::StatusOr<std::vector<Rule>> rules = entry.strategy->Rules(args);
        if (!rules.ok() || !entry.inplace) return rules;
        return InPlaceRules(*std::move(rules));
      },
      mesh);
  return [&table, entry, mesh, expanded](const OpArgs& args) -> absl::StatusOr<NdClaims> {
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
      if (entry.inplace && !std::all_of(rule.mesh_dims.begin(), rule.mesh_dims.end(),
                                        [](const Rule& r) { return KeepsSelfPlacement(r); })) {
        continue;  // the in-place variant does not inherit it
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
