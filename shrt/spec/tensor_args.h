// The tensors a spec argument gives (spec.proto Arg): its one `tensor`, or
// the elements of its `tensors` list, or none for any other value. One home
// for walking them, in the loader, the lint and the case maker alike.
#ifndef SHRT_SPEC_TENSOR_ARGS_H_
#define SHRT_SPEC_TENSOR_ARGS_H_

#include <vector>

#include "shrt/spec/spec.pb.h"

namespace shrt {

// The TensorArgs `arg` gives, in order; empty for a non-tensor value.
inline std::vector<const TensorArg*> TensorArgsOf(const Arg& arg) {
  std::vector<const TensorArg*> out;
  if (arg.has_tensor()) out.push_back(&arg.tensor());
  for (const TensorArg& t : arg.tensors().tensor()) out.push_back(&t);
  return out;
}

// The same, to edit in place. Never switches `arg`'s value: calling
// mutable_tensors() on an argument that holds another value would replace
// it with an empty list (protobuf oneof).
inline std::vector<TensorArg*> MutableTensorArgsOf(Arg& arg) {
  std::vector<TensorArg*> out;
  if (arg.has_tensor()) out.push_back(arg.mutable_tensor());
  if (arg.has_tensors()) {
    for (TensorArg& t : *arg.mutable_tensors()->mutable_tensor()) out.push_back(&t);
  }
  return out;
}

}  // namespace shrt

#endif  // SHRT_SPEC_TENSOR_ARGS_H_
