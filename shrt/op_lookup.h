// Looking overloads up in the c10 dispatcher, with suggestions for typos.
#ifndef SHRT_OP_LOOKUP_H_
#define SHRT_OP_LOOKUP_H_

#include <string>
#include <vector>

#include "ATen/core/operator_name.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace shrt {

// OK if the dispatcher has a schema for `name`. Errors: NotFound whose
// message names up to three close matches ("did you mean aten::add.Tensor,
// aten::add.Scalar?"), if any overload is close (CloseOverloads).
absl::Status CheckOverloadExists(const c10::OperatorName& name);

// The schema's argument names, in order (out= arguments included).
// Errors: those of CheckOverloadExists.
absl::StatusOr<std::vector<std::string>> SchemaArgumentNames(const c10::OperatorName& name);

// The most edits that make an overload a close match of `text`:
// 1 + |text| / 4, at most kMaxSuggestionEdits (a typo or two in a short
// name, a few more in a long one). Farther names are no help, and bounding
// the distance bounds the search: a name's scoring stops once it passes the
// bound, so a lookup costs time linear in |text| (it was quadratic: seconds
// for a 10,000-character name, and ~90% of the time of the spec, table and
// xfail fuzz targets).
inline constexpr size_t kMaxSuggestionEdits = 8;

// Up to `max` registered overloads whose canonical text is closest to
// `text` by edit distance and within that bound, best first (ties by
// name).
std::vector<std::string> CloseOverloads(absl::string_view text, int max);

}  // namespace shrt

#endif  // SHRT_OP_LOOKUP_H_
