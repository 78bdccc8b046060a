#include "shrt/table_claims.h"

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

}  // namespace shrt
