// For tests: the checked-in recipes (op_specs/recipes), loaded once. Tests
// using it need //op_specs:recipes as data.
#ifndef SHRT_TEST_RECIPES_H_
#define SHRT_TEST_RECIPES_H_

#include <memory>

#include "shrt/recipes.h"

namespace shrt {

std::shared_ptr<const RecipeSet> TestRecipes();

}  // namespace shrt

#endif  // SHRT_TEST_RECIPES_H_
