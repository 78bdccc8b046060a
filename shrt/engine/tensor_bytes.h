// What a tensor holds, as bytes: a key and an exact comparison, for caches
// of checks whose inputs are tensors (nd_truth.cc: one output check per
// distinct set of rank outputs). Two tensors are the same here when they
// have one dtype, sizes and strides, and their bytes from the first element
// to the last one their strides reach are equal: then so is every element.
// Equal values with other strides or gaps, -0.0 against 0.0, or NaNs of
// other payloads are different, which costs a cache a miss, never a wrong
// answer.
#ifndef SHRT_ENGINE_TENSOR_BYTES_H_
#define SHRT_ENGINE_TENSOR_BYTES_H_

#include <cstdint>
#include <optional>

#include "ATen/core/Tensor.h"

namespace shrt {

// A key of `t`'s dtype, sizes, strides and bytes (SameBytes tensors have
// equal keys), or nullopt for a tensor these functions do not read: not
// strided, not on the CPU, or without storage. An undefined tensor has a
// key of its own.
std::optional<uint64_t> BytesKey(const at::Tensor& t);

// True when `a` and `b` are the same as above (both undefined counts);
// false for a tensor BytesKey does not read.
bool SameBytes(const at::Tensor& a, const at::Tensor& b);

}  // namespace shrt

#endif  // SHRT_ENGINE_TENSOR_BYTES_H_
