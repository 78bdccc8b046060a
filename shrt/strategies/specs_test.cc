// Every registered strategy is checked against ground truth on its spec in
// op_specs/: no rule may be incorrect, at W = 4 and at W = 3 (uneven
// chunks everywhere). Missing rules are printed, not failed. Also checks
// that every registered strategy has a spec and every spec's overload has
// a strategy.
#include <filesystem>
#include <set>

#include "gtest/gtest.h"
#include "shrt/overload_name.h"
#include "shrt/registry.h"
#include "shrt/report.h"
#include "shrt/spec_loader.h"
#include "shrt/validate.h"

namespace shrt {
namespace {

constexpr char kSpecDir[] = "op_specs";

std::shared_ptr<const RecipeSet> Recipes() {
  static const auto* recipes =
      new std::shared_ptr<const RecipeSet>(std::make_shared<const RecipeSet>(
          *RecipeSet::FromDir("op_specs/recipes")));
  return *recipes;
}

std::vector<std::string> SpecFiles() {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& e : std::filesystem::recursive_directory_iterator(kSpecDir, ec)) {
    if (e.path().extension() == ".textproto" && e.path().parent_path().filename() != "recipes") {
      files.push_back(e.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

class SpecTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SpecTest, NoRuleIsIncorrect) {
  absl::StatusOr<LoadedSpec> spec = LoadedSpec::FromFile(GetParam(), Recipes());
  ASSERT_TRUE(spec.ok()) << spec.status();
  const StrategyRegistry& registry = StrategyRegistry::Global();
  const c10::OperatorName op = spec->op();
  ASSERT_TRUE(registry.Contains(op)) << OverloadToString(op) << " has a spec but no strategy";
  for (int w : {4, 3}) {
    ValidateOptions options;
    options.world_size = w;
    absl::StatusOr<OpReport> report = ValidateOp(
        *spec, [&](const OpArgs& args) { return registry.Query(op, args); }, options);
    ASSERT_TRUE(report.ok()) << report.status();
    EXPECT_TRUE(report->error.empty()) << report->error;
    EXPECT_GT(report->Count(Verdict::kCorrect), 0) << "W=" << w;
    for (const RuleVerdict& v : report->rules) {
      if (v.verdict == Verdict::kIncorrect) {
        ADD_FAILURE() << "W=" << w << ": incorrect rule " << RuleToString(v.rule) << "\n  "
                      << v.evidence << "\n  reproduce: " << ReproCommand(report->op, w);
      } else if (v.verdict == Verdict::kMissing) {
        std::cout << "W=" << w << ": missing " << RuleToString(v.rule) << ": " << v.evidence
                  << "\n";
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(OpSpecs, SpecTest, ::testing::ValuesIn(SpecFiles()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           const std::string stem =
                               std::filesystem::path(info.param).stem().string();
                           return stem;
                         });

TEST(SpecCoverageTest, EveryStrategyHasASpec) {
  std::set<std::string> specced;
  for (const std::string& f : SpecFiles()) {
    absl::StatusOr<LoadedSpec> spec = LoadedSpec::FromFile(f, Recipes());
    ASSERT_TRUE(spec.ok()) << spec.status();
    specced.insert(OverloadToString(spec->op()));
  }
  ASSERT_TRUE(StrategyRegistry::Global().Check().ok()) << StrategyRegistry::Global().Check();
  for (const c10::OperatorName& op : StrategyRegistry::Global().Overloads()) {
    EXPECT_TRUE(specced.count(OverloadToString(op))) << OverloadToString(op) << " has no spec";
  }
}

}  // namespace
}  // namespace shrt
