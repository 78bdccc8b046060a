// Whether a recipe can fill one input of a sample, checked when the sample
// is bound (sample.h), before any value is drawn (DESIGN.md §10):
//   - values finite in the input's dtype: a generator whose values pass
//     the dtype's largest finite value (3.4e38 for float32, 65504 for
//     float16) feeds inf to the operator, and inf arithmetic invents
//     missing and incorrect rules by accident (a `special` generator's
//     infinities and extremes are the dtype's own, drawn on purpose, and
//     are not checked);
//   - indices inside what they index: every value of an index recipe
//     (recipes.h IsIndexRecipe) must lie in [0, n), n from its index
//     generators or its `indexes` (generators.h IndexBound), or an operator
//     that does not check its indices (embedding_dense_backward with
//     scale_grad_by_freq) writes out of bounds; an index recipe has no
//     `special` generator.
// Integer dtypes take any value (the generators clamp to the dtype's
// range), and so does bool.
#ifndef SHRT_SPEC_RECIPE_FIT_H_
#define SHRT_SPEC_RECIPE_FIT_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "c10/core/ScalarType.h"
#include "shrt/spec/generators.h"
#include "shrt/spec/recipe.pb.h"

namespace shrt {

// OK if every generator of `recipe` fits an input of `shape` and `dtype` at
// `input_index` of a sample that `context` describes. Errors:
// InvalidArgument "recipe 'r', generator 'g': ..." saying what does not
// fit, e.g. "draws values up to 1e+39 in magnitude, more than float32's
// largest finite value 3.40282e+38", or "draws indices in [0, 4] but they
// index [0, 2) ('num_weights' is 2)"; IndexBound's errors for an index
// generator or `indexes` that the sample cannot resolve.
absl::Status CheckRecipeFits(const Recipe& recipe, const std::vector<int64_t>& shape,
                             c10::ScalarType dtype, int input_index, const GenContext& context);

}  // namespace shrt

#endif  // SHRT_SPEC_RECIPE_FIT_H_
