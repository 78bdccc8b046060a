#include "shrt/test_recipes.h"

#include <cstdlib>
#include <iostream>

namespace shrt {

std::shared_ptr<const RecipeSet> TestRecipes() {
  static const auto* recipes = [] {
    absl::StatusOr<RecipeSet> set = RecipeSet::FromDir("op_specs/recipes");
    if (!set.ok()) {
      std::cerr << "TestRecipes: " << set.status() << "\n";
      std::abort();
    }
    return new std::shared_ptr<const RecipeSet>(std::make_shared<const RecipeSet>(*std::move(set)));
  }();
  return *recipes;
}

}  // namespace shrt
