// Lint of the spec tree: every spec, recipe and xfail parses and names a
// dispatcher overload; every registered strategy has a spec or a reasoned
// exemption (an `exclude` of its group's spec, or exemptions.textproto); no
// exemption is stale; op_specs/groups.bzl is what the dispatcher says the
// specs' groups are; no spec writes another's samples again. (Target naming
// and collisions are checked by //codegen:lint_specs_test with the naming
// function itself.)
#include <algorithm>
#include <iterator>
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

// No spec writes another spec's samples again (specs are written once per
// op group). A spec fails when it writes samples itself and holds, as
// loaded (its samples_from chain's, then its own), all the samples of
// another spec, writing some of them again, while that spec also holds
// everything its own samples_from gives it: then samples_from that spec,
// plus the samples it lacks, says the same with nothing written twice.
// Order does not count, since a case's seed names its sample, not its
// position (shrt/spec/rng.h CaseSeed). Of two specs with the same
// samples, the later file names the earlier.
TEST(LintTest, NoSpecWritesAnotherSpecsSamplesAgain) {
  absl::StatusOr<std::vector<LoadedSpec>> specs = LoadSpecTree("op_specs", "op_specs/recipes");
  ASSERT_TRUE(specs.ok()) << specs.status();
  struct File {
    std::string op;                  // the group's functional overload
    std::set<std::string> samples;   // serialized, as loaded
    std::set<std::string> own;       // those it writes itself
    std::set<std::string> taken;     // those its nearest samples_from gives it
    std::vector<std::string> chain;  // its samples_from chain's paths
  };
  std::map<std::string, File> files;  // by path, in path order
  for (const LoadedSpec& s : *specs) {
    if (s.is_variant()) continue;  // one entry per file: its group's functional spec
    File& f = files[s.path()];
    f.op = OverloadToString(s.op());
    for (const Sample& sample : s.proto().sample()) f.samples.insert(sample.SerializeAsString());
    f.chain = s.samples_from_paths();
  }
  auto within = [](const std::set<std::string>& a, const std::set<std::string>& b) {
    return std::includes(b.begin(), b.end(), a.begin(), a.end());
  };
  for (auto& [path, f] : files) {
    if (!f.chain.empty()) f.taken = files.at(f.chain.front()).samples;
    std::set_difference(f.samples.begin(), f.samples.end(), f.taken.begin(), f.taken.end(),
                        std::inserter(f.own, f.own.end()));
  }
  auto in_chain = [](const File& f, const std::string& path) {
    return std::find(f.chain.begin(), f.chain.end(), path) != f.chain.end();
  };
  for (const auto& [path, mine] : files) {
    if (mine.own.empty()) continue;
    for (const auto& [other_path, theirs] : files) {
      if (other_path == path || theirs.own.empty() || in_chain(mine, other_path) ||
          in_chain(theirs, path)) {
        continue;
      }
      if (theirs.samples == mine.samples && other_path > path) continue;  // the later names the earlier
      const bool rewritten = std::any_of(mine.own.begin(), mine.own.end(),
                                         [&](const std::string& s) { return theirs.samples.count(s); });
      EXPECT_FALSE(rewritten && within(theirs.samples, mine.samples) &&
                   within(mine.taken, theirs.samples))
          << path << " writes the samples of " << other_path << " again: write samples_from: \""
          << theirs.op << "\" and only the samples it lacks";
    }
  }
}

}  // namespace
}  // namespace shrt
