#include "shrt/vocab/limits.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace shrt {
namespace {

// "shape [..]" or "size argument [..]", with long shapes shortened.
std::string Describe(absl::string_view what, absl::Span<const int64_t> values) {
  if (values.size() <= static_cast<size_t>(kMaxDims)) {
    return absl::StrCat(what, " [", absl::StrJoin(values, ", "), "]");
  }
  return absl::StrCat(what, " [", absl::StrJoin(values.subspan(0, 4), ", "), ", ...]");
}

absl::Status Check(absl::string_view what, absl::Span<const int64_t> values, bool skip_negative) {
  if (values.size() > static_cast<size_t>(kMaxDims)) {
    return absl::InvalidArgumentError(absl::StrCat(Describe(what, values), " has ", values.size(),
                                                   " dims, more than the ", kMaxDims,
                                                   " ShRT accepts (shrt/vocab/limits.h)"));
  }
  int64_t product = 1;
  bool overflow = false;
  for (size_t d = 0; d < values.size(); ++d) {
    const int64_t n = values[d];
    if (n < 0 && skip_negative) continue;
    if (n < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(Describe(what, values), " has the negative size ", n, " at dim ", d));
    }
    if (n > kMaxSampleElements) {
      return absl::InvalidArgumentError(absl::StrCat(
          Describe(what, values), " has the size ", n, " at dim ", d, ", more than the ",
          kMaxSampleElements, " elements a sample may hold (shrt/vocab/limits.h)"));
    }
    overflow = overflow || __builtin_mul_overflow(product, n == 0 ? 1 : n, &product);
  }
  if (overflow || product > kMaxSampleElements) {
    return absl::InvalidArgumentError(absl::StrCat(
        Describe(what, values), " has ", overflow ? "more than 2^63" : absl::StrCat(product),
        " elements, more than the ", kMaxSampleElements,
        " a sample may hold (shrt/vocab/limits.h)"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckShape(absl::Span<const int64_t> shape) { return Check("shape", shape, false); }

int64_t NumElements(absl::Span<const int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

absl::Status CheckSizeList(absl::Span<const int64_t> values) {
  return Check("size argument", values, true);
}

absl::Status CheckSize(int64_t value) {
  if (value <= kMaxSampleElements) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("the size ", value, " is more than the ",
                                                 kMaxSampleElements,
                                                 " elements a sample may hold (shrt/vocab/limits.h)"));
}

int64_t PlacementTuples(const std::vector<size_t>& counts) {
  for (size_t c : counts) {
    if (c == 0) return 0;
  }
  int64_t product = 1;
  for (size_t c : counts) {
    if (c > static_cast<size_t>(kMaxPlacementTuples) ||
        product > kMaxPlacementTuples / static_cast<int64_t>(c)) {
      return kMaxPlacementTuples + 1;
    }
    product *= static_cast<int64_t>(c);
  }
  return product;
}

}  // namespace shrt
