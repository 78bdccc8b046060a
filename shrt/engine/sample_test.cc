#include "shrt/engine/sample.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ATen/TensorOperators.h"
#include "ATen/core/Tensor.h"
#include "ATen/ops/arange.h"
#include "ATen/ops/equal.h"
#include "ATen/ops/full.h"
#include "ATen/ops/ones.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shrt/engine/test_recipes.h"

namespace shrt {
namespace {

using ::testing::HasSubstr;

// The first sample of `text`'s spec, bound for its op, or for its group's
// overload `variant` when given.
absl::StatusOr<BoundSample> BindText(const std::string& text,
                                     const std::optional<c10::OperatorName>& variant = std::nullopt) {
  absl::StatusOr<LoadedSpec> spec = LoadedSpec::FromText(text, "test.textproto", TestRecipes());
  if (!spec.ok()) return spec.status();
  if (variant.has_value()) spec = spec->ForOverload(*variant);
  if (!spec.ok()) return spec.status();
  absl::StatusOr<std::vector<BoundSample>> all = BoundSample::BindAll(*spec, 0);
  if (!all.ok()) return all.status();
  return all->front();
}

TEST(SpecLoaderTest, SyntaxErrorsNameFileLineAndColumn) {
  absl::StatusOr<LoadedSpec> spec =
      LoadedSpec::FromText("op: \"aten::relu\"\nsample { nme: \"x\" }\n", "bad.textproto", TestRecipes());
  ASSERT_FALSE(spec.ok());
  EXPECT_THAT(std::string(spec.status().message()), HasSubstr("bad.textproto:2:"));
  EXPECT_THAT(std::string(spec.status().message()), HasSubstr("nme"));
}

TEST(SpecLoaderTest, UnknownOverloadSuggestsCloseMatches) {
  absl::StatusOr<LoadedSpec> spec = LoadedSpec::FromText(
      "# comment\nop: \"aten::mull.Tensor\"\nsample { name: \"a\" }\n", "typo.textproto", TestRecipes());
  ASSERT_FALSE(spec.ok());
  EXPECT_EQ(spec.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(spec.status().message()), HasSubstr("typo.textproto:2: field 'op'"));
  EXPECT_THAT(std::string(spec.status().message()), HasSubstr("aten::mul.Tensor"));
}

// A NaN, infinite or negative tolerance would silently pass or fail every
// comparison: refused, naming the file, line and field.
TEST(SpecLoaderTest, TolerancesMustBeFiniteAndNonNegative) {
  for (const std::string bad : {"atol: nan", "rtol: inf", "atol: -1e-5"}) {
    absl::StatusOr<LoadedSpec> spec = LoadedSpec::FromText(
        "op: \"aten::relu\"\ntolerance { " + bad + " }\nsample { name: \"a\" }\n",
        "tol.textproto", TestRecipes());
    ASSERT_FALSE(spec.ok()) << bad;
    EXPECT_THAT(std::string(spec.status().message()), HasSubstr("tol.textproto:2: field 'tolerance."))
        << bad;
    EXPECT_THAT(std::string(spec.status().message()),
                HasSubstr("is not a finite, non-negative tolerance"));
  }
  EXPECT_TRUE(LoadedSpec::FromText(
                  "op: \"aten::relu\"\ntolerance { atol: 1e-4 rtol: 0 }\n"
                  "sample { name: \"a\" arg { name: \"self\" tensor { shape: [2] } } }\n",
                  "tol.textproto", TestRecipes())
                  .ok());
}

TEST(SpecLoaderTest, SampleNamesMustBeUniqueIdentifiers) {
  EXPECT_THAT(std::string(LoadedSpec::FromText("op: \"aten::relu\"\nsample { name: \"a b\" }",
                                               "s.textproto", TestRecipes())
                              .status()
                              .message()),
              HasSubstr("s.textproto:2: field 'sample[0].name'"));
  EXPECT_THAT(std::string(LoadedSpec::FromText(
                              "op: \"aten::relu\"\nsample { name: \"a\" }\nsample { name: \"a\" }",
                              "s.textproto", TestRecipes())
                              .status()
                              .message()),
              HasSubstr("used twice"));
  EXPECT_THAT(std::string(LoadedSpec::FromText("op: \"aten::relu\"", "s.textproto", TestRecipes()).status().message()),
              HasSubstr("at least one"));
}

TEST(BindTest, ArgumentErrorsNameTheLineAndField) {
  absl::StatusOr<BoundSample> b = BindText(
      "op: \"aten::add.Tensor\"\n"
      "sample {\n"
      "  name: \"s\"\n"
      "  arg { name: \"self\" tensor { shape: [2] } }\n"
      "  arg { name: \"othr\" tensor { shape: [2] } }\n"
      "}\n");
  ASSERT_FALSE(b.ok());
  EXPECT_THAT(std::string(b.status().message()), HasSubstr("test.textproto:5: field 'sample[0].arg[1] (sample 's')'"));
  EXPECT_THAT(std::string(b.status().message()), HasSubstr("no argument named 'othr'"));
}

TEST(BindTest, MissingRequiredAndWrongTypes) {
  EXPECT_THAT(std::string(BindText("op: \"aten::add.Tensor\"\nsample { name: \"s\"\n"
                                   "arg { name: \"self\" tensor { shape: [2] } } }")
                              .status()
                              .message()),
              HasSubstr("'other'"));
  EXPECT_THAT(std::string(BindText("op: \"aten::add.Tensor\"\nsample { name: \"s\"\n"
                                   "arg { name: \"self\" tensor { shape: [2] } }\n"
                                   "arg { name: \"other\" int_value: 3 } }")
                              .status()
                              .message()),
              HasSubstr("schema type Tensor"));
}

TEST(BindTest, TensorListsFlattenInOrder) {
  absl::StatusOr<BoundSample> b = BindText(
      "op: \"aten::cat\"\nsample { name: \"s\"\n"
      "arg { name: \"tensors\" tensors { tensor { shape: [2, 3] } tensor { shape: [4, 3] } } }\n"
      "arg { name: \"dim\" int_value: 0 } }");
  ASSERT_TRUE(b.ok()) << b.status();
  ASSERT_EQ(b->inputs().size(), 2u);
  EXPECT_EQ(b->inputs()[1].label, "tensors[1]");
  absl::StatusOr<std::vector<at::Tensor>> out =
      b->Call({at::ones({2, 3}), at::ones({4, 3})});
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 1u);
  EXPECT_EQ((*out)[0].size(0), 6);
}

TEST(BindTest, MultiOutputsFlatten) {
  absl::StatusOr<BoundSample> b = BindText(
      "op: \"aten::max.dim\"\nsample { name: \"s\"\n"
      "arg { name: \"self\" tensor { shape: [3, 4] } }\narg { name: \"dim\" int_value: 1 } }");
  ASSERT_TRUE(b.ok()) << b.status();
  absl::StatusOr<std::vector<at::Tensor>> out = b->Call({at::ones({3, 4})});
  ASSERT_TRUE(out.ok());
  ASSERT_EQ(out->size(), 2u);
  EXPECT_EQ((*out)[1].scalar_type(), at::kLong);
}

TEST(BindTest, InPlaceOutputAliasesSelf) {
  absl::StatusOr<BoundSample> b = BindText(
      "op: \"aten::add_.Tensor\"\nsample { name: \"s\"\n"
      "arg { name: \"self\" tensor { shape: [3] } }\narg { name: \"other\" tensor { shape: [3] } } }");
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_TRUE(b->mutates());
  EXPECT_EQ(b->output_aliases(), std::vector<int>{0});
  const at::Tensor self = at::ones({3});
  absl::StatusOr<std::vector<at::Tensor>> out = b->Call({self, at::ones({3})});
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(self[0].item<float>(), 2.0f);
}

TEST(BindTest, OutVariantsGetAFreshOutTensorPerCall) {
  absl::StatusOr<BoundSample> b = BindText(
      "op: \"aten::add.out\"\nsample { name: \"s\"\n"
      "arg { name: \"self\" tensor { shape: [3] } }\narg { name: \"other\" tensor { shape: [3] } } }");
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b->inputs().size(), 2u);
  EXPECT_EQ(b->output_aliases(), std::vector<int>{-1});
  // Writing only its fresh out= tensor, it writes no input.
  EXPECT_FALSE(b->mutates());
  absl::StatusOr<std::vector<at::Tensor>> first = b->Call({at::ones({3}), at::ones({3})});
  absl::StatusOr<std::vector<at::Tensor>> second = b->Call({at::ones({3}), at::ones({3})});
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_NE((*first)[0].data_ptr(), (*second)[0].data_ptr());
  EXPECT_TRUE(at::equal((*first)[0], at::ones({3}) * 2));
}

