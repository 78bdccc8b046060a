#include "shrt/spec/recipe_fit.h"

#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "shrt/spec/recipes.h"
#include "shrt/vocab/limits.h"

namespace shrt {
namespace {

// The largest finite value of a floating (complex) dtype's parts, or 0 for
// other dtypes.
double LargestFinite(c10::ScalarType dtype) {
  return c10::isFloatingType(c10::toRealValueType(dtype)) ? SpecialValueOf(LARGEST_FINITE, dtype)
                                                          : 0;
}

// What `index` indexes, for messages: "'num_weights' is 2", "'self' has
// size 15 at dim 0".
std::string Indexed(const IndexGen& index, int64_t n) {
  if (!index.size_arg().empty()) return absl::StrCat("'", index.size_arg(), "' is ", n);
  const std::string along = index.along_case() == IndexGen::kDimArg
                                ? absl::StrCat("dim '", index.dim_arg(), "'")
                                : absl::StrCat("dim ", index.dim());
  return absl::StrCat("'", index.of_arg(), "' has size ", n, " along ", along);
}

}  // namespace

absl::Status CheckRecipeFits(const Recipe& recipe, const std::vector<int64_t>& shape,
                             c10::ScalarType dtype, int input_index, const GenContext& context) {
  // A complex tensor draws its real and imaginary parts: twice the values.
  const int64_t numel = NumElements(shape) * (c10::isComplexType(dtype) ? 2 : 1);
  const double largest = LargestFinite(dtype);
  const bool indices = IsIndexRecipe(recipe);
  for (const Generator& g : recipe.generator()) {
    auto bad = [&](absl::string_view what) {
      return absl::InvalidArgumentError(
          absl::StrCat("recipe '", recipe.name(), "', generator '", g.name(), "': ", what));
    };
    if (g.kind_case() == Generator::kSpecial) {
      // Its infinities and extremes are the dtype's own, on purpose.
      if (indices) return bad("special values are not indices");
      continue;
    }
    absl::StatusOr<ValueRange> range = GeneratedRange(g, numel, input_index, context);
    if (!range.ok()) return bad(range.status().message());
    const double magnitude = std::max(std::abs(range->lo), std::abs(range->hi));
    if (largest > 0 && !(magnitude <= largest)) {
      return bad(absl::StrCat("draws values up to ", magnitude, " in magnitude, more than ",
                              c10::toString(dtype), "'s largest finite value ", largest,
                              " (they would be inf)"));
    }
    if (!indices) continue;
    const IndexGen& target = g.kind_case() == Generator::kIndex ? g.index() : recipe.indexes();
    absl::StatusOr<int64_t> n = IndexBound(target, context);
    if (!n.ok()) return bad(n.status().message());
    const double lo = std::nearbyint(range->lo), hi = std::nearbyint(range->hi);
    if (lo < 0 || hi > static_cast<double>(*n - 1)) {
      return bad(absl::StrCat("draws indices in [", lo, ", ", hi, "] but they index [0, ", *n,
                              ") (", Indexed(target, *n), ")"));
    }
  }
  return absl::OkStatus();
}

}  // namespace shrt
