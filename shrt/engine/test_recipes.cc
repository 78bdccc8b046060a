#include "shrt/engine/test_recipes.h"

#include <cstdlib>
#include <iostream>

#include "gtest/gtest.h"

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

RuleSource ClaimRules(std::vector<std::string> rules) {
  return [rules = std::move(rules)](const OpArgs&) -> absl::StatusOr<std::vector<Rule>> {
    std::vector<Rule> out;
    for (const std::string& text : rules) {
      absl::StatusOr<Rule> rule = ParseRule(text);
      EXPECT_TRUE(rule.ok()) << text << ": " << rule.status();
      if (rule.ok()) out.push_back(*std::move(rule));
    }
    return out;
  };
}

}  // namespace shrt
