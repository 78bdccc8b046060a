#include "shrt/engine/sample.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ATen/core/Tensor.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shrt/engine/test_recipes.h"
#include "shrt/engine/test_tensors.h"

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
      b->Call({Ones({2, 3}), Ones({4, 3})});
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 1u);
  EXPECT_EQ((*out)[0].size(0), 6);
}

TEST(BindTest, MultiOutputsFlatten) {
  absl::StatusOr<BoundSample> b = BindText(
      "op: \"aten::max.dim\"\nsample { name: \"s\"\n"
      "arg { name: \"self\" tensor { shape: [3, 4] } }\narg { name: \"dim\" int_value: 1 } }");
  ASSERT_TRUE(b.ok()) << b.status();
  absl::StatusOr<std::vector<at::Tensor>> out = b->Call({Ones({3, 4})});
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
  const at::Tensor self = Ones({3});
  absl::StatusOr<std::vector<at::Tensor>> out = b->Call({self, Ones({3})});
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
  absl::StatusOr<std::vector<at::Tensor>> first = b->Call({Ones({3}), Ones({3})});
  absl::StatusOr<std::vector<at::Tensor>> second = b->Call({Ones({3}), Ones({3})});
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_NE((*first)[0].data_ptr(), (*second)[0].data_ptr());
  EXPECT_TRUE((*first)[0].equal(Ones({3}).mul(2)));
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
  const std::vector<at::Tensor> in = {Ones({3}), Ones({2, 2}), Ones({3}), Ones({2, 2})};
  absl::StatusOr<std::vector<at::Tensor>> out = b->Call(in);
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 2u);
  EXPECT_TRUE((*out)[0].is_same(in[0]));
  EXPECT_TRUE((*out)[1].is_same(in[1]));
  EXPECT_TRUE((*out)[1].equal(Full({2, 2}, 2.0)));
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
  absl::StatusOr<std::vector<at::Tensor>> out = b->Call({Arange(10, at::kFloat).reshape({5, 2})});
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 3u);
  EXPECT_EQ((*out)[2].sizes(), (std::vector<int64_t>{1, 2}));
  EXPECT_TRUE((*out)[2].equal(Arange(8, 10, at::kFloat).reshape({1, 2})));
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
  for (const auto& i : b->inputs()) in.push_back(Ones(i.shape, at::kDouble));
  absl::StatusOr<std::vector<at::Tensor>> out = b->Call(in);
  ASSERT_FALSE(out.ok());
  EXPECT_THAT(std::string(out.status().message()), HasSubstr("output 1 is an undefined tensor"));
}

TEST(BindTest, OperatorErrorsBecomeStatus) {
  absl::StatusOr<BoundSample> b = BindText(
      "op: \"aten::mm\"\nsample { name: \"s\"\n"
      "arg { name: \"self\" tensor { shape: [2, 3] } }\narg { name: \"mat2\" tensor { shape: [3, 2] } } }");
  ASSERT_TRUE(b.ok()) << b.status();
  absl::StatusOr<std::vector<at::Tensor>> out = b->Call({Ones({2, 3}), Ones({2, 2})});
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

TEST(BindTest, LayoutsNeedEnoughDims) {
  EXPECT_THAT(std::string(BindText("op: \"aten::relu\"\nsample { name: \"s\"\n"
                                   "arg { name: \"self\" tensor { shape: [3] layout: TRANSPOSED } } }")
                              .status()
                              .message()),
              HasSubstr("TRANSPOSED needs >= 2 dims"));
}

}  // namespace
}  // namespace shrt