// An out= variant that also writes a non-out= argument (the running stats)
// writes its inputs.
TEST(BindTest, OutVariantWritingAnInputMutates) {
  absl::StatusOr<BoundSample> b = BindText(
      "op: \"aten::_native_batch_norm_legit.out\"\nsample { name: \"s\"\n"
      "arg { name: \"input\" tensor { shape: [2, 3] } }\narg { name: \"weight\" none: true }\n"
      "arg { name: \"bias\" none: true }\narg { name: \"running_mean\" tensor { shape: [3] } }\n"
      "arg { name: \"running_var\" tensor { shape: [3] } }\narg { name: \"training\" bool_value: true }\n"
      "arg { name: \"momentum\" float_value: 0.1 }\narg { name: \"eps\" float_value: 1e-5 } }");
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_TRUE(b->mutates());
}

// An in-place list op returns nothing: its outputs are the self list it
// writes, each element aliasing its input.
TEST(BindTest, InPlaceListOpsReturningNothingOutputTheWrittenList) {
  absl::StatusOr<BoundSample> b = BindText(
      "op: \"aten::_foreach_add_.List\"\nsample { name: \"s\"\n"
      "arg { name: \"self\" tensors { tensor { shape: [3] } tensor { shape: [2, 2] } } }\n"
      "arg { name: \"other\" tensors { tensor { shape: [3] } tensor { shape: [2, 2] } } } }");
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b->output_aliases(), (std::vector<int>{0, 1}));
  const std::vector<at::Tensor> in = {at::ones({3}), at::ones({2, 2}), at::ones({3}), at::ones({2, 2})};
  absl::StatusOr<std::vector<at::Tensor>> out = b->Call(in);
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 2u);
  EXPECT_TRUE((*out)[0].is_same(in[0]));
  EXPECT_TRUE((*out)[1].is_same(in[1]));
  EXPECT_TRUE(at::equal((*out)[1], at::full({2, 2}, 2.0)));
}

