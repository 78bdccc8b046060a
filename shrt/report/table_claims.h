// Validating a strategy table: its instances as the validator's claims, each
// tagged with the index of the table rule it came from (OpReport::origins),
// and, on an N-D mesh, its single-dim rules expanded plus its N-D rules.
// An entry that claims an in-place variant through its functional overload
// (TableEntry::inplace) claims only the rules that variant inherits
// (variant_rules.h), on 1-D and N-D alike.
#ifndef SHRT_REPORT_TABLE_CLAIMS_H_
#define SHRT_REPORT_TABLE_CLAIMS_H_

#include "shrt/engine/validate.h"
#include "shrt/strategies/table.h"
#include "shrt/vocab/mesh.h"

namespace shrt {

// The claims of `entry` (whose table must outlive the returned function)
// for ValidateClaims(spec, TableClaims(e), e.strategy->proto().rule_size(),
// options). `entry.strategy` must not be null.
ClaimSource TableClaims(const TableEntry& entry);

// The claims of `entry` on `mesh` for ValidateOnMesh: its single-dim rules
// (TableStrategy::Rules, which may not read ws) expanded as DTensor
// expands a strategy (ExpandedClaims), and its N-D rules of the sample's
// arity as written (claimed even where the expansion would filter them),
// with the single-dim rules of each, alone on its mesh dim, as references
// for telling composition failures apart. Errors: InvalidArgument
// "<path>:<line>: field 'op[...].rule[j]' ..." for an N-D rule with
// another number of mesh dims than `mesh`; Rules()'s.
NdClaimSource TableNdClaims(const TableEntry& entry, const MeshShape& mesh);

}  // namespace shrt

#endif  // SHRT_REPORT_TABLE_CLAIMS_H_
