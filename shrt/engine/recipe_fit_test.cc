#include "shrt/spec/recipe_fit.h"

#include <map>

#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "shrt/engine/sample.h"
#include "shrt/engine/test_recipes.h"

namespace shrt {
namespace {

using ::testing::HasSubstr;

GenContext Ints(std::map<std::string, int64_t> ints) {
  return {[](absl::string_view) { return std::optional<std::vector<int64_t>>(); },
          [ints](absl::string_view name) -> std::optional<int64_t> {
            auto it = ints.find(std::string(name));
            if (it == ints.end()) return std::nullopt;
            return it->second;
          }};
}

Recipe OneGenerator(const std::string& text) {
  Recipe r;
  r.set_name("r");
  Generator* g = r.add_generator();
  g->set_name("g");
  EXPECT_TRUE(google::protobuf::TextFormat::MergeFromString(text, g)) << text;
  return r;
}

std::string Fit(const Recipe& r, c10::ScalarType dtype, const GenContext& ctx = Ints({})) {
  return std::string(CheckRecipeFits(r, {4, 5}, dtype, 0, ctx).message());
}

TEST(RecipeFitTest, ValuesMustStayFiniteInTheDtype) {
  // Issue 14: a scale of 1e39 is inf in float32.
  const Recipe big = OneGenerator("normal { mean: 1e39 }");
  EXPECT_EQ(Fit(big, c10::ScalarType::Float),
            "recipe 'r', generator 'g': draws values up to 1e+39 in magnitude, more than Float's "
            "largest finite value 3.40282e+38 (they would be inf)");
  EXPECT_EQ(Fit(big, c10::ScalarType::Double), "");
  EXPECT_EQ(Fit(big, c10::ScalarType::Long), "");  // integers clamp
  const Recipe spread = OneGenerator("magnitude { min_exp: -3 max_exp: 6 }");
  EXPECT_THAT(Fit(spread, c10::ScalarType::Half), HasSubstr("Half's largest finite value 65504"));
  EXPECT_EQ(Fit(spread, c10::ScalarType::BFloat16), "");
  // An arange grows with the element count.
  const Recipe arange = OneGenerator("arange { start: 65000 step: 100 }");
  EXPECT_THAT(Fit(arange, c10::ScalarType::Half), HasSubstr("draws values up to 66900"));
}

TEST(RecipeFitTest, CheckedInRecipesFitTheirUsualInputs) {
  for (const std::string& name : TestRecipes()->Names()) {
    const Recipe& r = **TestRecipes()->Find(name);
    if (IsIndexRecipe(r)) continue;
    for (c10::ScalarType dtype : {c10::ScalarType::Half, c10::ScalarType::Float, c10::ScalarType::Long}) {
      EXPECT_EQ(Fit(r, dtype), "") << name;
    }
  }
}

TEST(RecipeFitTest, IndicesMustLieInsideWhatTheyIndex) {
  const Recipe& r = **TestRecipes()->Find("embedding_backward_indices");
  EXPECT_EQ(Fit(r, c10::ScalarType::Long, Ints({{"num_weights", 6}})), "");
  EXPECT_EQ(Fit(r, c10::ScalarType::Long, Ints({{"num_weights", 2}})),
            "recipe 'embedding_backward_indices', generator 'index_ties': draws indices in [0, 4] "
            "but they index [0, 2) ('num_weights' is 2)");
  EXPECT_THAT(Fit(r, c10::ScalarType::Long), HasSubstr("no int argument 'num_weights'"));
  EXPECT_THAT(Fit(r, c10::ScalarType::Long, Ints({{"num_weights", 0}})),
              HasSubstr("'num_weights' is 0, so no index exists"));
}

// Issue 14: embedding_dense_backward with num_weights 2 and
// scale_grad_by_freq corrupted the heap; the sample is refused when bound.
TEST(RecipeFitTest, EmbeddingBackwardWithTooFewWeightsIsRefusedWhenBound) {
  absl::StatusOr<LoadedSpec> spec = LoadedSpec::FromText(R"pb(
    op: "aten::embedding_dense_backward"
    sample {
      name: "few_weights"
      arg { name: "grad_output" tensor { shape: [3, 5, 7] } }
      arg { name: "indices" tensor { shape: [3, 5] dtype: INT64 recipe: "embedding_backward_indices" } }
      arg { name: "num_weights" int_value: 2 }
      arg { name: "padding_idx" int_value: -1 }
      arg { name: "scale_grad_by_freq" bool_value: true }
    }
  )pb", "e.textproto", TestRecipes());
  ASSERT_TRUE(spec.ok()) << spec.status();
  absl::StatusOr<std::vector<BoundSample>> bound = BoundSample::BindAll(*spec, 0);
  ASSERT_FALSE(bound.ok());
  EXPECT_EQ(bound.status().message(),
            "e.textproto:6: field 'sample[0].arg[1] (sample 'few_weights')': input 'indices': "
            "recipe 'embedding_backward_indices', generator 'index_ties': draws indices in [0, 4] "
            "but they index [0, 2) ('num_weights' is 2)");
}

}  // namespace
}  // namespace shrt
