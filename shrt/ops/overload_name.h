// Overload names as users write them: "aten::add.Tensor", "aten::relu"
// (the default overload; "aten::relu.default" is accepted as an alias), and
// custom namespaces such as "shrt_example::scaled_add".
#ifndef SHRT_OPS_OVERLOAD_NAME_H_
#define SHRT_OPS_OVERLOAD_NAME_H_

#include <string>

#include "ATen/core/operator_name.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace shrt {

// Parses "<namespace>::<name>[.<overload>]". ".default" maps to the empty
// overload name, as in torch.ops.aten.relu.default.
// Errors: InvalidArgument when the namespace or name is missing, the text
// contains whitespace, or it is longer than kMaxOverloadNameBytes
// (limits.h).
absl::StatusOr<c10::OperatorName> ParseOverloadName(absl::string_view text);

// The canonical text: "aten::add.Tensor", "aten::relu" (no ".default").
std::string OverloadToString(const c10::OperatorName& name);

// The overload's generated test target and spec file stem: the canonical
// text with "::" and "." turned into "_" ("aten::add_.Tensor" ->
// "aten_add__Tensor"). codegen/naming.py states the same rule for the
// Python tools; //codegen:lint_specs_test checks they agree on every
// overload of op_specs/groups.bzl.
std::string TestTargetName(const c10::OperatorName& name);

}  // namespace shrt

#endif  // SHRT_OPS_OVERLOAD_NAME_H_
