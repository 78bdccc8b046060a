#include "shrt/engine/tensor_bytes.h"

#include <cstring>
#include <functional>
#include <string_view>

#include "shrt/spec/rng.h"

namespace shrt {
namespace {

bool Readable(const at::Tensor& t) {
  return t.layout() == at::kStrided && t.device().is_cpu() && t.has_storage();
}

// The bytes from t's first element to the last one its strides reach.
std::string_view Span(const at::Tensor& t, at::IntArrayRef sizes, at::IntArrayRef strides) {
  int64_t last = 0;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == 0) return {};
    last += (sizes[d] - 1) * strides[d];
  }
  return {static_cast<const char*>(t.const_data_ptr()),
          static_cast<size_t>(last + 1) * t.element_size()};
}

std::string_view AsBytes(at::IntArrayRef values) {
  return {reinterpret_cast<const char*>(values.data()), values.size() * sizeof(int64_t)};
}

}  // namespace

std::optional<uint64_t> BytesKey(const at::Tensor& t) {
  if (!t.defined()) return 0x5d1bu;
  if (!Readable(t)) return std::nullopt;
  const at::IntArrayRef sizes = t.sizes(), strides = t.strides();
  const std::hash<std::string_view> hash;
  return MixSeed({static_cast<uint64_t>(t.scalar_type()), hash(AsBytes(sizes)),
                  hash(AsBytes(strides)), hash(Span(t, sizes, strides))});
}

bool SameBytes(const at::Tensor& a, const at::Tensor& b) {
  if (!a.defined() || !b.defined()) return a.defined() == b.defined();
  if (!Readable(a) || !Readable(b)) return false;
  const at::IntArrayRef sizes = a.sizes(), strides = a.strides();
  if (a.scalar_type() != b.scalar_type() || sizes != b.sizes() || strides != b.strides()) {
    return false;
  }
  const std::string_view x = Span(a, sizes, strides), y = Span(b, sizes, strides);
  // memcmp takes no null pointer, which an empty span may hold.
  return x.size() == y.size() && (x.empty() || std::memcmp(x.data(), y.data(), x.size()) == 0);
}

}  // namespace shrt
