#include "shrt/spec/recipes.h"

#include "ATen/core/Tensor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shrt/engine/test_recipes.h"
#include "shrt/engine/test_tensors.h"
#include "shrt/spec/generators.h"

namespace shrt {
namespace {

using ::testing::HasSubstr;

GenContext NoContext() {
  return {[](absl::string_view) { return std::optional<std::vector<int64_t>>(); },
          [](absl::string_view) { return std::optional<int64_t>(); }};
}

TEST(RecipesTest, DefaultRecipeHasAtLeastSixGeneratorsAndInputsDiffer) {
  absl::StatusOr<const Recipe*> recipe = TestRecipes()->Find("default");
  ASSERT_TRUE(recipe.ok());
  EXPECT_GE((*recipe)->generator_size(), 6);
  for (const Generator& g : (*recipe)->generator()) {
    for (at::ScalarType dtype : {at::kFloat, at::kLong, at::kBool}) {
      const at::Tensor a = *Generate(g, {4, 6}, dtype, 0, 11, NoContext());
      const at::Tensor b = *Generate(g, {4, 6}, dtype, 1, 11, NoContext());
      EXPECT_EQ(a.scalar_type(), dtype);
      // nan equal to nan: the `nonfinite` generator draws some.
      auto same = [](const at::Tensor& x, const at::Tensor& y) {
        return x.isnan().equal(y.isnan()) && x.nan_to_num(0, 0, 0).equal(y.nan_to_num(0, 0, 0)) &&
               x.isinf().equal(y.isinf());
      };
      EXPECT_FALSE(same(a, b)) << g.name() << " " << c10::toString(dtype);
      EXPECT_TRUE(same(a, *Generate(g, {4, 6}, dtype, 0, 11, NoContext()))) << "deterministic";
    }
  }
}

TEST(RecipesTest, PositiveRecipeIsPositiveAndNonzeroIsNonzero) {
  for (const char* name : {"positive", "nonzero"}) {
    for (const Generator& g : (*TestRecipes()->Find(name))->generator()) {
      const at::Tensor t = *Generate(g, {5, 5}, at::kFloat, 0, 1, NoContext());
      EXPECT_GT(name == std::string("positive") ? t.min().item<float>() : t.abs().min().item<float>(), 0)
          << name << " " << g.name();
    }
  }
}

TEST(RecipesTest, UnknownRecipeListsKnownOnes) {
  absl::StatusOr<const Recipe*> r = TestRecipes()->Find("nope");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("default"));
}

TEST(RecipesTest, BadRecipesNameFileLineAndField) {
  struct Case {
    const char* text;
    const char* message;
  };
  for (const Case& c : {
           Case{"name: \"r\"\ngenerator { name: \"u\" uniform { low: 2 high: 1 } }",
                "r.textproto:2: field 'generator[0] (u)': uniform needs low < high"},
           Case{"name: \"other\"\ngenerator { name: \"u\" normal {} }", "must equal the file name"},
           Case{"name: \"r\"", "at least one generator"},
           Case{"name: \"r\"\ngenerator { name: \"a\" normal {} }\ngenerator { name: \"a\" normal {} }",
                "r.textproto:3: field 'generator[1]'"},
           Case{"name: \"r\"\ngenerator { name: \"c\" constant { value: 1 } }", "per_input_step"},
           Case{"name: \"r\"\ngenerator { name: \"x\" }", "has no kind"},
           Case{"name: \"r\"\ngenerator { name: \"i\" index { of_arg: \"self\" } }", "dim or dim_arg"},
           Case{"name: \"r\"\ngenerater { }", "r.textproto:2:1"},
           // Issue 14: numeric settings are finite, non-negative where a
           // magnitude, and cannot overflow double precision.
           Case{"name: \"r\"\ngenerator { name: \"n\" normal { mean: nan } }",
                "r.textproto:2: field 'generator[0] (n)': normal mean is nan; parameters must be finite"},
           Case{"name: \"r\"\ngenerator { name: \"t\" ties { values: [1, -inf] } }",
                "ties values[1] is -inf; parameters must be finite"},
           Case{"name: \"r\"\ngenerator { name: \"n\" normal { std: -1 } }", "std must not be negative"},
           Case{"name: \"r\"\ngenerator { name: \"s\" sparse { density: 0.5 low: -1 high: 2 } }",
                "sparse low is a magnitude"},
           Case{"name: \"r\"\ngenerator { name: \"m\" magnitude { min_exp: 0 max_exp: 400 } }",
                "magnitude max_exp 400 is more than 308: 10^max_exp overflows to inf"},
           Case{"name: \"r\"\ngenerator { name: \"i\" index { of_arg: \"self\" dim: 0 size_arg: \"n\" } }",
                "give either of_arg with dim or dim_arg, or size_arg"},
           Case{"name: \"r\"\ngenerator { name: \"t\" ties { values: [0, 1] } }\nindexes { dim: 0 }",
                "r.textproto:3: field 'indexes': index needs of_arg"},
       }) {
    absl::StatusOr<RecipeSet> set = RecipeSet::FromFiles({{"dir/r.textproto", c.text}});
    ASSERT_FALSE(set.ok()) << c.text;
    EXPECT_THAT(std::string(set.status().message()), HasSubstr(c.message)) << c.text;
  }
}

TEST(RecipesTest, IndexGeneratorFollowsAnotherArgumentsSize) {
  Generator g;
  g.set_name("idx");
  g.mutable_index()->set_of_arg("weight");
  g.mutable_index()->set_dim_arg("dim");
  GenContext ctx{[](absl::string_view name) -> std::optional<std::vector<int64_t>> {
                   if (name == "weight") return std::vector<int64_t>{3, 9};
                   return std::nullopt;
                 },
                 [](absl::string_view name) -> std::optional<int64_t> {
                   if (name == "dim") return -1;
                   return std::nullopt;
                 }};
  const at::Tensor idx = *Generate(g, {200}, at::kLong, 0, 5, ctx);
  EXPECT_GE(idx.min().item<int64_t>(), 0);
  EXPECT_EQ(idx.max().item<int64_t>(), 8);
  g.mutable_index()->set_of_arg("missing");
  EXPECT_THAT(std::string(Generate(g, {2}, at::kLong, 0, 5, ctx).status().message()),
              HasSubstr("no tensor argument 'missing'"));
}

TEST(RecipesTest, IndexGeneratorMayTakeItsBoundFromAnIntArgument) {
  Generator g;
  g.set_name("idx");
  g.mutable_index()->set_size_arg("num_weights");
  GenContext ctx{[](absl::string_view) { return std::optional<std::vector<int64_t>>(); },
                 [](absl::string_view name) -> std::optional<int64_t> {
                   if (name == "num_weights") return 4;
                   return std::nullopt;
                 }};
  const at::Tensor idx = *Generate(g, {200}, at::kLong, 0, 5, ctx);
  EXPECT_EQ(idx.min().item<int64_t>(), 0);
  EXPECT_EQ(idx.max().item<int64_t>(), 3);
}

TEST(RecipesTest, IndexRecipesAreThoseThatSayWhatTheyIndex) {
  EXPECT_TRUE(IsIndexRecipe(**TestRecipes()->Find("gather_index")));
  EXPECT_TRUE(IsIndexRecipe(**TestRecipes()->Find("embedding_backward_indices")));
  EXPECT_TRUE(IsIndexRecipe(**TestRecipes()->Find("indexing_distinct_index")));
  EXPECT_FALSE(IsIndexRecipe(**TestRecipes()->Find("default")));
}

}  // namespace
}  // namespace shrt
