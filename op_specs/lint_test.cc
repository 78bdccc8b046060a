// Lint of the spec tree: every spec, recipe and xfail parses and names a
// dispatcher overload; every registered strategy has a spec or a reasoned
// exemption (an `exclude` of its group's spec, or exemptions.textproto); no
// exemption is stale; op_specs/groups.bzl is what the dispatcher says the
// specs' groups are; no sample is written in two spec files. (Target naming
// and collisions are checked by //codegen:lint_specs_test with the naming
// function itself.)
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "shrt/engine/spec_tree.h"
#include "shrt/ops/overload_name.h"
#include "shrt/report/checkability.h"
#include "shrt/report/group_manifest.h"
#include "shrt/report/xfails.h"
#include "shrt/spec/tensor_args.h"
#include "shrt/strategies/registry.h"
#include "shrt/vocab/text_proto.h"

namespace shrt {
namespace {

TEST(LintTest, SpecsRecipesAndXfailsParse) {
  absl::StatusOr<std::vector<LoadedSpec>> specs = LoadSpecTree("op_specs", "op_specs/recipes");
  ASSERT_TRUE(specs.ok()) << specs.status();
  EXPECT_FALSE(specs->empty());
  absl::StatusOr<std::vector<XfailEntry>> xfails = LoadXfails("op_specs/xfails.textproto");
  EXPECT_TRUE(xfails.ok()) << xfails.status();
}

// not_checkable.textproto parses (every entry a known operator, once,
// with a category and a reason), and names no overload that has a spec:
// a checked overload is checkable, so such an entry is stale.
TEST(LintTest, NotCheckableEntriesParseAndNameNoSpeccedOverload) {
  absl::StatusOr<NotCheckableFile> file = NotCheckableFile::Read("op_specs/not_checkable.textproto");
  ASSERT_TRUE(file.ok()) << file.status();
  absl::StatusOr<std::vector<LoadedSpec>> specs = LoadSpecTree("op_specs", "op_specs/recipes");
  ASSERT_TRUE(specs.ok()) << specs.status();
  for (const LoadedSpec& s : *specs) {
    EXPECT_EQ(file->Find(s.op()), nullptr)
        << "op_specs/not_checkable.textproto names " << OverloadToString(s.op())
        << ", which " << s.path() << " checks: remove the entry";
  }
}

TEST(LintTest, EveryStrategyHasASpecOrAReasonedExemption) {
  ASSERT_TRUE(StrategyRegistry::Global().Check().ok()) << StrategyRegistry::Global().Check();
  absl::StatusOr<std::vector<LoadedSpec>> specs = LoadSpecTree("op_specs", "op_specs/recipes");
  ASSERT_TRUE(specs.ok()) << specs.status();
  std::set<std::string> specced, excluded;
  for (const LoadedSpec& s : *specs) {
    specced.insert(OverloadToString(s.op()));
    for (const ExcludedVariant& x : s.proto().exclude()) excluded.insert(x.op());
  }

  const std::string path = "op_specs/exemptions.textproto";
  absl::StatusOr<std::string> text = ReadFile(path);
  ASSERT_TRUE(text.ok()) << text.status();
  SpecExemptions exemptions;
  absl::StatusOr<TextLocations> where = ParseTextProto(*text, path, &exemptions);
  ASSERT_TRUE(where.ok()) << where.status();
  std::set<std::string> exempt;
  for (int i = 0; i < exemptions.exemption_size(); ++i) {
    const SpecExemption& e = exemptions.exemption(i);
    const std::string at = where->Where({{"exemption", i}}, exemptions);
    absl::StatusOr<c10::OperatorName> op = ParseOverloadName(e.op());
    ASSERT_TRUE(op.ok()) << at << ": " << op.status();
    EXPECT_FALSE(e.reason().empty()) << at << ": field 'exemption[" << i << "].reason' is required";
    EXPECT_TRUE(StrategyRegistry::Global().Contains(*op))
        << at << ": " << e.op() << " has no strategy to exempt";
    EXPECT_FALSE(specced.count(OverloadToString(*op)))
        << at << ": " << e.op() << " has a spec; remove the exemption";
    exempt.insert(OverloadToString(*op));
  }
  for (const c10::OperatorName& op : StrategyRegistry::Global().Overloads()) {
    const std::string name = OverloadToString(op);
    EXPECT_TRUE(specced.count(name) || exempt.count(name) || excluded.count(name))
        << name << " has a strategy but no spec in op_specs/, no `exclude` in its group's spec "
        << "and no exemption in " << path;
  }
}

TEST(LintTest, GroupsManifestIsCurrent) {
  absl::StatusOr<std::vector<LoadedSpec>> specs = LoadSpecTree("op_specs", "op_specs/recipes");
  ASSERT_TRUE(specs.ok()) << specs.status();
  absl::StatusOr<std::string> manifest = ReadFile(absl::StrCat("op_specs/", kGroupsFile));
  ASSERT_TRUE(manifest.ok()) << manifest.status();
  EXPECT_EQ(*manifest, GroupManifest(*specs, "op_specs"))
      << "op_specs/" << kGroupsFile << " is stale: run `" << kGroupsCommand << "`";
}

// No sample is written twice (specs are written once per op group): a
// spec that needs a sample another spec writes takes it, by the other
// spec's op and the sample's name (spec.proto OpSpec.samples_from), rather
// than write it again. Two samples are the same when their arguments,
// sweeps and tier are, whatever their names and their inputs' recipes: a
// second name would only draw the same inputs again under another seed
// (shrt/spec/rng.h CaseSeed), and a recipe is the taking spec's to give
// (OpSpec.recipe and arg_recipe, SampleSource.recipe and arg_recipe).
TEST(LintTest, NoSampleIsWrittenTwice) {
  absl::StatusOr<std::vector<LoadedSpec>> specs = LoadSpecTree("op_specs", "op_specs/recipes");
  ASSERT_TRUE(specs.ok()) << specs.status();
  struct Writer {
    std::string where;  // "<path>:<line>"
    std::string op;     // the functional overload of the writing spec
    std::string name;   // the sample's name there
  };
  // serialized sample without its name -> where it is written first
  std::map<std::string, Writer> writer;
  std::set<std::string> files;
  for (const LoadedSpec& s : *specs) {
    if (!files.insert(s.path()).second) continue;  // one pass per file, not per overload
    absl::StatusOr<std::string> text = ReadFile(s.path());
    ASSERT_TRUE(text.ok()) << text.status();
    OpSpec own;  // the file as written: its own samples only
    absl::StatusOr<TextLocations> where = ParseTextProto(*text, s.path(), &own);
    ASSERT_TRUE(where.ok()) << where.status();
    for (int k = 0; k < own.sample_size(); ++k) {
      const std::string here = where->Where({{"sample", k}}, own);
      Sample content = own.sample(k);
      content.clear_name();
      for (Arg& arg : *content.mutable_arg()) {
        for (TensorArg* t : MutableTensorArgsOf(arg)) t->clear_recipe();
      }
      auto [it, fresh] = writer.emplace(
          content.SerializeAsString(),
          Writer{here, OverloadToString(s.group().functional), own.sample(k).name()});
      // Which of the two came first is the tree's order, not history: name both ways out.
      EXPECT_TRUE(fresh) << here << ": sample '" << own.sample(k).name()
                         << "' writes again what " << it->second.where << " writes as '"
                         << it->second.name << "': keep one, and take it in the other spec, "
                         << "here with samples_from { op: \"" << it->second.op << "\" sample: \""
                         << it->second.name << "\" } or there with samples_from { op: \""
                         << OverloadToString(s.group().functional) << "\" sample: \""
                         << own.sample(k).name() << "\" }, giving the taken inputs their "
                         << "recipes with the entry's recipe or arg_recipe";
    }
  }
}

}  // namespace
}  // namespace shrt