// A Tensor[] out= argument gets one tensor per functional output, shaped
// and typed like it; the written list is the output.
TEST(BindTest, OutListsGetOneTensorPerFunctionalOutput) {
  const c10::OperatorName out_variant("aten::split_copy", "Tensor_out");
  absl::StatusOr<BoundSample> b = BindText(
      "op: \"aten::split_copy.Tensor\"\nsample { name: \"s\"\n"
      "arg { name: \"self\" tensor { shape: [5, 2] } }\narg { name: \"split_size\" int_value: 2 } }",
      out_variant);
  ASSERT_TRUE(b.ok()) << b.status();
  absl::StatusOr<std::vector<at::Tensor>> out = b->Call({at::arange(10, at::kFloat).reshape({5, 2})});
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 3u);
  EXPECT_EQ((*out)[2].sizes(), (std::vector<int64_t>{1, 2}));
  EXPECT_TRUE(at::equal((*out)[2], at::arange(8, 10, at::kFloat).reshape({1, 2})));
  absl::StatusOr<BoundSample> given = BindText(
      "op: \"aten::split_copy.Tensor\"\nsample { name: \"s\"\n"
      "arg { name: \"self\" tensor { shape: [5, 2] } }\narg { name: \"split_size\" int_value: 2 }\n"
      "arg { name: \"out\" tensor { shape: [1] } } }",
      out_variant);
  ASSERT_FALSE(given.ok());
  EXPECT_THAT(std::string(given.status().message()), HasSubstr("a Tensor[] out= argument takes no value"));
}

