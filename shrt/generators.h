// Adversarial input generators and the recipes that group them (DESIGN.md
// §4).
//
// A generator maps (shape, dtype, input index, seed) to a tensor,
// deterministically. Every generator makes the inputs of one call differ
// from each other (a value pattern offset or redrawn per input index),
// because identical inputs hide wrong rules (sub(x, x) = 0).
//
// A recipe is a named list of generators. Built-in recipes:
//   default   arange, randn, zeros, ones, negative, sparse, mixed_magnitude,
//             ties
//   positive  strictly positive values (log, sqrt, pow bases)
//   nonzero   mixed signs, never zero (divisors)
//   bool_mask 0/1 patterns of several densities (where's condition)
// A rule is valid only if it passes every generator of the case's recipe.
#ifndef SHRT_GENERATORS_H_
#define SHRT_GENERATORS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "ATen/core/Tensor.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace shrt {

class Rng;

// Fills `values` (already sized to the tensor's numel) with the pattern for
// input `input_index`, drawing from `rng`.
using GeneratorFn = void (*)(int input_index, Rng& rng, std::vector<double>& values);

struct Generator {
  absl::string_view name;         // e.g. "randn"
  absl::string_view description;  // one line for reports and --help
  GeneratorFn fn;
};

// The generators of recipe `name`, in order.
// Errors: NotFound naming the known recipes.
absl::StatusOr<std::vector<const Generator*>> RecipeGenerators(absl::string_view name);

// The names of the built-in recipes, sorted.
std::vector<std::string> RecipeNames();

// A fresh contiguous CPU tensor of `shape` and `dtype` holding generator
// `gen`'s pattern for input `input_index` and `seed`. Values are produced in
// double precision and converted: floating dtypes by rounding to nearest,
// integer dtypes by rounding and clamping to the dtype's range, bool as
// "odd after rounding" (so 0/1 masks map to false/true).
at::Tensor Generate(const Generator& gen, at::IntArrayRef shape, c10::ScalarType dtype,
                    int input_index, uint64_t seed);

// Converts double values to a contiguous tensor of `shape` and `dtype` with
// the conversion rules of Generate. `values.size()` must equal the numel.
at::Tensor ValuesToTensor(const std::vector<double>& values, at::IntArrayRef shape,
                          c10::ScalarType dtype);

}  // namespace shrt

#endif  // SHRT_GENERATORS_H_
