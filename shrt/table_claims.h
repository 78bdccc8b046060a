// Validating a strategy table: its instances as the validator's claims, each
// tagged with the index of the table rule it came from (OpReport::origins).
#ifndef SHRT_TABLE_CLAIMS_H_
#define SHRT_TABLE_CLAIMS_H_

#include "shrt/table.h"
#include "shrt/validate.h"

namespace shrt {

// The claims of `table` (which must outlive the returned function) for
// ValidateClaims(spec, TableClaims(t), t.proto().rule_size(), options).
ClaimSource TableClaims(const TableStrategy& table);

}  // namespace shrt

#endif  // SHRT_TABLE_CLAIMS_H_
