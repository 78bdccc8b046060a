// Adversarial input generators (DESIGN.md §4): a recipe.proto Generator
// maps (shape, dtype, input index, seed) to a tensor, deterministically.
// Recipes group generators and are loaded from text files (recipes.h).
//
// Values are produced in double precision and converted to the dtype:
// floating dtypes round to nearest, integer dtypes round and clamp to the
// dtype's range (NaN becomes 0), bool reads "odd after rounding" (so 0/1 masks map to
// false/true, and constant 1 + i differs between inputs 0 and 1).
#ifndef SHRT_SPEC_GENERATORS_H_
#define SHRT_SPEC_GENERATORS_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "ATen/core/Tensor.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "shrt/spec/recipe.pb.h"

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
// Errors: those of IndexBound for an index generator; InvalidArgument for
// a positive_definite one when `shape`'s last two dims are not one square
// matrix size (fewer than two dims included).
absl::StatusOr<at::Tensor> Generate(const Generator& gen, at::IntArrayRef shape,
                                    c10::ScalarType dtype, int input_index, uint64_t seed,
                                    const GenContext& context);

// Special value `v` (recipe.proto SpecialValue) for floating `dtype`, as
// the double that converts to it (ValuesToTensor): the infinities, NaN,
// -0.0, and std::numeric_limits max(), lowest(), min() (smallest normal)
// and denorm_min() of its C++ type (c10::Half and c10::BFloat16 for the
// half types). A complex dtype takes its real dtype's values (each part is
// generated as a real value). Any other dtype throws c10::Error.
double SpecialValueOf(SpecialValue v, c10::ScalarType dtype);

// True when `gen` draws special values (recipe.proto SpecialGen: inf, nan,
// subnormals) for an input of `dtype`: a `special` generator and a
// floating or complex dtype (an integer input gets its normal draws).
bool DrawsSpecialValues(const Generator& gen, c10::ScalarType dtype);

// True when `gen`'s values depend on the seed Generate takes: false for
// arange and constant, whose values are the same at every seed.
bool DrawsFromSeed(const Generator& gen);

// n for an index generator, or a recipe's `indexes`: indices into it lie
// in [0, n). Errors: InvalidArgument when it names a tensor (of_arg) or
// int argument (dim_arg, size_arg) the sample lacks, a dim out of range,
// or an n below 1 (a dim of size 0, num_weights 0: no index exists).
absl::StatusOr<int64_t> IndexBound(const IndexGen& index, const GenContext& context);

// The largest |x| of a standard normal draw of rng.h (Box-Muller on a
// 53-bit uniform): sqrt(-2 ln 2^-53) = 8.57167...
inline constexpr double kNormalBound = 8.5717;

// A closed interval [lo, hi] of values.
struct ValueRange {
  double lo = 0;
  double hi = 0;
};

// The interval holding every value `gen` can draw, before conversion to a
// dtype, for an input of `numel` elements at `input_index`: exact for
// arange, constant, ties, mask and index (indices up to IndexBound - 1);
// magnitude bounds for uniform, sparse and magnitude (both signs when the
// sign is random); mean +- kNormalBound * std for normal; for special, the
// normal draws' bounds widened to its values as float64 resolves them
// (infinities included); for positive_definite, +-2 kNormalBound^2 (one
// more on the diagonal), whatever the shape. Errors: those of IndexBound.
absl::StatusOr<ValueRange> GeneratedRange(const Generator& gen, int64_t numel, int input_index,
                                          const GenContext& context);

// Converts double values to a contiguous tensor of `shape` and `dtype` by
// the rules above. `values.size()` must equal the numel.
at::Tensor ValuesToTensor(absl::Span<const double> values, at::IntArrayRef shape,
                          c10::ScalarType dtype);

}  // namespace shrt

#endif  // SHRT_SPEC_GENERATORS_H_
