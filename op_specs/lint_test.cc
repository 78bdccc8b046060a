// Lint of the spec tree: every spec, recipe and xfail parses and names a
// dispatcher overload; every registered strategy has a spec or a reasoned
// exemption (an `exclude` of its group's spec, or exemptions.textproto); no
// exemption is stale; op_specs/groups.bzl is what the dispatcher says the
// specs' groups are; no sample is written in two spec files; every scalar
// argument takes more than one regime in its spec's samples, or the spec
// says why not (shrt/engine/scalar_regimes.h). (Target naming
// and collisions are checked by //codegen:lint_specs_test with the naming
// function itself.)
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "shrt/engine/scalar_regimes.h"
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

// A sample as the lint compares it (NoSampleIsWrittenTwice): without its
// name, its inputs' recipes and its argument names, its args and its
// sweeps each in a canonical order; and, in that order, each arg's and
// sweep's content with the name it drops, so two equal samples' names
// pair up by position.
struct Unnamed {
  std::string content;
  std::vector<std::pair<std::string, std::string>> items;  // (content, name), sorted
};

Unnamed WithoutNames(const Sample& sample) {
  Unnamed out;
  for (Arg arg : sample.arg()) {
    for (TensorArg* t : MutableTensorArgsOf(arg)) t->clear_recipe();
    std::string name = arg.name();
    arg.clear_name();
    out.items.emplace_back("a" + arg.SerializeAsString(), std::move(name));
  }
  for (Sweep sweep : sample.sweep()) {
    std::string name = sweep.name();
    sweep.clear_name();
    out.items.emplace_back("w" + sweep.SerializeAsString(), std::move(name));
  }
  std::sort(out.items.begin(), out.items.end());
  out.content = sample.nightly_only() ? "nightly|" : "|";
  for (const auto& [content, name] : out.items) {
    absl::StrAppend(&out.content, content.size(), ":", content);
  }
  return out;
}

// The rename entries (spec.proto SampleSource.rename) that give a sample
// whose args and sweeps are `from` the names they have in `to` (equal
// samples' items): items of equal content keep their own name where both
// sides have it, and pair the rest in order.
std::string Renames(const std::vector<std::pair<std::string, std::string>>& from,
                    const std::vector<std::pair<std::string, std::string>>& to) {
  std::string out;
  for (size_t i = 0; i < from.size();) {
    size_t end = i;  // [i, end): items of one content, on both sides alike
    while (end < from.size() && from[end].first == from[i].first) ++end;
    std::vector<std::string> left, right;
    for (size_t k = i; k < end; ++k) left.push_back(from[k].second);
    for (size_t k = i; k < end; ++k) {
      auto same = std::find(left.begin(), left.end(), to[k].second);
      if (same != left.end()) {
        left.erase(same);
      } else {
        right.push_back(to[k].second);
      }
    }
    for (size_t k = 0; k < left.size(); ++k) {
      absl::StrAppend(&out, " rename { arg: \"", left[k], "\" to: \"", right[k], "\" }");
    }
    i = end;
  }
  return out;
}

// The comparison itself can tell samples apart and pair their names:
// add.Tensor's broadcast_row written again for heaviside(self, values) is
// one sample, a swap keeps the names both sides have, and another shape,
// dtype or tier is another sample.
TEST(LintTest, SamplesEqualUpToArgumentNamesAreOne) {
  auto parse = [](const std::string& text) {
    Sample sample;
    EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &sample)) << text;
    return sample;
  };
  const Sample add = parse(R"pb(name: "broadcast_row"
                                 arg { name: "self" tensor { shape: [ 7, 5 ] } }
                                 arg { name: "other" tensor { shape: [ 5 ] } })pb");
  const Sample heaviside = parse(R"pb(name: "row"
                                       arg { name: "values" tensor { shape: [ 5 ] recipe: "nonzero" } }
                                       arg { name: "self" tensor { shape: [ 7, 5 ] } })pb");
  EXPECT_EQ(WithoutNames(add).content, WithoutNames(heaviside).content);
  EXPECT_EQ(Renames(WithoutNames(add).items, WithoutNames(heaviside).items),
            " rename { arg: \"other\" to: \"values\" }");

  const Sample same_shapes = parse(R"pb(name: "a"
                                         arg { name: "self" tensor { shape: [ 7 ] } }
                                         arg { name: "tensor" tensor { shape: [ 7 ] } })pb");
  const Sample same_shapes_inner = parse(R"pb(name: "b"
                                               arg { name: "self" tensor { shape: [ 7 ] } }
                                               arg { name: "other" tensor { shape: [ 7 ] } })pb");
  EXPECT_EQ(Renames(WithoutNames(same_shapes).items, WithoutNames(same_shapes_inner).items),
            " rename { arg: \"tensor\" to: \"other\" }");

  for (const std::string& other :
       {std::string(R"pb(arg { name: "self" tensor { shape: [ 7, 5 ] } }
                         arg { name: "other" tensor { shape: [ 1, 5 ] } })pb"),
        std::string(R"pb(arg { name: "self" tensor { shape: [ 7, 5 ] dtype: FLOAT64 } }
                         arg { name: "other" tensor { shape: [ 5 ] } })pb"),
        std::string(R"pb(arg { name: "self" tensor { shape: [ 7, 5 ] } }
                         arg { name: "other" tensor { shape: [ 5 ] } } nightly_only: true)pb")}) {
    EXPECT_NE(WithoutNames(add).content, WithoutNames(parse(other)).content) << other;
  }
}

