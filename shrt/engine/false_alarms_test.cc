// The four classes of false alarm a checker must not raise (DESIGN.md §3,
// "three refinements" and "Applicability"), end to end through ValidateOp:
// each test claimed a correct rule that the engine used to report
// incorrect.
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shrt/engine/ground_truth.h"
#include "shrt/engine/sample.h"
#include "shrt/engine/test_recipes.h"
#include "shrt/engine/validate.h"

namespace shrt {
namespace {

using ::testing::HasSubstr;

// The verdict and evidence of `rule` when `spec_text` is validated against
// a strategy that claims exactly `rule` on every sample.
RuleVerdict Claim(const std::string& spec_text, const std::string& rule, int world_size) {
  absl::StatusOr<LoadedSpec> spec = LoadedSpec::FromText(spec_text, "test.textproto", TestRecipes());
  EXPECT_TRUE(spec.ok()) << spec.status();
  RuleSource source = [rule](const OpArgs&) -> absl::StatusOr<std::vector<Rule>> {
    return std::vector<Rule>{*ParseRule(rule)};
  };
  ValidateOptions options;
  options.world_size = world_size;
  absl::StatusOr<OpReport> report = ValidateOp(*spec, source, options);
  EXPECT_TRUE(report.ok()) << report.status();
  for (const RuleVerdict& v : report->rules) {
    if (RuleToString(v.rule) == rule) return v;
  }
  return {};
}

// A rule that cannot be built for one sample (bool takes no Partial) is not
// applicable there, and correct on the samples where it holds.
TEST(FalseAlarmsTest, NotApplicableIsNotIncorrect) {
  const RuleVerdict v = Claim(R"pb(
    op: "aten::clone"
    sample { name: "floats" arg { name: "self" tensor { shape: [5, 3] } } }
    sample {
      name: "bools"
      arg { name: "self" tensor { shape: [5, 3] dtype: BOOL recipe: "bool_mask" } }
    }
  )pb", "P(max) -> P(max)", 4);
  EXPECT_EQ(v.verdict, Verdict::kCorrect) << v.evidence;
}

// A rule that applies to no sample at all is unverified, saying why.
TEST(FalseAlarmsTest, ApplicableNowhereIsUnverified) {
  const RuleVerdict v = Claim(R"pb(
    op: "aten::clone"
    sample {
      name: "bools"
      arg { name: "self" tensor { shape: [5, 3] dtype: BOOL recipe: "bool_mask" } }
    }
  )pb", "P(max) -> P(max)", 4);
  EXPECT_EQ(v.verdict, Verdict::kUnverified);
  EXPECT_THAT(v.evidence, HasSubstr("not applicable to sample bools"));
  EXPECT_THAT(v.evidence, HasSubstr("P(max) cannot be built for input 0 (Bool[5, 3])"));
}

// float32 values written to float64: the parts of a float32 P(sum) sum to x
// only up to float32 rounding, which float64 tolerance would see.
TEST(FalseAlarmsTest, ToleranceFollowsTheLeastPreciseDtype) {
  const char kWiden[] = R"pb(
    op: "aten::_to_copy"
    sample {
      name: "to_float64"
      arg { name: "self" tensor { shape: [7, 5] } }
      arg { name: "dtype" dtype_value: FLOAT64 }
    }
  )pb";
  for (int w : {2, 3, 4}) {
    const RuleVerdict v = Claim(kWiden, "P(sum) -> P(sum)", w);
    EXPECT_EQ(v.verdict, Verdict::kCorrect) << "W=" << w << ": " << v.evidence;
  }
}

// The default recipe divides by zeros: x / 0 = inf on one rank and -inf on
// another reconstruct to nan, while the full output is inf.
TEST(FalseAlarmsTest, NonFiniteFullOutputsAreNoEvidenceForPartials) {
  const char kDiv[] = R"pb(
    op: "aten::div.Tensor"
    sample {
      name: "m"
      arg { name: "self" tensor { shape: [6, 4] } }
      arg { name: "other" tensor { shape: [6, 4] } }
    }
  )pb";
  for (int w : {2, 3, 4}) {
    const RuleVerdict v = Claim(kDiv, "P(sum), R -> P(sum)", w);
    EXPECT_EQ(v.verdict, Verdict::kCorrect) << "W=" << w << ": " << v.evidence;
  }
  // R and S outputs still compare non-finite elements position by position.
  EXPECT_EQ(Claim(kDiv, "S(0), S(0) -> S(0)", 3).verdict, Verdict::kCorrect);
  EXPECT_EQ(Claim(kDiv, "S(0), R -> S(0)", 3).verdict, Verdict::kIncorrect);
}

// float32 lerp and a float32 contraction of large P(sum) parts round beyond
// a fixed per-element slack; judged against their float64 reference they
// hold.
TEST(FalseAlarmsTest, RoundingIsJudgedAgainstAFloat64Reference) {
  const RuleVerdict lerp = Claim(R"pb(
    op: "aten::lerp.Tensor"
    sample {
      name: "broadcast_row"
      arg { name: "self" tensor { shape: [7, 5] } }
      arg { name: "end" tensor { shape: [5] } }
      arg { name: "weight" tensor { shape: [7, 1] } }
    }
  )pb", "P(sum), P(sum), R -> P(sum)", 2);
  EXPECT_EQ(lerp.verdict, Verdict::kCorrect) << lerp.evidence;
  const RuleVerdict mm = Claim(R"pb(
    op: "aten::mm"
    sample {
      name: "long_k"
      arg { name: "self" tensor { shape: [6, 512] } }
      arg { name: "mat2" tensor { shape: [512, 5] } }
    }
  )pb", "P(sum), R -> P(sum)", 2);
  EXPECT_EQ(mm.verdict, Verdict::kCorrect) << mm.evidence;
}

// An overload that writes an input its schema does not mark as written
// (libtorch 1.13's batch_norm updates running_mean/running_var in place in
// training) must not share that input with other calls: the full call
// finds the write, and the sample is treated as mutating from then on.
TEST(FalseAlarmsTest, UnmarkedWritesMakeTheSampleCopyItsInputs) {
  auto spec_of = [](bool training) {
    return LoadedSpec::FromText(absl::StrCat(R"pb(
      op: "aten::batch_norm"
      sample {
        name: "s"
        arg { name: "input" tensor { shape: [8, 3] } }
        arg { name: "weight" none: true }
        arg { name: "bias" none: true }
        arg { name: "running_mean" tensor { shape: [3] } }
        arg { name: "running_var" tensor { shape: [3] recipe: "positive" } }
        arg { name: "momentum" float_value: 0.1 }
        arg { name: "eps" float_value: 0.01 }
        arg { name: "cudnn_enabled" bool_value: false }
        arg { name: "training" bool_value: )pb", training ? "true" : "false", " }\n}\n"),
                                "test.textproto", TestRecipes());
  };
  for (const bool training : {false, true}) {
    SCOPED_TRACE(training ? "training" : "eval");
    absl::StatusOr<LoadedSpec> spec = spec_of(training);
    ASSERT_TRUE(spec.ok()) << spec.status();
    absl::StatusOr<std::vector<BoundSample>> samples = BoundSample::BindAll(*spec, 0);
    ASSERT_TRUE(samples.ok()) << samples.status();
    const BoundSample& sample = samples->front();
    EXPECT_FALSE(sample.mutates());  // batch_norm's schema marks no write
    TruthOptions options;
    options.world_size = 3;
    ASSERT_TRUE(GroundTruth(*spec, 0, sample, options).ok());
    EXPECT_EQ(sample.mutates(), training);
  }
}

}  // namespace
}  // namespace shrt
