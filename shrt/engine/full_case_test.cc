// A sample's cases (full_case.h): a tiny sample runs its seeded generators
// again with fresh seeds, and a rule that its first round's few values let
// hold by luck is refuted.
#include "shrt/engine/full_case.h"

#include <limits>
#include <string>
#include <vector>
#include <utility>

#include "gtest/gtest.h"
#include "shrt/engine/sample.h"
#include "shrt/engine/test_recipes.h"
#include "shrt/engine/test_tensors.h"
#include "shrt/engine/validate.h"
#include "shrt/vocab/placement.h"

namespace shrt {
namespace {

LoadedSpec Spec(const std::string& text) {
  absl::StatusOr<LoadedSpec> spec = LoadedSpec::FromText(text, "test.textproto", TestRecipes());
  EXPECT_TRUE(spec.ok()) << spec.status();
  return *spec;
}

// The number of cases of sample `s` of `spec`, and how many of them are
// not repeats.
std::pair<size_t, int> Cases(const LoadedSpec& spec, int s) {
  absl::StatusOr<std::vector<BoundSample>> bound = BoundSample::BindAll(spec, s);
  EXPECT_TRUE(bound.ok()) << bound.status();
  const TruthOptions options;
  CaseMaker maker(spec, s, bound->front(), options);
  EXPECT_TRUE(maker.Init().ok());
  int fresh = 0;
  for (size_t c = 0; c < maker.cases(); ++c) fresh += maker.Repeats(c) ? 0 : 1;
  return {maker.cases(), fresh};
}

// The default recipe has 10 generators, 6 of them seeded (randn, sparse,
// mixed_magnitude, ties, nonfinite, extremes;
// op_specs/recipes/default.textproto): later rounds run those 6.
TEST(CaseMakerTest, TheLargestInputSetsTheRounds) {
  const LoadedSpec spec = Spec(R"pb(
    op: "aten::add.Tensor"
    sample {
      name: "scalars"
      arg { name: "self" tensor { shape: [] } }
      arg { name: "other" tensor { shape: [] } }
    }
    sample {
      name: "pair"
      arg { name: "self" tensor { shape: [2] } }
      arg { name: "other" tensor { shape: [] } }
    }
    sample {
      name: "scalar_other"
      arg { name: "self" tensor { shape: [7, 5] } }
      arg { name: "other" tensor { shape: [] } }
    }
    sample {
      name: "empty"
      arg { name: "self" tensor { shape: [0, 5] } }
      arg { name: "other" tensor { shape: [] } }
    }
  )pb");
  EXPECT_EQ(Cases(spec, 0), std::make_pair(size_t{80}, 10 + 7 * 6));  // 8 rounds
  EXPECT_EQ(Cases(spec, 1), std::make_pair(size_t{40}, 10 + 3 * 6));  // ceil(8 / 2)
  EXPECT_EQ(Cases(spec, 2), std::make_pair(size_t{10}, 10));          // 35 elements: one round
  EXPECT_EQ(Cases(spec, 3), std::make_pair(size_t{80}, 10 + 7 * 6));  // no value but a 0-d one
}

TEST(CaseMakerTest, ALaterRoundDrawsNewValuesUnderTheSameGenerator) {
  const LoadedSpec spec = Spec(R"pb(
    op: "aten::neg"
    sample { name: "scalar" arg { name: "self" tensor { shape: [] } } }
  )pb");
  absl::StatusOr<std::vector<BoundSample>> bound = BoundSample::BindAll(spec, 0);
  ASSERT_TRUE(bound.ok()) << bound.status();
  const TruthOptions options;
  CaseMaker maker(spec, 0, bound->front(), options);
  ASSERT_TRUE(maker.Init().ok());
  const absl::StatusOr<FullCase> first = maker.Make(1), later = maker.Make(1 + maker.generators());
  ASSERT_TRUE(first.ok() && later.ok());
  EXPECT_EQ(first->generator, "randn");
  EXPECT_EQ(later->generator, "randn, round 2");
  EXPECT_FALSE(first->inputs[0].equal(later->inputs[0]));
}

// threshold_backward(grad, self, -2) on 0-d tensors: `R, P(sum) -> P(max)`
// holds on a case whose one grad value is positive (every rank's output is
// grad or 0, and some rank's mask is on). Every seed's rounds draw a
// negative grad somewhere and refute it.
TEST(CaseMakerTest, ATinySampleDoesNotLetARuleHoldByLuck) {
  const LoadedSpec spec = Spec(R"pb(
    op: "aten::threshold_backward"
    sample {
      name: "scalar_tensor"
      arg { name: "grad_output" tensor { shape: [] } }
      arg { name: "self" tensor { shape: [] } }
      arg { name: "threshold" float_value: -2 }
    }
  )pb");
  for (uint64_t seed = 0; seed < 8; ++seed) {
    ValidateOptions options;
    options.world_size = 3;
    options.seed = seed;
    absl::StatusOr<OpReport> report = ValidateOp(spec, ClaimRules({"R, P(sum) -> P(max)"}), options);
    ASSERT_TRUE(report.ok()) << report.status();
    bool refuted = false;
    for (const RuleVerdict& v : report->rules) {
      if (RuleToString(v.rule) == "R, P(sum) -> P(max)") refuted = v.verdict == Verdict::kIncorrect;
    }
    EXPECT_TRUE(refuted) << "seed " << seed;
  }
}

// An output tells rules apart only where it has a finite nonzero element:
// on one of 0, inf and NaN alone, R -> P(sum) holds (x + x = x).
TEST(InformativeTest, AnOutputNeedsAFiniteNonzeroElement) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto f = [](std::vector<double> v) { return TensorOf(v, at::kFloat); };
  auto informative = [](std::vector<at::Tensor> outputs) { return Informative(outputs); };
  EXPECT_FALSE(informative({f({})}));
  EXPECT_FALSE(informative({f({0, 0})}));
  EXPECT_FALSE(informative({f({nan, 0, nan})}));  // xlogy(x, -2), with a 0 in x
  EXPECT_FALSE(informative({f({inf, -inf, 0})}));
  EXPECT_FALSE(informative({f({1.5}), f({nan})}));  // every output must be
  EXPECT_TRUE(informative({f({nan, -0.5, inf})}));
  EXPECT_TRUE(informative({TensorOf({0, 3}, at::kLong)}));
  EXPECT_TRUE(informative({TensorOf({0, 1}, at::kBool)}));
  EXPECT_FALSE(informative({TensorOf({0, 0}, at::kBool)}));
}

}  // namespace
}  // namespace shrt