// No sample is written twice (specs are written once per op group): a
// spec that needs a sample another spec writes takes it, by the other
// spec's op and the sample's name (spec.proto OpSpec.samples_from), rather
// than write it again. Two samples are the same when their arguments'
// values, their sweeps and their tier are, whatever their names, their
// inputs' recipes and their arguments' names: a second name would only
// draw the same inputs again under another seed (shrt/spec/rng.h
// CaseSeed), a recipe is the taking spec's to give (OpSpec.recipe and
// arg_recipe, SampleSource.recipe and arg_recipe), and so are the names of
// its schema's arguments (SampleSource.rename: heaviside's `values` is
// add.Tensor's `other`).
TEST(LintTest, NoSampleIsWrittenTwice) {
  absl::StatusOr<std::vector<LoadedSpec>> specs = LoadSpecTree("op_specs", "op_specs/recipes");
  ASSERT_TRUE(specs.ok()) << specs.status();
  struct Writer {
    std::string where;               // "<path>:<line>"
    std::string op;                  // the functional overload of the writing spec
    std::string name;                // the sample's name there
    std::vector<std::pair<std::string, std::string>> items;  // Unnamed::items
  };
  // sample without its names (Unnamed::content) -> where it is written first
  std::map<std::string, Writer> writer;
  std::set<std::string> files;
  for (const LoadedSpec& s : *specs) {
    if (!files.insert(s.path()).second) continue;  // one pass per file, not per overload
    absl::StatusOr<std::string> text = ReadFile(s.path());
    ASSERT_TRUE(text.ok()) << text.status();
    OpSpec own;  // the file as written: its own samples only
    absl::StatusOr<TextLocations> where = ParseTextProto(*text, s.path(), &own);
    ASSERT_TRUE(where.ok()) << where.status();
    const std::string op = OverloadToString(s.group().functional);
    for (int k = 0; k < own.sample_size(); ++k) {
      const std::string here = where->Where({{"sample", k}}, own);
      const std::string& name = own.sample(k).name();
      Unnamed unnamed = WithoutNames(own.sample(k));
      auto [it, fresh] = writer.emplace(unnamed.content, Writer{here, op, name, unnamed.items});
      const Writer& first = it->second;
      // Which of the two came first is the tree's order, not history: name both ways out.
      EXPECT_TRUE(fresh) << here << ": sample '" << name << "' writes again what " << first.where
                         << " writes as '" << first.name << "': keep one, and take it in the "
                         << "other spec, here with samples_from { op: \"" << first.op
                         << "\" sample: \"" << first.name << "\""
                         << Renames(first.items, unnamed.items) << " } or there with samples_from "
                         << "{ op: \"" << op << "\" sample: \"" << name << "\""
                         << Renames(unnamed.items, first.items) << " }, giving the taken inputs "
                         << "their recipes with the entry's recipe or arg_recipe";
    }
  }
}

// Every scalar argument of a spec's op takes more than one regime in its
// samples, and every pair of interacting ones both orders
// (shrt/engine/scalar_regimes.h), or the spec says why one is all the op
// has (spec.proto OpSpec.single_regime); and no such entry is stale.
TEST(LintTest, ScalarArgumentsSpanTheirRegimes) {
  absl::StatusOr<std::vector<LoadedSpec>> specs = LoadSpecTree("op_specs", "op_specs/recipes");
  ASSERT_TRUE(specs.ok()) << specs.status();
  std::set<std::string> files;
  for (const LoadedSpec& s : *specs) {
    if (s.is_variant() || !files.insert(s.path()).second) continue;  // the group's own op, once
    absl::StatusOr<std::vector<ScalarRegimeGap>> gaps = ScalarRegimeGaps(s);
    ASSERT_TRUE(gaps.ok()) << gaps.status();
    std::set<std::vector<std::string>> explained;
    for (const SingleRegime& entry : s.proto().single_regime()) {
      EXPECT_FALSE(entry.reason().empty())
          << s.WhereOp() << ": single_regime [" << absl::StrJoin(entry.arg(), ", ")
          << "]: field 'reason' is required";
      explained.insert({entry.arg().begin(), entry.arg().end()});
    }
    for (const ScalarRegimeGap& gap : *gaps) {
      EXPECT_TRUE(explained.erase(gap.args))
          << s.WhereOp() << ": " << OverloadToString(s.op()) << ": "
          << (gap.args.size() == 1 ? "argument '" : "arguments '")
          << absl::StrJoin(gap.args, "', '") << "': " << gap.seen
          << ": sweep the other regimes (a Sweep of the samples), or say why this one is all "
          << "the op has: single_regime { arg: \"" << absl::StrJoin(gap.args, "\" arg: \"")
          << "\" reason: \"...\" }";
    }
    for (const std::vector<std::string>& stale : explained) {
      ADD_FAILURE() << s.WhereOp() << ": single_regime [" << absl::StrJoin(stale, ", ")
                    << "] is stale: the samples give it more than one regime, or the op has no "
                    << "such scalar argument; remove the entry";
    }
  }
}

}  // namespace
}  // namespace shrt
