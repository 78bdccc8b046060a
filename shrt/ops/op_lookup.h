// Looking overloads up in the c10 dispatcher, with suggestions for typos.
#ifndef SHRT_OPS_OP_LOOKUP_H_
#define SHRT_OPS_OP_LOOKUP_H_

#include <string>
#include <vector>

#include "ATen/core/operator_name.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "shrt/vocab/placement.h"

namespace c10 {
struct FunctionSchema;  // ATen/core/function_schema.h, heavy for strategy sources
}  // namespace c10

namespace shrt {

// OK if the dispatcher has a schema for `name`. Errors: NotFound whose
// message names up to three close matches, if any ("did you mean
// aten::add.Tensor, aten::add.Scalar?").
absl::Status CheckOverloadExists(const c10::OperatorName& name);

// The schema's argument names, in order (out= arguments included).
// Errors: those of CheckOverloadExists.
absl::StatusOr<std::vector<std::string>> SchemaArgumentNames(const c10::OperatorName& name);

// The arguments an overload that returns nothing writes, by schema index
// (self of aten::_foreach_add_.List(Tensor(a!)[] self, ...) -> (), out of
// aten::_foreach_add.List_out): ShRT takes their tensors, flattened in
// schema order, as the overload's outputs, as DTensor takes an in-place
// op's result to be self. Empty when the schema returns anything or writes
// nothing.
std::vector<int> WrittenArgumentsAsOutputs(const c10::FunctionSchema& schema);

// The arity of `name`'s rules (placement.h) as its schema gives it: per
// argument that is not out=, one tensor input for a Tensor, zero or one for
// a Tensor?, any number for a Tensor[] or Tensor?[] (flattened); per return
// (or per written argument, WrittenArgumentsAsOutputs), one tensor output
// for a Tensor, zero or one for a Tensor?, any number for a Tensor[].
// Errors: those of CheckOverloadExists.
absl::StatusOr<RuleArity> SchemaArity(const c10::OperatorName& name);

// The overloads the dispatcher has a schema for whose operator name is
// `name` ("aten::add": aten::add.Tensor, aten::add.Scalar, aten::add.out,
// ...), sorted by overload name. Answered from an index that a c10
// OpRegistrationListener keeps (ATen/core/dispatch/Dispatcher.h
// addRegistrationListener: told of every schema registered before and
// after), so a library loaded later (--load) is included, at the cost of a
// hash lookup instead of a copy of every operator name
// (Dispatcher::getAllOpNames, about 3,500 of them). Thread-safe.
std::vector<c10::OperatorName> OverloadsNamed(const std::string& name);

// Up to `max` registered overloads close to `text` (suggest.h: edit
// distance within a band, case ignored), best first (ties by name).
std::vector<std::string> CloseOverloads(absl::string_view text, int max);

}  // namespace shrt

#endif  // SHRT_OPS_OP_LOOKUP_H_
