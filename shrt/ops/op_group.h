// Op groups: an overload with its in-place and out= variants, found from the
// c10 dispatcher's schemas as torchgen groups native functions
// (torchgen/model.py, NativeFunctionsGroup: `functional`, `inplace`, `out`,
// matched by FunctionSchema.signature(), which drops the trailing '_' of an
// in-place name, out= arguments, alias annotations and the overload name).
//
//   aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
//   aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)
//   aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
//
// A spec describes a group (spec.proto); the registry derives the variants'
// strategies from the functional's (registry.h), as DTensor derives the
// strategies of in-place and out= ops from the functional op's.
#ifndef SHRT_OPS_OP_GROUP_H_
#define SHRT_OPS_OP_GROUP_H_

#include <optional>
#include <string>
#include <vector>

#include "ATen/core/operator_name.h"
#include "absl/status/statusor.h"

namespace shrt {

// What an overload is within its group.
enum class VariantKind {
  kFunctional,  // writes no argument, has no out= argument
  kInPlace,     // writes self, e.g. aten::add_.Tensor
  kOut,         // writes its out= arguments, e.g. aten::add.out
  kOther,       // anything else that writes (e.g. aten::_foreach_add_.List)
};

// "functional", "in-place", "out=", "other".
const char* VariantKindName(VariantKind kind);

struct OpGroup {
  c10::OperatorName functional{"", ""};
  std::optional<c10::OperatorName> inplace;
  std::optional<c10::OperatorName> out;
  // The names of `out`'s out= arguments in schema order, e.g. {"out"} or
  // {"values", "indices"}; empty without an out= variant.
  std::vector<std::string> out_arguments;

  // functional, then inplace, then out, those present.
  std::vector<c10::OperatorName> Overloads() const;
};

// The kind of `name` from its schema. Errors: NotFound if the dispatcher
// has no such overload.
absl::StatusOr<VariantKind> KindOf(const c10::OperatorName& name);

// The group whose functional overload is `functional`. A functional
// overload gets its in-place and out= variants where the dispatcher has
// them; any other overload is a group of one. Errors: NotFound if the
// dispatcher has no such overload; FailedPrecondition if two overloads
// match as the same variant (the message names both).
absl::StatusOr<OpGroup> FindOpGroup(const c10::OperatorName& functional);

// The functional overload of which `variant` is the in-place or out=
// variant, or nullopt (a functional overload, or a variant of no
// functional one). Errors: those of FindOpGroup.
absl::StatusOr<std::optional<c10::OperatorName>> FunctionalOf(const c10::OperatorName& variant);

}  // namespace shrt

#endif  // SHRT_OPS_OP_GROUP_H_
