// Planted small errors (small_errors.cc) are still caught in float32, where
// judging rounding against a float64 reference relaxes the comparison; the
// correct rules of the same operators stay correct.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shrt/engine/test_recipes.h"
#include "shrt/engine/validate.h"

namespace shrt {
namespace {

// Validates `op` on a float32 [8, 256] x [256, 6] sample against a strategy
// claiming `rules`, and returns each rule's verdict name.
std::map<std::string, std::string> Verdicts(const std::string& op,
                                            const std::vector<std::string>& rules, int w) {
  absl::StatusOr<LoadedSpec> spec = LoadedSpec::FromText(absl::StrCat(R"pb(
    op: ")pb", op, R"pb("
    sample {
      name: "long_k"
      arg { name: "self" tensor { shape: [8, 256] } }
      arg { name: "mat2" tensor { shape: [256, 6] } }
    }
  )pb"), "small_errors.textproto", TestRecipes());
  EXPECT_TRUE(spec.ok()) << spec.status();
  RuleSource source = [&](const OpArgs&) -> absl::StatusOr<std::vector<Rule>> {
    std::vector<Rule> out;
    for (const std::string& r : rules) out.push_back(*ParseRule(r));
    return out;
  };
  ValidateOptions options;
  options.world_size = w;
  absl::StatusOr<OpReport> report = ValidateOp(*spec, source, options);
  EXPECT_TRUE(report.ok()) << report.status();
  std::map<std::string, std::string> out;
  for (const RuleVerdict& v : report->rules) {
    out[RuleToString(v.rule)] = std::string(VerdictName(v.verdict));
  }
  return out;
}

TEST(SmallErrorsTest, PartialRuleOffByOnePartInAThousandIsIncorrect) {
  for (int w : {2, 3, 4}) {
    auto v = Verdicts("shrt_small_errors::mm_abs_thousandth",
                      {"P(sum), R -> P(sum)", "S(0), R -> S(0)", "R, S(1) -> S(1)"}, w);
    EXPECT_EQ(v["P(sum), R -> P(sum)"], "incorrect") << "W=" << w;
    EXPECT_EQ(v["S(0), R -> S(0)"], "correct") << "W=" << w;
    EXPECT_EQ(v["R, S(1) -> S(1)"], "correct") << "W=" << w;
  }
}

TEST(SmallErrorsTest, ShardOffByOneRowIsIncorrect) {
  for (int w : {2, 3, 4}) {
    auto v = Verdicts("shrt_small_errors::mm_row_leak",
                      {"S(0), R -> S(0)", "R, S(1) -> S(1)", "P(sum), R -> P(sum)"}, w);
    EXPECT_EQ(v["S(0), R -> S(0)"], "incorrect") << "W=" << w;
    EXPECT_EQ(v["R, S(1) -> S(1)"], "correct") << "W=" << w;
    EXPECT_EQ(v["P(sum), R -> P(sum)"], "correct") << "W=" << w;
  }
}

}  // namespace
}  // namespace shrt
