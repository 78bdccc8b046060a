// Loading spec trees from disk (LoadSpecTree, LoadSpecFile): links, names,
// recipes, samples_from chains and bad samples, each reported rather than
// skipped or thrown.
#include "shrt/engine/spec_tree.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shrt/engine/sample.h"
#include "shrt/ops/overload_name.h"

namespace shrt {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kRecipes[] = "op_specs/recipes";
constexpr char kRelu[] =
    "op: \"aten::relu\"\nsample { name: \"a\" arg { name: \"self\" tensor { shape: [4, 3] } } }\n";

// A fresh spec tree for one test.
fs::path Tree(const std::string& name) {
  const fs::path root = fs::path(std::getenv("TEST_TMPDIR")) / name;
  fs::remove_all(root);
  fs::create_directories(root);
  return root;
}

void Write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

std::vector<std::string> Ops(const std::vector<LoadedSpec>& specs) {
  std::vector<std::string> out;
  for (const LoadedSpec& s : specs) out.push_back(OverloadToString(s.op()));
  return out;
}

TEST(SpecTreeTest, WalksSymlinkedFamilyFolders) {
  // Issue 14: a family folder that is a symlink was never walked.
  const fs::path root = Tree("linked_family");
  Write(root / "../linked_family_elsewhere/aten_relu.textproto", kRelu);
  fs::create_directory_symlink(fs::canonical(root / "../linked_family_elsewhere"), root / "unary");
  absl::StatusOr<std::vector<LoadedSpec>> specs = LoadSpecTree(root.string(), kRecipes);
  ASSERT_TRUE(specs.ok()) << specs.status();
  EXPECT_THAT(Ops(*specs), ElementsAre("aten::relu", "aten::relu_", "aten::relu.out"));
  EXPECT_EQ(specs->front().path(), (root / "unary/aten_relu.textproto").string());
}

TEST(SpecTreeTest, AFolderReachedTwiceIsWalkedOnce) {
  const fs::path root = Tree("loop_of_folders");
  Write(root / "unary/aten_relu.textproto", kRelu);
  fs::create_directory_symlink("..", root / "unary/up");  // unary/up/unary/up/...
  absl::StatusOr<std::vector<LoadedSpec>> specs = LoadSpecTree(root.string(), kRecipes);
  ASSERT_TRUE(specs.ok()) << specs.status();
  EXPECT_EQ(specs->size(), 3u);
}

TEST(SpecTreeTest, ALinkThatCannotBeFollowedIsAnError) {
  // Issue 14: a symlink loop threw an uncaught filesystem_error.
  const fs::path root = Tree("self_link");
  Write(root / "unary/aten_relu.textproto", kRelu);
  fs::create_symlink("loop", root / "unary/loop");
  absl::StatusOr<std::vector<LoadedSpec>> specs = LoadSpecTree(root.string(), kRecipes);
  ASSERT_FALSE(specs.ok());
  EXPECT_EQ(specs.status().message(),
            (root / "unary/loop").string() +
                ": cannot follow the link: Too many levels of symbolic links");
}

TEST(SpecTreeTest, SpecFilesAreNamedAfterTheirOp) {
  const fs::path root = Tree("misnamed");
  Write(root / "unary/aten_abs.textproto", kRelu);
  absl::StatusOr<std::vector<LoadedSpec>> specs = LoadSpecTree(root.string(), kRecipes);
  ASSERT_FALSE(specs.ok());
  EXPECT_EQ(specs.status().message(),
            (root / "unary/aten_abs.textproto").string() +
                ":1: field 'op': the spec of aten::relu must be named aten_relu.textproto, not "
                "aten_abs.textproto (one spec per op group, named after its op: codegen/naming.py)");
}

TEST(SpecTreeTest, TheTreesRecipeFolderHoldsNoSpecs) {
  // Issue 14: --spec_dir without --recipe_dir read <spec_dir>/recipes as specs.
  const fs::path root = Tree("own_recipes");
  Write(root / "unary/aten_relu.textproto", kRelu);
  fs::copy(kRecipes, root / "recipes");
  absl::StatusOr<std::vector<LoadedSpec>> specs = LoadSpecTree(root.string(), kRecipes);
  ASSERT_TRUE(specs.ok()) << specs.status();
  EXPECT_EQ(specs->size(), 3u);
  EXPECT_EQ(DefaultRecipeDir(root.string()), (root / "recipes").string());
}

TEST(SpecTreeTest, BadSamplesAreReportedAtLoad) {
  const fs::path root = Tree("bad_sample");
  Write(root / "unary/aten_relu.textproto",
        "op: \"aten::relu\"\nsample {\n  name: \"big\"\n"
        "  arg { name: \"self\" tensor { shape: [100000, 100000] } }\n}\n");
  absl::StatusOr<std::vector<LoadedSpec>> specs = LoadSpecTree(root.string(), kRecipes);
  ASSERT_FALSE(specs.ok());
  EXPECT_THAT(std::string(specs.status().message()),
              HasSubstr("aten_relu.textproto:4: field 'sample[0].arg[0] (sample 'big')': input "
                        "'self': shape [100000, 100000] has 10000000000 elements"));
}

std::vector<std::string> SampleNames(const LoadedSpec& spec) {
  std::vector<std::string> out;
  for (const Sample& s : spec.proto().sample()) out.push_back(s.name());
  return out;
}

constexpr char kAbsFromRelu[] =
    "op: \"aten::abs\"\nsamples_from { op: \"aten::relu\" }\n"
    "sample { name: \"b\" arg { name: \"self\" tensor { shape: [5] } } }\n";
constexpr char kNegFromAbs[] = "op: \"aten::neg\"\nsamples_from { op: \"aten::abs\" }\n";

TEST(SpecTreeTest, SamplesFromFormsAChain) {
  // neg takes abs's samples, which are relu's and abs's own.
  const fs::path root = Tree("samples_from_chain");
  Write(root / "unary/aten_neg.textproto", kNegFromAbs);  // before its source in file order
  Write(root / "unary/aten_relu.textproto", kRelu);
  Write(root / "unary/aten_abs.textproto", kAbsFromRelu);
  absl::StatusOr<std::vector<LoadedSpec>> tree = LoadSpecTree(root.string(), kRecipes);
  ASSERT_TRUE(tree.ok()) << tree.status();
  absl::StatusOr<std::vector<LoadedSpec>> file = LoadSpecFile(
      (root / "unary/aten_neg.textproto").string(),
      std::make_shared<const RecipeSet>(*RecipeSet::FromDir(kRecipes)), root.string());
  ASSERT_TRUE(file.ok()) << file.status();
  for (const std::vector<LoadedSpec>* specs : {&*tree, &*file}) {
    auto neg = std::find_if(specs->begin(), specs->end(), [](const LoadedSpec& s) {
      return OverloadToString(s.op()) == "aten::neg";
    });
    ASSERT_NE(neg, specs->end());
    EXPECT_THAT(SampleNames(*neg), ElementsAre("a", "b"));
    EXPECT_THAT(neg->samples_from_paths(), ElementsAre((root / "unary/aten_relu.textproto").string(),
                                                       (root / "unary/aten_abs.textproto").string()));
    // Each sample is found in the file that writes it.
    EXPECT_EQ(neg->WhereSample(0), (root / "unary/aten_relu.textproto").string() + ":2");
    EXPECT_EQ(neg->WhereArg(1, 0), (root / "unary/aten_abs.textproto").string() + ":3");
  }
}

TEST(SpecTreeTest, SamplesFromSeveralSpecsAndSomeOfTheirSamples) {
  // ceil takes relu's samples and one of abs's; neg takes abs's whole,
  // which holds relu's "a" again: a diamond lists it once.
  const fs::path root = Tree("samples_from_several");
  Write(root / "unary/aten_relu.textproto", kRelu);
  Write(root / "unary/aten_abs.textproto",
        absl::StrCat(kAbsFromRelu, "sample { name: \"c\" arg { name: \"self\" tensor { shape: [2] } } }\n"));
  Write(root / "unary/aten_ceil.textproto",
        "op: \"aten::ceil\"\nsamples_from { op: \"aten::relu\" }\n"
        "samples_from { op: \"aten::abs\" sample: \"c\" }\n");
  Write(root / "unary/aten_neg.textproto",
        "op: \"aten::neg\"\nsamples_from { op: \"aten::relu\" }\n"
        "samples_from { op: \"aten::abs\" }\n");
  absl::StatusOr<std::vector<LoadedSpec>> tree = LoadSpecTree(root.string(), kRecipes);
  ASSERT_TRUE(tree.ok()) << tree.status();
  auto find = [&](const std::string& op) {
    return *std::find_if(tree->begin(), tree->end(),
                         [&](const LoadedSpec& s) { return OverloadToString(s.op()) == op; });
  };
  const LoadedSpec ceil = find("aten::ceil");
  EXPECT_THAT(SampleNames(ceil), ElementsAre("a", "c"));
  EXPECT_EQ(ceil.WhereSample(1), (root / "unary/aten_abs.textproto").string() + ":4");
  EXPECT_THAT(ceil.samples_from_paths(), ElementsAre((root / "unary/aten_relu.textproto").string(),
                                                     (root / "unary/aten_abs.textproto").string()));
  EXPECT_THAT(SampleNames(find("aten::neg")), ElementsAre("a", "b", "c"));
  absl::StatusOr<std::vector<LoadedSpec>> file = LoadSpecFile(
      (root / "unary/aten_ceil.textproto").string(),
      std::make_shared<const RecipeSet>(*RecipeSet::FromDir(kRecipes)), root.string());
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_THAT(SampleNames(file->front()), ElementsAre("a", "c"));
}

TEST(SpecTreeTest, SamplesFromErrorsNameTheEntry) {
  const fs::path root = Tree("samples_from_errors");
  Write(root / "unary/aten_relu.textproto", kRelu);
  const std::string ceil = (root / "unary/aten_ceil.textproto").string();
  for (const auto& [text, error] : std::vector<std::pair<std::string, std::string>>{
           {"samples_from { op: \"aten::relu\" sample: \"z\" }\n",
            ":2: field 'samples_from[0].sample[0]': aten::relu has no sample 'z' (its samples: a)"},
           {"samples_from { op: \"aten::relu\" sample: [\"a\", \"a\"] }\n",
            ":2: field 'samples_from[0].sample[1]': 'a' is named twice"},
           {"samples_from { op: \"aten::relu\" }\n"
            "sample { name: \"a\" arg { name: \"self\" tensor { shape: [4] } } }\n",
            ":3: field 'sample[1].name': 'a' is used twice"},
       }) {
    Write(ceil, "op: \"aten::ceil\"\n" + text);
    absl::StatusOr<std::vector<LoadedSpec>> specs = LoadSpecTree(root.string(), kRecipes);
    ASSERT_FALSE(specs.ok()) << text;
    EXPECT_EQ(specs.status().message(), ceil + error);
  }
  // Two different samples of one name, through two specs.
  Write(root / "unary/aten_abs.textproto",
        "op: \"aten::abs\"\nsample { name: \"a\" arg { name: \"self\" tensor { shape: [4] } } }\n");
  Write(ceil, "op: \"aten::ceil\"\nsamples_from { op: \"aten::relu\" }\n"
              "samples_from { op: \"aten::abs\" }\n");
  absl::StatusOr<std::vector<LoadedSpec>> specs = LoadSpecTree(root.string(), kRecipes);
  ASSERT_FALSE(specs.ok());
  EXPECT_EQ(specs.status().message(),
            ceil + ":3: field 'samples_from[1].op': its sample 'a' (" +
                (root / "unary/aten_abs.textproto").string() +
                ":2) differs from the sample of that name that aten::relu gives");
}

TEST(SpecTreeTest, ASamplesFromCycleIsAnError) {
  const fs::path root = Tree("samples_from_cycle");
  Write(root / "unary/aten_relu.textproto", kRelu);
  Write(root / "unary/aten_abs.textproto",
        std::string(kAbsFromRelu).replace(std::string(kAbsFromRelu).find("aten::relu"), 10,
                                          "aten::neg"));
  Write(root / "unary/aten_neg.textproto", kNegFromAbs);
  absl::StatusOr<std::vector<LoadedSpec>> specs = LoadSpecTree(root.string(), kRecipes);
  ASSERT_FALSE(specs.ok());
  EXPECT_EQ(specs.status().message(),
            (root / "unary/aten_abs.textproto").string() +
                ":2: field 'samples_from': a cycle: aten::abs -> aten::neg -> aten::abs");
  // A spec that only leads into the cycle is not named as one of it.
  Write(root / "unary/aten_ceil.textproto", "op: \"aten::ceil\"\nsamples_from { op: \"aten::abs\" }\n");
  specs = LoadSpecTree(root.string(), kRecipes);
  ASSERT_FALSE(specs.ok());
  EXPECT_THAT(std::string(specs.status().message()), HasSubstr("aten_abs.textproto:2"));
}

TEST(SpecTreeTest, ASamplesFromChainToAMissingSpecNamesIt) {
  const fs::path root = Tree("samples_from_missing");
  Write(root / "unary/aten_neg.textproto", kNegFromAbs);
  Write(root / "unary/aten_abs.textproto", kAbsFromRelu);  // relu is not in the tree
  absl::StatusOr<std::vector<LoadedSpec>> specs = LoadSpecTree(root.string(), kRecipes);
  ASSERT_FALSE(specs.ok());
  EXPECT_EQ(specs.status().message(),
            (root / "unary/aten_abs.textproto").string() +
                ":2: field 'samples_from[0].op': no spec of aten::relu was found beside this one");
}

constexpr char kMul[] =
    "op: \"aten::mul.Tensor\"\n"
    "alias: \"aten::multiply.Tensor\"\n"
    "sample { name: \"a\" arg { name: \"self\" tensor { shape: [4, 3] } }\n"
    "         arg { name: \"other\" tensor { shape: [3] } } }\n";

// spec.proto OpSpec.alias: one file checks an op group and its aliases'
// groups, each overload bound to its own group.
TEST(SpecTreeTest, AliasesAreCheckedFromTheSpecOfTheirOp) {
  const fs::path root = Tree("aliases");
  const std::string mul = (root / "binary/aten_mul_Tensor.textproto").string();
  Write(mul, std::string(kMul) +
                 "exclude { op: \"aten::multiply.out\" reason: \"r\" }\n"
                 "missing { rule: \"S(0), S(0) -> S(1)\" reason: \"r\" op: \"aten::multiply_.Tensor\" }\n");
  // A samples_from entry may name the spec by an alias.
  Write(root / "binary/aten_div_Tensor.textproto",
        "op: \"aten::div.Tensor\"\nsamples_from { op: \"aten::multiply.Tensor\" }\n");
  absl::StatusOr<std::vector<LoadedSpec>> specs = LoadSpecTree(root.string(), kRecipes);
  ASSERT_TRUE(specs.ok()) << specs.status();
  EXPECT_THAT(Ops(*specs), ElementsAre("aten::div.Tensor", "aten::div_.Tensor", "aten::div.out",
                                       "aten::mul.Tensor", "aten::mul_.Tensor", "aten::mul.out",
                                       "aten::multiply.Tensor", "aten::multiply_.Tensor"));
  EXPECT_THAT((*specs)[0].samples_from_paths(), ElementsAre(mul));
  EXPECT_EQ((*specs)[0].proto().sample_size(), 1);
  const LoadedSpec& multiply = (*specs)[6];
  const LoadedSpec& multiply_ = (*specs)[7];
  EXPECT_EQ(multiply.path(), mul);
  EXPECT_EQ(OverloadToString(multiply.group().functional), "aten::multiply.Tensor");
  EXPECT_FALSE(multiply.is_variant());
  EXPECT_TRUE(multiply_.is_variant());
  EXPECT_EQ(multiply.WhereOp(), mul + ":2");
  EXPECT_EQ((*specs)[3].WhereOp(), mul + ":1");
  EXPECT_EQ(multiply.proto().sample(0).name(), "a");
  ASSERT_TRUE(BoundSample::BindAll(multiply_, 0).ok());
  // One file alone (validate --spec) finds its source by the alias too.
  auto recipes = std::make_shared<const RecipeSet>(*RecipeSet::FromDir(kRecipes));
  absl::StatusOr<std::vector<LoadedSpec>> div =
      LoadSpecFile((root / "binary/aten_div_Tensor.textproto").string(), recipes, root.string());
  ASSERT_TRUE(div.ok()) << div.status();
  EXPECT_THAT(div->front().samples_from_paths(), ElementsAre(mul));
  EXPECT_THAT(Ops(*LoadSpecFile(mul, recipes, root.string())),
              ElementsAre("aten::mul.Tensor", "aten::mul_.Tensor", "aten::mul.out",
                          "aten::multiply.Tensor", "aten::multiply_.Tensor"));
  // An overload checked by two specs is an error of the lookup.
  Write(root / "binary/aten_multiply_Tensor.textproto",
        "op: \"aten::multiply.Tensor\"\nsamples_from { op: \"aten::mul.Tensor\" }\n");
  specs = LoadSpecTree(root.string(), kRecipes);
  ASSERT_TRUE(specs.ok()) << specs.status();
  absl::StatusOr<std::map<std::string, const LoadedSpec*>> by_op = SpecsByOverload(*specs);
  ASSERT_FALSE(by_op.ok());
  EXPECT_THAT(std::string(by_op.status().message()),
              HasSubstr("field 'op': aten::multiply.Tensor already has a spec in "));
}

TEST(SpecTreeTest, AliasErrorsNameTheEntry) {
  const fs::path root = Tree("alias_errors");
  const std::string mul = (root / "binary/aten_mul_Tensor.textproto").string();
  for (const auto& [text, error] : std::vector<std::pair<std::string, std::string>>{
           {"alias: \"aten::mul.Tensor\"\n",
            ":5: field 'alias[1]': 'aten::mul.Tensor': aten::mul.Tensor is checked here already, "
            "in the group of aten::mul.Tensor"},
           {"alias: \"aten::multiply_.Tensor\"\n",
            ":5: field 'alias[1]': 'aten::multiply_.Tensor': aten::multiply_.Tensor is checked here "
            "already, in the group of aten::multiply.Tensor"},
           {"alias: \"aten::multiply.Tensor\"\n",
            ":5: field 'alias[1]': 'aten::multiply.Tensor': aten::multiply.Tensor is checked here "
            "already, in the group of aten::multiply.Tensor"},
           {"exclude { op: \"aten::multiply.Tensor\" reason: \"r\" }\n",
            ":5: field 'exclude[0].op': 'aten::multiply.Tensor' is not an in-place or out= variant "
            "of aten::mul.Tensor or aten::multiply.Tensor (their groups: aten::mul.Tensor, "
            "aten::mul_.Tensor, aten::mul.out, aten::multiply.Tensor, aten::multiply_.Tensor, "
            "aten::multiply.out)"},
           {"missing { rule: \"R, R -> R\" reason: \"r\" op: \"aten::div.out\" }\n",
            ":5: field 'missing[0].op': 'aten::div.out' is not a checked overload of these groups "
            "(aten::mul.Tensor, aten::mul_.Tensor, aten::mul.out, aten::multiply.Tensor, "
            "aten::multiply_.Tensor, aten::multiply.out)"},
       }) {
    Write(mul, kMul + text);
    absl::StatusOr<std::vector<LoadedSpec>> specs = LoadSpecTree(root.string(), kRecipes);
    ASSERT_FALSE(specs.ok()) << text;
    EXPECT_EQ(specs.status().message(), mul + error);
  }
  Write(mul, std::string(kMul) + "alias: \"aten::multiplyy.Tensor\"\n");
  absl::StatusOr<std::vector<LoadedSpec>> specs = LoadSpecTree(root.string(), kRecipes);
  ASSERT_FALSE(specs.ok());
  EXPECT_EQ(specs.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(specs.status().message()), HasSubstr(mul + ":5: field 'alias[1]': "));
}

}  // namespace
}  // namespace shrt
