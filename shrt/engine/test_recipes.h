// For tests of the engine: the checked-in recipes and a strategy of fixed
// rules.
#ifndef SHRT_ENGINE_TEST_RECIPES_H_
#define SHRT_ENGINE_TEST_RECIPES_H_

#include <memory>
#include <string>
#include <vector>

#include "shrt/engine/validate.h"
#include "shrt/spec/recipes.h"

namespace shrt {

// The checked-in recipes (op_specs/recipes), loaded once; aborts when they
// do not load. Tests using it need //op_specs:recipes as data.
std::shared_ptr<const RecipeSet> TestRecipes();

// A strategy that claims `rules` (rule text, placement.h ParseRule) on
// every sample; a rule that does not parse fails the calling test.
RuleSource ClaimRules(std::vector<std::string> rules);

}  // namespace shrt

#endif  // SHRT_ENGINE_TEST_RECIPES_H_