// bool[] arguments bind from bool_list; an output a false output_mask entry
// leaves undefined is an error, not a crash.
TEST(BindTest, BoolListsBindAndUndefinedOutputsAreErrors) {
  absl::StatusOr<BoundSample> b = BindText(
      "op: \"aten::native_group_norm_backward\"\nsample { name: \"s\"\n"
      "arg { name: \"grad_out\" tensor { shape: [2, 4, 3] dtype: FLOAT64 } }\n"
      "arg { name: \"input\" tensor { shape: [2, 4, 3] dtype: FLOAT64 } }\n"
      "arg { name: \"mean\" tensor { shape: [2, 2] dtype: FLOAT64 } }\n"
      "arg { name: \"rstd\" tensor { shape: [2, 2] dtype: FLOAT64 } }\n"
      "arg { name: \"weight\" tensor { shape: [4] dtype: FLOAT64 } }\n"
      "arg { name: \"N\" int_value: 2 } arg { name: \"C\" int_value: 4 }\n"
      "arg { name: \"HxW\" int_value: 3 } arg { name: \"group\" int_value: 2 }\n"
      "arg { name: \"output_mask\" bool_list { value: [true, false, true] } } }");
  ASSERT_TRUE(b.ok()) << b.status();
  std::vector<at::Tensor> in;
  for (const auto& i : b->inputs()) in.push_back(at::ones(i.shape, at::kDouble));
  absl::StatusOr<std::vector<at::Tensor>> out = b->Call(in);
  ASSERT_FALSE(out.ok());
  EXPECT_THAT(std::string(out.status().message()), HasSubstr("output 1 is an undefined tensor"));
}

TEST(BindTest, OperatorErrorsBecomeStatus) {
  absl::StatusOr<BoundSample> b = BindText(
      "op: \"aten::mm\"\nsample { name: \"s\"\n"
      "arg { name: \"self\" tensor { shape: [2, 3] } }\narg { name: \"mat2\" tensor { shape: [3, 2] } } }");
  ASSERT_TRUE(b.ok()) << b.status();
  absl::StatusOr<std::vector<at::Tensor>> out = b->Call({at::ones({2, 3}), at::ones({2, 2})});
  ASSERT_FALSE(out.ok());
  EXPECT_THAT(std::string(out.status().message()), HasSubstr("cannot be multiplied"));
}

TEST(BindTest, DescribesArguments) {
  absl::StatusOr<BoundSample> b = BindText(
      "op: \"aten::add.Tensor\"\nsample { name: \"s\"\n"
      "arg { name: \"self\" tensor { shape: [8, 16] } }\narg { name: \"other\" tensor { shape: [16] dtype: FLOAT64 } }\n"
      "arg { name: \"alpha\" float_value: 2.5 } }");
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b->Describe(), "self=Float[8, 16], other=Double[16], alpha=2.5");
}

}  // namespace
}  // namespace shrt

