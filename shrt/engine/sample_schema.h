// How a bound sample reads its overload's schema (shrt/engine/sample.h): the kind
// of value each argument takes, the spec values (shrt/spec/spec.proto Arg) it
// accepts, the value and text a strategy sees for a non-tensor argument,
// spec.proto's dtypes as c10::ScalarType, and whether the schema writes an
// input. Internal to the engine's sample*.cc files. The types are c10's
// (ATen/core/jit_type.h, ATen/core/function_schema.h).
#ifndef SHRT_ENGINE_SAMPLE_SCHEMA_H_
#define SHRT_ENGINE_SAMPLE_SCHEMA_H_

#include <string>
#include <vector>

#include "ATen/core/function_schema.h"
#include "ATen/core/ivalue.h"
#include "shrt/ops/op_args.h"
#include "shrt/spec/spec.pb.h"

namespace shrt {
namespace sample_internal {

// What an argument's schema type accepts, after stripping one Optional.
enum class ArgKind {
  kTensor, kTensorList, kOptTensorList, kInt, kFloat, kBool, kScalar, kIntList, kBoolList,
  kScalarList, kString, kScalarType, kOther
};

struct ArgType {
  ArgKind kind;
  bool optional;
};

// The kind of `a`'s type (SymInt as int, SymInt[] as int[]).
ArgType Classify(const c10::Argument& a);

// True for a SymInt or SymInt[] argument (optional or not): the schema's
// mark of a size (view's `size`, embedding_dense_backward's `num_weights`),
// which limits.h bounds before the operator allocates by it.
bool IsSizeArgument(const c10::Argument& a);

// spec.proto's dtype `d` as a c10::ScalarType (Float for an unknown one).
c10::ScalarType ToScalarType(Dtype d);

// Which proto value kinds each schema kind accepts.
bool Accepts(ArgKind kind, Arg::ValueCase v);

// The ArgValue a strategy sees for a non-tensor IValue.
ArgValue ToArgValue(const c10::IValue& v, ArgKind kind);

// The ArgValue of a non-tensor proto value (for sweep labels).
ArgValue ToArgValue(const Arg& a);

// An ArgValue as Python would print it: None, True, 3, "mean", [1, 2].
std::string ValueText(const ArgValue& v);

// True if the schema writes an argument other than out=: `Tensor(a!) self`
// (add_.Tensor), `Tensor(a!)[] self` (_foreach_add_.List), batch_norm's
// `Tensor(b!) running_mean`. An out= variant writes only its out= tensors,
// which every call creates afresh (Stack), so it writes no input and its
// calls may share inputs and be shared between ranks.
// FunctionSchema::is_mutable() counts out= arguments too.
bool WritesInputArgument(const c10::FunctionSchema& schema);

// The metadata of a contiguous tensor of `shape` and `dtype`, and of `t`.
TensorMeta MetaOf(const std::vector<int64_t>& shape, c10::ScalarType dtype);
TensorMeta MetaOf(const at::Tensor& t);

}  // namespace sample_internal
}  // namespace shrt

#endif  // SHRT_ENGINE_SAMPLE_SCHEMA_H_
