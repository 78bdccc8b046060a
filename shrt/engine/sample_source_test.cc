// How a sample's inputs get their recipes and their argument names from
// the spec and from the entries that take samples from other specs
// (spec.proto OpSpec.recipe and arg_recipe; SampleSource.recipe,
// arg_recipe and rename), and the errors of those fields, as the loaded
// spec binds them (sample.h BoundSample::BindAll).
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shrt/engine/sample.h"
#include "shrt/engine/spec_loader.h"
#include "shrt/engine/test_recipes.h"

namespace shrt {
namespace {

using ::testing::HasSubstr;

// The load error of the spec of `op` that takes add.Tensor's samples
// (`add`, loaded) through one entry whose fields past `op` are `entry`,
// read as `path`; empty if it loads.
std::string EntryError(const std::string& op, const std::string& entry, const std::string& path,
                       const LoadedSpec& add) {
  return std::string(
      LoadedSpec::FromText(absl::StrCat("op: \"", op, "\"\nsamples_from { op: \"aten::add.Tensor\" ",
                                        entry, " }\n"),
                           path, TestRecipes(), {&add})
          .status()
          .message());
}

// A taken sample (samples_from) brings its shapes and its inputs' own
// recipes; an input that names none gets the taking spec's recipe (its
// op's domain), as the spec's own samples do.
TEST(SampleSourceTest, TakenSamplesGetTheTakingSpecsRecipe) {
  absl::StatusOr<LoadedSpec> isfinite = LoadedSpec::FromText(
      "op: \"aten::isfinite\"\n"
      "sample { name: \"a\" arg { name: \"self\" tensor { shape: [3] } } }\n"
      "sample { name: \"b\" arg { name: \"self\" tensor { shape: [2] recipe: \"comparison_ties\" } } }\n",
      "isfinite.textproto", TestRecipes());
  ASSERT_TRUE(isfinite.ok()) << isfinite.status();
  absl::StatusOr<LoadedSpec> log = LoadedSpec::FromText(
      "op: \"aten::log\"\nrecipe: \"positive\"\n"
      "samples_from { op: \"aten::isfinite\" sample: [\"a\", \"b\"] }\n",
      "log.textproto", TestRecipes(), {&*isfinite});
  ASSERT_TRUE(log.ok()) << log.status();
  auto recipe = [](const LoadedSpec& spec, int s) {
    absl::StatusOr<std::vector<BoundSample>> bound = BoundSample::BindAll(spec, s);
    EXPECT_TRUE(bound.ok()) << bound.status();
    return bound.ok() ? bound->front().inputs().front().recipe : "";
  };
  EXPECT_EQ(recipe(*isfinite, 0), "default");
  EXPECT_EQ(recipe(*log, 0), "positive");
  EXPECT_EQ(recipe(*log, 1), "comparison_ties");
}

// arg_recipe gives one argument's inputs a recipe, over the spec's, in
// taken samples too; an entry must name a tensor argument of the overload.
TEST(SampleSourceTest, ArgRecipesOverTheSpecsRecipe) {
  absl::StatusOr<LoadedSpec> add = LoadedSpec::FromText(
      "op: \"aten::add.Tensor\"\n"
      "sample { name: \"a\" arg { name: \"self\" tensor { shape: [3] } }\n"
      "  arg { name: \"other\" tensor { shape: [3] } } }\n",
      "add.textproto", TestRecipes());
  ASSERT_TRUE(add.ok()) << add.status();
  absl::StatusOr<LoadedSpec> div = LoadedSpec::FromText(
      "op: \"aten::div.Tensor\"\nrecipe: \"positive\"\n"
      "arg_recipe { arg: \"other\" recipe: \"nonzero\" }\n"
      "samples_from { op: \"aten::add.Tensor\" }\n",
      "div.textproto", TestRecipes(), {&*add});
  ASSERT_TRUE(div.ok()) << div.status();
  absl::StatusOr<std::vector<BoundSample>> bound = BoundSample::BindAll(*div, 0);
  ASSERT_TRUE(bound.ok()) << bound.status();
  ASSERT_EQ(bound->front().inputs().size(), 2u);
  EXPECT_EQ(bound->front().inputs()[0].recipe, "positive");
  EXPECT_EQ(bound->front().inputs()[1].recipe, "nonzero");

  for (const auto& [entry, error] : std::vector<std::pair<std::string, std::string>>{
           {"arg_recipe { arg: \"alpha\" recipe: \"nonzero\" }",
            "div.textproto:2: field 'arg_recipe[0].arg': 'alpha' is not a tensor argument of "
            "aten::div.Tensor"},
           {"arg_recipe { arg: \"other\" recipe: \"nonzer\" }",
            "div.textproto:2: field 'arg_recipe[0].recipe': unknown recipe 'nonzer'"},
           {"arg_recipe { arg: \"other\" recipe: \"nonzero\" }\n"
            "arg_recipe { arg: \"other\" recipe: \"positive\" }",
            "div.textproto:3: field 'arg_recipe[1].arg': 'other' has an entry already"}}) {
    absl::StatusOr<LoadedSpec> bad = LoadedSpec::FromText(
        absl::StrCat("op: \"aten::div.Tensor\"\n", entry,
                     "\nsample { name: \"a\" arg { name: \"self\" tensor { shape: [3] } }\n"
                     "  arg { name: \"other\" tensor { shape: [3] } } }\n"),
        "div.textproto", TestRecipes());
    absl::Status status = bad.status();
    if (bad.ok()) status = BoundSample::BindAll(*bad, 0).status();
    EXPECT_THAT(std::string(status.message()), HasSubstr(error)) << entry;
  }
}

// A samples_from entry's recipe and arg_recipe give the samples it takes
// their recipes as if this spec wrote them: over the spec's recipe and
// arg_recipe, under an input's own, and carried on to a spec that takes
// them from this one; an entry that reaches no input is an error.
TEST(SampleSourceTest, SourceRecipesOverTheSpecsAndTravelWithTheSamples) {
  absl::StatusOr<LoadedSpec> add = LoadedSpec::FromText(
      "op: \"aten::add.Tensor\"\n"
      "sample { name: \"a\" arg { name: \"self\" tensor { shape: [3] } }\n"
      "  arg { name: \"other\" tensor { shape: [3] } } }\n"
      "sample { name: \"b\" arg { name: \"self\" tensor { shape: [2] recipe: \"comparison_ties\" } }\n"
      "  arg { name: \"other\" tensor { shape: [2] } } }\n",
      "add.textproto", TestRecipes());
  ASSERT_TRUE(add.ok()) << add.status();
  absl::StatusOr<LoadedSpec> div = LoadedSpec::FromText(
      "op: \"aten::div.Tensor\"\nrecipe: \"default\"\n"
      "arg_recipe { arg: \"self\" recipe: \"comparison_ties\" }\n"
      "samples_from { op: \"aten::add.Tensor\" recipe: \"positive\"\n"
      "  arg_recipe { arg: \"other\" recipe: \"nonzero\" } }\n",
      "div.textproto", TestRecipes(), {&*add});
  ASSERT_TRUE(div.ok()) << div.status();
  absl::StatusOr<LoadedSpec> sub = LoadedSpec::FromText(
      "op: \"aten::sub.Tensor\"\nrecipe: \"comparison_ties\"\n"
      "samples_from { op: \"aten::div.Tensor\" sample: \"b\" }\n",
      "sub.textproto", TestRecipes(), {&*div});
  ASSERT_TRUE(sub.ok()) << sub.status();
  auto recipes = [](const LoadedSpec& spec, int s) {
    std::vector<std::string> out;
    absl::StatusOr<std::vector<BoundSample>> bound = BoundSample::BindAll(spec, s);
    EXPECT_TRUE(bound.ok()) << bound.status();
    if (bound.ok()) {
      for (const auto& input : bound->front().inputs()) out.push_back(input.recipe);
    }
    return out;
  };
  EXPECT_THAT(recipes(*div, 0), ::testing::ElementsAre("positive", "nonzero"));
  EXPECT_THAT(recipes(*div, 1), ::testing::ElementsAre("comparison_ties", "nonzero"));
  EXPECT_THAT(recipes(*sub, 0), ::testing::ElementsAre("comparison_ties", "nonzero"));

  for (const auto& [entry, error] : std::vector<std::pair<std::string, std::string>>{
           {"recipe: \"postive\"", "div.textproto:2: field 'samples_from[0].recipe': unknown recipe 'postive'"},
           {"sample: \"b\" recipe: \"positive\" arg_recipe { arg: \"other\" recipe: \"nonzero\" }",
            "div.textproto:2: field 'samples_from[0].recipe': reaches no tensor input"},
           {"arg_recipe { arg: \"alpha\" recipe: \"nonzero\" }",
            "div.textproto:2: field 'samples_from[0].arg_recipe[0].arg': 'alpha' is no tensor input "
            "of the taken samples"},
           {"arg_recipe { arg: \"other\" recipe: \"nonzero\" } arg_recipe { arg: \"other\" "
            "recipe: \"positive\" }",
            "div.textproto:2: field 'samples_from[0].arg_recipe[1].arg': 'other' has an entry "
            "already"}}) {
    EXPECT_THAT(EntryError("aten::div.Tensor", entry, "div.textproto", *add), HasSubstr(error))
        << entry;
  }
}

// A samples_from entry's rename gives the taken samples' args and sweeps
// this spec's names for them, all at once (a swap stays a swap), before
// its arg_recipe, which names this spec's arguments; a rename that
// reaches nothing, repeats, or gives one argument twice is an error.
TEST(SampleSourceTest, RenamedSamplesBindUnderTheTakingSpecsNames) {
  absl::StatusOr<LoadedSpec> add = LoadedSpec::FromText(
      "op: \"aten::add.Tensor\"\n"
      "sample { name: \"row\" arg { name: \"self\" tensor { shape: [2, 3] } }\n"
      "  arg { name: \"other\" tensor { shape: [3] } } }\n",
      "add.textproto", TestRecipes());
  ASSERT_TRUE(add.ok()) << add.status();
  absl::StatusOr<LoadedSpec> heaviside = LoadedSpec::FromText(
      "op: \"aten::heaviside\"\n"
      "samples_from { op: \"aten::add.Tensor\" rename { arg: \"other\" to: \"values\" }\n"
      "  arg_recipe { arg: \"values\" recipe: \"nonzero\" } }\n",
      "heaviside.textproto", TestRecipes(), {&*add});
  ASSERT_TRUE(heaviside.ok()) << heaviside.status();
  absl::StatusOr<std::vector<BoundSample>> bound = BoundSample::BindAll(*heaviside, 0);
  ASSERT_TRUE(bound.ok()) << bound.status();
  ASSERT_EQ(bound->front().inputs().size(), 2u);
  EXPECT_EQ(bound->front().inputs()[1].label, "values");
  EXPECT_EQ(bound->front().inputs()[1].recipe, "nonzero");
  EXPECT_THAT(bound->front().inputs()[1].shape, ::testing::ElementsAre(3));

  // All at once: a swap of self and other binds other's [3] as self.
  absl::StatusOr<LoadedSpec> swapped = LoadedSpec::FromText(
      "op: \"aten::sub.Tensor\"\n"
      "samples_from { op: \"aten::add.Tensor\" rename { arg: \"self\" to: \"other\" }\n"
      "  rename { arg: \"other\" to: \"self\" } }\n",
      "sub.textproto", TestRecipes(), {&*add});
  ASSERT_TRUE(swapped.ok()) << swapped.status();
  EXPECT_EQ(swapped->proto().sample(0).arg(0).name(), "other");
  EXPECT_EQ(swapped->proto().sample(0).arg(1).name(), "self");

  for (const auto& [entry, error] : std::vector<std::pair<std::string, std::string>>{
           {"rename { arg: \"alpha\" to: \"values\" }",
            "h.textproto:2: field 'samples_from[0].rename[0].arg': 'alpha' is no argument of the "
            "taken samples"},
           {"rename { to: \"values\" }", "field 'samples_from[0].rename[0].arg': is required"},
           {"rename { arg: \"other\" }", "field 'samples_from[0].rename[0].to': is required"},
           {"rename { arg: \"other\" to: \"values\" } rename { arg: \"other\" to: \"input\" }",
            "field 'samples_from[0].rename[1].arg': 'other' has an entry already"},
           {"rename { arg: \"other\" to: \"values\" } rename { arg: \"self\" to: \"values\" }",
            "field 'samples_from[0].rename[1].to': 'values' is another entry's `to` already"},
           {"rename { arg: \"other\" to: \"self\" }",
            "field 'samples_from[0].rename': sample 'row' gives argument 'self' twice once "
            "renamed"}}) {
    EXPECT_THAT(EntryError("aten::heaviside", entry, "h.textproto", *add), HasSubstr(error))
        << entry;
  }
}

}  // namespace
}  // namespace shrt