namespace shrt {
namespace {

TEST(BindTest, SweepsExpandIntoNamedSamples) {
  absl::StatusOr<LoadedSpec> spec = LoadedSpec::FromText(
      "op: \"aten::sum.dim_IntList\"\nsample { name: \"s\"\n"
      "arg { name: \"self\" tensor { shape: [3, 4] } }\n"
      "sweep { name: \"dim\" int_lists { value: [0] } int_lists { value: [-1] } }\n"
      "sweep { name: \"keepdim\" bool_values: [false, true] } }",
      "sweep.textproto", TestRecipes());
  ASSERT_TRUE(spec.ok()) << spec.status();
  absl::StatusOr<std::vector<BoundSample>> all = BoundSample::BindAll(*spec, 0);
  ASSERT_TRUE(all.ok()) << all.status();
  std::vector<std::string> names;
  for (const BoundSample& b : *all) names.push_back(b.name());
  EXPECT_THAT(names, ::testing::ElementsAre("s[dim=[0], keepdim=False]", "s[dim=[-1], keepdim=False]",
                                            "s[dim=[0], keepdim=True]", "s[dim=[-1], keepdim=True]"));
}

TEST(BindTest, SweepErrorsNameTheSweep) {
  absl::StatusOr<LoadedSpec> spec = LoadedSpec::FromText(
      "op: \"aten::sum.dim_IntList\"\nsample { name: \"s\"\n"
      "arg { name: \"self\" tensor { shape: [3, 4] } }\n"
      "sweep { name: \"dim\" int_lists { value: [0] } }\n"
      "sweep { name: \"keepdim\" int_values: [3] } }",
      "sweep.textproto", TestRecipes());
  ASSERT_TRUE(spec.ok()) << spec.status();
  absl::Status s = BoundSample::BindAll(*spec, 0).status();
  EXPECT_THAT(std::string(s.message()), HasSubstr("sweep.textproto:5: field 'sample[0].sweep[1]"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("keepdim"));
}

TEST(SpecLoaderTest, UnknownRecipesAndWorldSizesNameTheField) {
  EXPECT_THAT(std::string(LoadedSpec::FromText(
                              "op: \"aten::relu\"\nsample { name: \"s\"\n"
                              "arg { name: \"self\" tensor { shape: [3] recipe: \"postive\" } } }",
                              "r.textproto", TestRecipes())
                              .status()
                              .message()),
              HasSubstr("r.textproto:3: field 'sample[0].arg[0] (self).recipe': unknown recipe 'postive'"));
  EXPECT_THAT(std::string(LoadedSpec::FromText(
                              "op: \"aten::relu\"\nworld_sizes: [4, 1]\nsample { name: \"s\" }",
                              "w.textproto", TestRecipes())
                              .status()
                              .message()),
              HasSubstr("w.textproto:2: field 'world_sizes[1]'"));
}

// A taken sample (samples_from) brings its shapes and its inputs' own
// recipes; an input that names none gets the taking spec's recipe (its
// op's domain), as the spec's own samples do.
TEST(BindTest, TakenSamplesGetTheTakingSpecsRecipe) {
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
TEST(BindTest, ArgRecipesOverTheSpecsRecipe) {
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
TEST(BindTest, SourceRecipesOverTheSpecsAndTravelWithTheSamples) {
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
    EXPECT_THAT(std::string(LoadedSpec::FromText(absl::StrCat("op: \"aten::div.Tensor\"\n"
                                                              "samples_from { op: \"aten::add.Tensor\" ",
                                                              entry, " }\n"),
                                                 "div.textproto", TestRecipes(), {&*add})
                                .status()
                                .message()),
                HasSubstr(error))
        << entry;
  }
}

// A samples_from entry's rename gives the taken samples' args and sweeps
// this spec's names for them, all at once (a swap stays a swap), before
// its arg_recipe, which names this spec's arguments; a rename that
// reaches nothing, repeats, or gives one argument twice is an error.
TEST(BindTest, RenamedSamplesBindUnderTheTakingSpecsNames) {
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
    EXPECT_THAT(std::string(LoadedSpec::FromText(absl::StrCat("op: \"aten::heaviside\"\n"
                                                              "samples_from { op: \"aten::add.Tensor\" ",
                                                              entry, " }\n"),
                                                 "h.textproto", TestRecipes(), {&*add})
                                .status()
                                .message()),
                HasSubstr(error))
        << entry;
  }
}

TEST(BindTest, LayoutsNeedEnoughDims) {
  EXPECT_THAT(std::string(BindText("op: \"aten::relu\"\nsample { name: \"s\"\n"
                                   "arg { name: \"self\" tensor { shape: [3] layout: TRANSPOSED } } }")
                              .status()
                              .message()),
              HasSubstr("TRANSPOSED needs >= 2 dims"));
}

}  // namespace
}  // namespace shrt
