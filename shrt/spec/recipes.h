// The recipes a run may use, loaded from recipe.proto text files (one
// recipe per file, named after it) and checked once.
#ifndef SHRT_SPEC_RECIPES_H_
#define SHRT_SPEC_RECIPES_H_

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "shrt/spec/recipe.pb.h"

namespace shrt {

// The recipe every spec uses unless it names another.
inline constexpr absl::string_view kDefaultRecipe = "default";

class RecipeSet {
 public:
  // Parses and checks recipe files given as (path, text) pairs.
  // Errors: InvalidArgument "<path>:<line>: field '<field>': ..." for a
  // syntax error or unknown field, a name that is not the file's stem, a
  // name used twice, a recipe without generators, a generator without a
  // name or kind or with a repeated name, or bad parameters (any that is
  // NaN or infinite, a negative normal std, uniform or sparse low >= high,
  // a negative sparse low, density outside [0, 1], magnitude min_exp >=
  // max_exp or max_exp > kMaxMagnitudeExp (limits.h), fewer than 2 ties
  // values, a zero constant per_input_step, an index generator or
  // `indexes` that does not name exactly one of of_arg with a dim, and
  // size_arg). Whether values fit a sample's dtype, and indices what they
  // index, is checked per sample (recipe_fit.h).
  static absl::StatusOr<RecipeSet> FromFiles(
      const std::vector<std::pair<std::string, std::string>>& files);

  // Loads every "*.textproto" in `dir`. Errors: NotFound when `dir` cannot
  // be listed; otherwise those of FromFiles.
  static absl::StatusOr<RecipeSet> FromDir(const std::string& dir);

  // Errors: NotFound "unknown recipe 'x'; did you mean y? (known: a, b,
  // ...)", the suggestion only when one is close (suggest.h).
  absl::StatusOr<const Recipe*> Find(absl::string_view name) const;

  // Recipe names, sorted.
  std::vector<std::string> Names() const;

 private:
  std::map<std::string, Recipe, std::less<>> recipes_;
};

// True if `recipe` draws indices: it says what they index (`indexes`), or
// every generator is an index generator (recipe.proto IndexGen). Its
// tensors are index tensors, which take no Partial placement (cases.h
// InputCandidates).
bool IsIndexRecipe(const Recipe& recipe);

}  // namespace shrt

#endif  // SHRT_SPEC_RECIPES_H_
