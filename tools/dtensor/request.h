// A sample's metadata (OpArgs) as the arguments of a `validate --dtensor`
// request (claims.proto RequestSample.args): what DTensor's OpSchema holds
// for the call, by schema argument name.
#ifndef TOOLS_DTENSOR_REQUEST_H_
#define TOOLS_DTENSOR_REQUEST_H_

#include <string>

#include "ATen/core/operator_name.h"
#include "absl/status/statusor.h"
#include "google/protobuf/struct.pb.h"
#include "shrt/ops/op_args.h"

namespace shrt {

// The name of `dtype` in torch's Python namespace (torch.<name>):
// Float -> "float32", Long -> "int64", ComplexFloat -> "complex64".
// Errors: InvalidArgument for a dtype without one here (quantized, bits,
// float8).
absl::StatusOr<std::string> TorchDtypeName(c10::ScalarType dtype);

// `args` of a call of overload `op` as request arguments (claims.proto):
// every schema argument of args.args(); and the out= arguments of an out=
// variant, which OpArgs keeps as outputs(), as the tensors the call wrote
// (a Tensor(a!)[] out= argument takes every remaining output); an inf or
// nan float as {"float": "inf"} (JSON has no such number). Two
// samples ask DTensor the same question exactly when these are equal.
// Errors: NotFound when `op` has no schema in the dispatcher;
// InvalidArgument for a dtype TorchDtypeName does not know, or fewer
// outputs than out= arguments.
absl::StatusOr<google::protobuf::Struct> RequestArgs(const c10::OperatorName& op,
                                                     const OpArgs& args);

}  // namespace shrt

#endif  // TOOLS_DTENSOR_REQUEST_H_
