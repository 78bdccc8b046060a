// Adversarial input generators (DESIGN.md §4): a recipe.proto Generator
// maps (shape, dtype, input index, seed) to a tensor, deterministically.
// Recipes group generators and are loaded from text files (recipes.h).
//
// Values are produced in double precision and converted to the dtype:
// floating dtypes round to nearest, integer dtypes round and clamp to the
// dtype's range (NaN becomes 0), bool reads "odd after rounding" (so 0/1 masks map to
// false/true, and constant 1 + i differs between inputs 0 and 1).
#ifndef SHRT_GENERATORS_H_
#define SHRT_GENERATORS_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "ATen/core/Tensor.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "shrt/recipe.pb.h"

namespace shrt {

// What a generator may know about the rest of its sample: the shapes of
// tensor arguments and the values of int arguments, by schema name (for
// IndexGen). Either function returns nullopt for an unknown name.
struct GenContext {
  std::function<std::optional<std::vector<int64_t>>(absl::string_view arg)> shape_of;
  std::function<std::optional<int64_t>(absl::string_view arg)> int_of;
};

// A fresh contiguous CPU tensor of `shape` and `dtype` holding `gen`'s
// pattern for input `input_index` and `seed`.
// Errors: InvalidArgument when an IndexGen names an argument the sample
// lacks, or a dim out of range, or indexes a dim of size 0.
absl::StatusOr<at::Tensor> Generate(const Generator& gen, at::IntArrayRef shape,
                                    c10::ScalarType dtype, int input_index, uint64_t seed,
                                    const GenContext& context);

// Converts double values to a contiguous tensor of `shape` and `dtype` by
// the rules above. `values.size()` must equal the numel.
at::Tensor ValuesToTensor(const std::vector<double>& values, at::IntArrayRef shape,
                          c10::ScalarType dtype);

}  // namespace shrt

#endif  // SHRT_GENERATORS_H_
