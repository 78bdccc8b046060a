#include "shrt/engine/validate.h"

#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shrt/engine/test_recipes.h"

namespace shrt {
namespace {

using ::testing::HasSubstr;
using ::testing::UnorderedElementsAreArray;

// Validates `spec_text` against a strategy that claims `rules` on every
// sample, building the named-only placements `named` (by sample name).
OpReport Validate(const std::string& spec_text, std::vector<std::string> rules, int world_size = 4,
                  std::map<std::string, NamedPlacements> named = {}) {
  absl::StatusOr<LoadedSpec> spec = LoadedSpec::FromText(spec_text, "test.textproto", TestRecipes());
  EXPECT_TRUE(spec.ok()) << spec.status();
  const RuleSource source = ClaimRules(rules);
  ValidateOptions options;
  options.world_size = world_size;
  options.named_placements = std::move(named);
  absl::StatusOr<OpReport> report = ValidateOp(*spec, source, options);
  EXPECT_TRUE(report.ok()) << report.status();
  return report.ok() ? *report : OpReport{};
}

std::vector<std::string> Rules(const OpReport& r, Verdict v) {
  std::vector<std::string> out;
  for (const RuleVerdict& rv : r.rules) {
    if (rv.verdict == v) out.push_back(RuleToString(rv.rule));
  }
  return out;
}

std::string Evidence(const OpReport& r, const std::string& rule) {
  for (const RuleVerdict& rv : r.rules) {
    if (RuleToString(rv.rule) == rule) return rv.evidence;
  }
  return "<not reported>";
}

const char kMm[] = R"pb(
  op: "aten::mm"
  sample {
    name: "uneven"
    arg { name: "self" tensor { shape: [7, 5] } }
    arg { name: "mat2" tensor { shape: [5, 3] } }
  }
)pb";

TEST(ValidateTest, MatmulRulesAreCorrectOnUnevenShards) {
  const std::vector<std::string> claimed = {"S(0), R -> S(0)", "R, S(1) -> S(1)",
                                            "S(1), S(0) -> P(sum)"};
  for (int w : {2, 3, 4, 8}) {
    OpReport r = Validate(kMm, claimed, w);
    EXPECT_THAT(Rules(r, Verdict::kCorrect), UnorderedElementsAreArray(claimed)) << "W=" << w;
    EXPECT_TRUE(Rules(r, Verdict::kIncorrect).empty()) << "W=" << w;
    EXPECT_GT(r.combination_checks, 0);
  }
}

TEST(ValidateTest, UnclaimedValidRulesAreMissingAndExceptionsAreEvidence) {
  OpReport r = Validate(kMm, {"S(0), S(0) -> S(0)"});
  EXPECT_THAT(Rules(r, Verdict::kIncorrect), UnorderedElementsAreArray({"S(0), S(0) -> S(0)"}));
  EXPECT_THAT(Evidence(r, "S(0), S(0) -> S(0)"), HasSubstr("raised"));
  EXPECT_THAT(Rules(r, Verdict::kMissing),
              UnorderedElementsAreArray({"S(0), R -> S(0)", "R, S(1) -> S(1)",
                                         "S(1), S(0) -> P(sum)", "P(sum), R -> P(sum)",
                                         "R, P(sum) -> P(sum)", "P(avg), R -> P(avg)",
                                         "R, P(avg) -> P(avg)"}));
}

// A rule claimed on one sample and refused on another where it also holds
// (a strategy's condition, DTensor's shardability filter) is correct, and
// names the sample that refused it; one claimed nowhere is missing.
TEST(ValidateTest, ARuleRefusedOnSomeSamplesIsCorrectAndNamesThem) {
  absl::StatusOr<LoadedSpec> spec = LoadedSpec::FromText(absl::StrCat(kMm, R"pb(
    sample {
      name: "one_row"
      arg { name: "self" tensor { shape: [1, 6] } }
      arg { name: "mat2" tensor { shape: [6, 3] } }
    })pb"), "test.textproto", TestRecipes());
  ASSERT_TRUE(spec.ok()) << spec.status();
  // Claims S(0), R -> S(0) only where self has at least W = 4 rows, as
  // DTensor's is_tensor_shardable does.
  const RuleSource source = [](const OpArgs& args) -> absl::StatusOr<std::vector<Rule>> {
    if (args.inputs()[0].sizes[0] < 4) return std::vector<Rule>{};
    return std::vector<Rule>{*ParseRule("S(0), R -> S(0)")};
  };
  ValidateOptions options;
  options.world_size = 4;
  absl::StatusOr<OpReport> r = ValidateOp(*spec, source, options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(Rules(*r, Verdict::kCorrect), UnorderedElementsAreArray({"S(0), R -> S(0)"}));
  for (const RuleVerdict& v : r->rules) {
    if (RuleToString(v.rule) == "S(0), R -> S(0)") {
      EXPECT_THAT(v.unclaimed, ::testing::ElementsAre("one_row"));
    }
  }
  EXPECT_THAT(Rules(*r, Verdict::kMissing), ::testing::Contains("R, S(1) -> S(1)"));
}

// Reports of one overload combine: incorrect over correct over missing,
// the unclaimed samples of both.
TEST(ValidateTest, CombinedVerdictsKeepTheStrongerFinding) {
  const Rule rule = *ParseRule("S(0) -> S(0)");
  const RuleVerdict correct{rule, Verdict::kCorrect, "holds on sample a", {"b"}};
  const RuleVerdict missing{rule, Verdict::kMissing, "holds on sample c", {"c"}};
  const RuleVerdict incorrect{rule, Verdict::kIncorrect, "refuted on sample d", {}};
  RuleVerdict both = CombineVerdicts(missing, correct);
  EXPECT_EQ(both.verdict, Verdict::kCorrect);
  EXPECT_EQ(both.evidence, "holds on sample a");
  EXPECT_THAT(both.unclaimed, ::testing::ElementsAre("b", "c"));
  EXPECT_EQ(CombineVerdicts(both, incorrect).verdict, Verdict::kIncorrect);
  EXPECT_EQ(CombineVerdicts(incorrect, missing).evidence, "refuted on sample d");
}

TEST(ValidateTest, EnumerationFindsExactlyReluRules) {
  OpReport r = Validate(R"pb(
    op: "aten::relu"
    sample { name: "m" arg { name: "self" tensor { shape: [5, 3] } } }
  )pb", {});
  // Degenerate rules (R -> P(max), ...) are never missing.
  EXPECT_THAT(Rules(r, Verdict::kMissing),
              UnorderedElementsAreArray(
                  {"S(0) -> S(0)", "S(1) -> S(1)", "P(max) -> P(max)", "P(min) -> P(min)"}));
}

TEST(ValidateTest, WrongPartialRuleIsIncorrectWithEvidence) {
  OpReport r = Validate(R"pb(
    op: "aten::abs"
    sample { name: "m" arg { name: "self" tensor { shape: [4, 3] } } }
  )pb", {"P(sum) -> P(sum)", "P(max) -> P(max)"});
  EXPECT_THAT(Rules(r, Verdict::kIncorrect),
              UnorderedElementsAreArray({"P(sum) -> P(sum)", "P(max) -> P(max)"}));
  const std::string e = Evidence(r, "P(sum) -> P(sum)");
  EXPECT_THAT(e, HasSubstr("sample m"));
  EXPECT_THAT(e, HasSubstr("generator"));
  EXPECT_THAT(e, HasSubstr("max |difference|"));
}

// DTensor's _NormPartial(p) (torch/distributed/tensor/_ops/_math_ops.py):
// built only for the samples a rule source names it for.
TEST(ValidateTest, NormPartialRulesAreJudgedWhereNamed) {
  const char kNorm[] = R"pb(
    op: "aten::linalg_vector_norm"
    sample {
      name: "m"
      arg { name: "self" tensor { shape: [7, 5] } }
      arg { name: "ord" float_value: 2 }
    }
  )pb";
  OpReport r = Validate(kNorm,
                        {"S(0) -> _NormP(2)", "S(1) -> _NormP(2)", "S(0) -> _NormP(3)",
                         "S(0) -> P(sum)"},
                        3, {{"m", {{}, {{Placement::NormPartial(2), Placement::NormPartial(3)}}}}});
  EXPECT_THAT(Rules(r, Verdict::kCorrect),
              UnorderedElementsAreArray({"S(0) -> _NormP(2)", "S(1) -> _NormP(2)"}));
  EXPECT_THAT(Rules(r, Verdict::kIncorrect),
              UnorderedElementsAreArray({"S(0) -> _NormP(3)", "S(0) -> P(sum)"}));
  EXPECT_THAT(Evidence(r, "S(0) -> _NormP(3)"), HasSubstr("the reduction over ranks"));

  // Not named for the sample: not built, so not judged, and said so.
  r = Validate(kNorm, {"S(0) -> _NormP(2)"}, 3);
  EXPECT_TRUE(Rules(r, Verdict::kIncorrect).empty());
  EXPECT_THAT(Evidence(r, "S(0) -> _NormP(2)"), HasSubstr("named_placements"));
}

// DTensor's _MaskPartial (placement_types.py), embedding's row-wise rule
// (_ops/_embedding_ops.py embedding_strategy): weight S(0), indices masked
// to each rank's rows, the output masked and summed.
TEST(ValidateTest, MaskPartialRulesAreJudgedWhereNamed) {
  const Placement mask10 = Placement::MaskPartial(ReduceOp::kSum, 10);
  const Placement mask9 = Placement::MaskPartial(ReduceOp::kSum, 9);
  for (int w : {3, 4}) {
    OpReport r = Validate(R"pb(
      op: "aten::embedding"
      sample {
        name: "m"
        arg { name: "weight" tensor { shape: [10, 3] } }
        arg { name: "indices" tensor { shape: [2, 4] dtype: INT64 recipe: "embedding_indices" } }
      }
    )pb",
                          {"S(0), _MaskP(sum, 10) -> _MaskP(sum, 10)",  // DTensor's, correct
                           "S(0), _MaskP(sum, 9) -> _MaskP(sum, 9)",    // the wrong range
                           "S(0), _MaskP(sum, 10) -> P(sum)",           // unmasked output
                           "R, _MaskP(sum, 10) -> _MaskP(sum, 10)",     // unsharded weight
                           "R, R -> _MaskP(sum, 10)"},                  // no mask to take
                          w, {{"m", {{{}, {mask10, mask9}}, {{mask10, mask9}}}}});
    EXPECT_THAT(Rules(r, Verdict::kCorrect),
                UnorderedElementsAreArray({"S(0), _MaskP(sum, 10) -> _MaskP(sum, 10)"}))
        << "W=" << w;
    EXPECT_THAT(Rules(r, Verdict::kIncorrect),
                UnorderedElementsAreArray({"S(0), _MaskP(sum, 9) -> _MaskP(sum, 9)",
                                           "S(0), _MaskP(sum, 10) -> P(sum)",
                                           "R, _MaskP(sum, 10) -> _MaskP(sum, 10)",
                                           "R, R -> _MaskP(sum, 10)"}))
        << "W=" << w;
    EXPECT_THAT(Evidence(r, "R, R -> _MaskP(sum, 10)"), HasSubstr("no input is _MaskP"));
  }
}

// gather's row-wise rule (_ops/_tensor_ops.py gather_strategy: index of
// size 1 on dim): the mask has the output's dims, so it zeroes elements.
TEST(ValidateTest, GatherMaskPartialRuleHolds) {
  const Placement mask7 = Placement::MaskPartial(ReduceOp::kSum, 7);
  OpReport r = Validate(R"pb(
    op: "aten::gather"
    sample {
      name: "g"
      arg { name: "self" tensor { shape: [6, 7] } }
      arg { name: "dim" int_value: 1 }
      arg { name: "index" tensor { shape: [6, 1] dtype: INT64 recipe: "gather_index" } }
    }
  )pb",
                        {"S(1), _MaskP(sum, 7) -> _MaskP(sum, 7)", "S(1), R -> P(sum)"}, 3,
                        {{"g", {{{}, {mask7}}, {{mask7}}}}});
  EXPECT_THAT(Rules(r, Verdict::kCorrect),
              UnorderedElementsAreArray({"S(1), _MaskP(sum, 7) -> _MaskP(sum, 7)"}));
  EXPECT_THAT(Rules(r, Verdict::kIncorrect), UnorderedElementsAreArray({"S(1), R -> P(sum)"}));
}

TEST(ValidateTest, MultiOutputRulesHaveOnePlacementPerOutput) {
  OpReport r = Validate(R"pb(
    op: "aten::max.dim"
    sample {
      name: "rows"
      arg { name: "self" tensor { shape: [6, 5] } }
      arg { name: "dim" int_value: 1 }
    }
  )pb", {"S(0) -> S(0), S(0)", "S(1) -> P(max), P(max)", "S(1) -> P(max), R"});
  EXPECT_THAT(Rules(r, Verdict::kCorrect), UnorderedElementsAreArray({"S(0) -> S(0), S(0)"}));
  EXPECT_THAT(Rules(r, Verdict::kIncorrect),
              UnorderedElementsAreArray({"S(1) -> P(max), P(max)", "S(1) -> P(max), R"}));
}

TEST(ValidateTest, TensorListInputsAndIntegerDtypes) {
  OpReport r = Validate(R"pb(
    op: "aten::cat"
    sample {
      name: "cols"
      arg { name: "tensors" tensors { tensor { shape: [5, 2] dtype: INT64 } tensor { shape: [5, 3] dtype: INT64 } } }
      arg { name: "dim" int_value: 1 }
    }
  )pb", {"S(0), S(0) -> S(0)", "P(sum), P(sum) -> P(sum)", "S(1), S(1) -> S(1)"});
  EXPECT_THAT(Rules(r, Verdict::kCorrect),
              UnorderedElementsAreArray({"S(0), S(0) -> S(0)", "P(sum), P(sum) -> P(sum)"}));
  EXPECT_THAT(Rules(r, Verdict::kIncorrect), UnorderedElementsAreArray({"S(1), S(1) -> S(1)"}));
}

TEST(ValidateTest, InPlaceRulesMayNotChangeSelfsPlacement) {
  OpReport r = Validate(R"pb(
    op: "aten::add_.Tensor"
    sample {
      name: "m"
      arg { name: "self" tensor { shape: [5, 4] } }
      arg { name: "other" tensor { shape: [5, 4] } }
    }
  )pb", {"S(0), S(0) -> S(0)", "R, P(max) -> P(max)"});
  EXPECT_THAT(Rules(r, Verdict::kCorrect), UnorderedElementsAreArray({"S(0), S(0) -> S(0)"}));
  EXPECT_THAT(Evidence(r, "R, P(max) -> P(max)"), HasSubstr("written in place"));
  for (const std::string& m : Rules(r, Verdict::kMissing)) {
    const Rule rule = *ParseRule(m);
    EXPECT_EQ(rule.inputs[0], rule.outputs[0]) << m;
  }
}

TEST(ValidateTest, ZeroDimOutputsAndUnevenMean) {
  OpReport r = Validate(R"pb(
    op: "aten::sum"
    sample { name: "all" arg { name: "self" tensor { shape: [5, 3] } } }
  )pb", {"S(0) -> P(sum)", "S(1) -> P(sum)", "P(sum) -> P(sum)", "S(0) -> P(avg)"});
  EXPECT_THAT(Rules(r, Verdict::kCorrect),
              UnorderedElementsAreArray({"S(0) -> P(sum)", "S(1) -> P(sum)", "P(sum) -> P(sum)"}));
  EXPECT_THAT(Rules(r, Verdict::kIncorrect), UnorderedElementsAreArray({"S(0) -> P(avg)"}));
}

TEST(ValidateTest, AllZeroOutputsLeaveRulesUnverified) {
  OpReport r = Validate(R"pb(
    op: "aten::zeros_like"
    sample { name: "m" arg { name: "self" tensor { shape: [4, 3] } } }
  )pb", {"S(0) -> S(0)"});
  EXPECT_THAT(Rules(r, Verdict::kUnverified), UnorderedElementsAreArray({"S(0) -> S(0)"}));
}

TEST(ValidateTest, BoolInputsNeverTakePartials) {
  OpReport r = Validate(R"pb(
    op: "aten::logical_and"
    sample {
      name: "m"
      arg { name: "self" tensor { shape: [4, 3] dtype: BOOL recipe: "bool_mask" } }
      arg { name: "other" tensor { shape: [4, 3] dtype: BOOL recipe: "bool_mask" } }
    }
  )pb", {"P(max), P(max) -> R"});
  // Not applicable is not wrong: unverified, saying why (DESIGN.md §3).
  EXPECT_THAT(Rules(r, Verdict::kUnverified), UnorderedElementsAreArray({"P(max), P(max) -> R"}));
  EXPECT_THAT(Evidence(r, "P(max), P(max) -> R"), HasSubstr("P(max) cannot be built for input 0"));
}

TEST(ValidateTest, NonContiguousLayoutsAndSweeps) {
  OpReport r = Validate(R"pb(
    op: "aten::sum.dim_IntList"
    sample {
      name: "t"
      arg { name: "self" tensor { shape: [5, 3] layout: TRANSPOSED } }
      sweep { name: "dim" int_lists { value: [0] } int_lists { value: [1] } }
    }
  )pb", {});
  ASSERT_EQ(r.samples.size(), 2u);
  EXPECT_EQ(r.samples[0].name, "t[dim=[0]]");
  // S(0) -> P(sum) holds on dim=[0] and S(0) -> S(0) on dim=[1]: both missing.
  EXPECT_THAT(Rules(r, Verdict::kMissing), ::testing::IsSupersetOf({"S(0) -> P(sum)", "S(0) -> S(0)"}));
}

TEST(ValidateTest, IndexRecipesStayInRange) {
  OpReport r = Validate(R"pb(
    op: "aten::index_select"
    sample {
      name: "rows"
      arg { name: "self" tensor { shape: [7, 4] } }
      arg { name: "dim" int_value: 0 }
      arg { name: "index" tensor { shape: [5] dtype: INT64 recipe: "index_select_index" } }
    }
  )pb", {"R, S(0) -> S(0)", "S(1), R -> S(1)", "R, P(sum) -> P(sum)"});
  EXPECT_THAT(Rules(r, Verdict::kCorrect),
              UnorderedElementsAreArray({"R, S(0) -> S(0)", "S(1), R -> S(1)"}));
  // An index input takes no Partial placement: claiming one is incorrect
  // without running a kernel on parts of indices.
  EXPECT_THAT(Rules(r, Verdict::kIncorrect), UnorderedElementsAreArray({"R, P(sum) -> P(sum)"}));
  EXPECT_THAT(Evidence(r, "R, P(sum) -> P(sum)"), HasSubstr("parts of an index are not indices"));
  for (const RuleVerdict& v : r.rules) {
    if (v.verdict != Verdict::kIncorrect) {
      EXPECT_FALSE(v.rule.inputs[1].is_partial()) << RuleToString(v.rule);
    }
  }
}

// Every optimisation keeps a reference path; the verdicts (and their
// evidence) must not depend on which one runs.
TEST(ValidateTest, OptimisedAndReferencePathsGiveIdenticalVerdicts) {
  const char* specs[] = {
      R"pb(op: "aten::mul.Tensor"
           sample { name: "b" arg { name: "self" tensor { shape: [7, 5] } } arg { name: "other" tensor { shape: [5] } } }
           sample { name: "d" arg { name: "self" tensor { shape: [3, 4] dtype: FLOAT64 } } arg { name: "other" tensor { shape: [3, 4] dtype: FLOAT64 } } }
           sample { name: "i" arg { name: "self" tensor { shape: [3, 4] dtype: INT64 } } arg { name: "other" tensor { shape: [3, 4] dtype: INT64 } } })pb",
      R"pb(op: "aten::sum.dim_IntList"
           sample { name: "s" arg { name: "self" tensor { shape: [5, 3] layout: TRANSPOSED } }
                    sweep { name: "dim" int_lists { value: [0] } int_lists { value: [1] } }
                    sweep { name: "keepdim" bool_values: [false, true] } })pb",
      R"pb(op: "aten::max.dim"
           sample { name: "m" arg { name: "self" tensor { shape: [6, 5] } } arg { name: "dim" int_value: 1 } })pb",
      // In place: every tuple gets private copies of the shared locals.
      R"pb(op: "aten::mul_.Tensor"
           sample { name: "ip" arg { name: "self" tensor { shape: [5, 3] } } arg { name: "other" tensor { shape: [3] } } })pb",
      R"pb(op: "aten::where.self"
           sample { name: "w" arg { name: "condition" tensor { shape: [4, 3] dtype: BOOL recipe: "bool_mask" } }
                    arg { name: "self" tensor { shape: [4, 3] } } arg { name: "other" tensor { shape: [3] } } })pb",
  };
  for (const char* text : specs) {
    absl::StatusOr<LoadedSpec> spec = LoadedSpec::FromText(text, "paths.textproto", TestRecipes());
    ASSERT_TRUE(spec.ok()) << spec.status();
    for (int w : {3, 4}) {
      std::vector<std::vector<std::string>> runs;
      int64_t checks[2] = {0, 0};
      for (bool reference : {false, true}) {
        ValidateOptions options;
        options.world_size = w;
        options.reference_paths = reference;
        absl::StatusOr<OpReport> r = ValidateOp(
            *spec, [](const OpArgs&) { return absl::StatusOr<std::vector<Rule>>(std::vector<Rule>{}); },
            options);
        ASSERT_TRUE(r.ok()) << r.status();
        std::vector<std::string> lines;
        for (const RuleVerdict& v : r->rules) {
          lines.push_back(absl::StrCat(RuleToString(v.rule), " ", VerdictName(v.verdict), " ", v.evidence));
        }
        runs.push_back(std::move(lines));
        checks[reference] = r->combination_checks;
      }
      EXPECT_EQ(runs[0], runs[1]) << spec->proto().op() << " W=" << w;
      EXPECT_EQ(checks[0], checks[1]);
      EXPECT_FALSE(runs[0].empty());
    }
  }
}

// Counts the per-rank calls ground truth makes.
class CallCounter : public CallRecorder {
 public:
  void Record(const c10::OperatorHandle&, std::vector<c10::IValue>) override { ++calls; }
  int64_t calls = 0;
};

// A tuple with no output placement left makes no more calls: its later
// redraws cannot change a verdict. relu and clone take the same input
// (12 elements, so `redraws` is the number of redraws), hence the same
// cases and candidates. Every Partial input of clone keeps a rule
// (P(op) -> P(op)), so each extra redraw costs every Partial tuple W calls
// per case; relu keeps only P(max) and P(min), and its other Partial tuples
// die in their first run, so its extra calls are fewer in exactly that
// proportion. Without the early stop both would grow alike.
TEST(ValidateTest, DeadTuplesStopTheirRedraws) {
  // For `op`: the calls with 3 and with 9 redraws, and the Partial input
  // placements of the valid (here all missing) rules with 9.
  struct Growth {
    int64_t extra_calls = 0;
    std::set<std::string> live_partials;
  };
  auto growth = [](const std::string& op) {
    absl::StatusOr<LoadedSpec> spec = LoadedSpec::FromText(
        absl::StrCat(R"pb(op: ")pb", op, R"pb(" sample { name: "x" arg { name: "self" tensor { shape: [4, 3] } } })pb"),
        "dead.textproto", TestRecipes());
    EXPECT_TRUE(spec.ok()) << spec.status();
    Growth g;
    for (int redraws : {3, 9}) {
      CallCounter counter;
      ValidateOptions options;
      options.world_size = 2;
      options.partial_redraws = redraws;
      options.recorder = &counter;
      absl::StatusOr<OpReport> r = ValidateOp(*spec, ClaimRules({}), options);
      EXPECT_TRUE(r.ok()) << r.status();
      if (!r.ok()) return g;
      g.extra_calls += redraws == 3 ? -counter.calls : counter.calls;
      if (redraws == 3) continue;
      for (const std::string& rule : Rules(*r, Verdict::kMissing)) {
        const std::string input = rule.substr(0, rule.find(" -> "));
        if (input.rfind("P(", 0) == 0) g.live_partials.insert(input);
      }
    }
    return g;
  };
  const Growth relu = growth("aten::relu");
  const Growth clone = growth("aten::clone");
  EXPECT_THAT(relu.live_partials, ::testing::ElementsAre("P(max)", "P(min)"));
  ASSERT_GT(clone.live_partials.size(), relu.live_partials.size());
  ASSERT_GT(clone.extra_calls, 0);
  EXPECT_EQ(relu.extra_calls * static_cast<int64_t>(clone.live_partials.size()),
            clone.extra_calls * static_cast<int64_t>(relu.live_partials.size()));
}

// view's size is a global shape: with local_shape_arg each rank gets its
// own part of it, as DTensor rewrites it, and shard rules become checkable.
TEST(ValidateTest, LocalShapeArgGivesEachRankItsOutputShape) {
  const std::string body = R"pb(
    op: "aten::view"
    sample {
      name: "split_rows"
      arg { name: "self" tensor { shape: [6, 4] } }
      arg { name: "size" int_list { value: [3, 2, 4] } }
    }
  )pb";
  for (int w : {3, 4}) {
    const OpReport with = Validate(absl::StrCat("local_shape_arg: \"size\"\n", body),
                                   {"S(0) -> S(0)", "S(1) -> S(2)"}, w);
    EXPECT_THAT(Rules(with, Verdict::kCorrect),
                UnorderedElementsAreArray({"S(0) -> S(0)", "S(1) -> S(2)"}))
        << "W=" << w;
    EXPECT_THAT(Rules(with, Verdict::kIncorrect), testing::IsEmpty())
        << Evidence(with, "S(1) -> S(2)");
    // Every Partial passes through a view.
    EXPECT_THAT(Rules(with, Verdict::kMissing), testing::Contains("P(sum) -> P(sum)"));
    // Without it every rank asks for the global shape, which its shard
    // cannot have.
    const OpReport without = Validate(body, {"S(0) -> S(0)"}, w);
    EXPECT_THAT(Rules(without, Verdict::kIncorrect), UnorderedElementsAreArray({"S(0) -> S(0)"}));
    EXPECT_THAT(Evidence(without, "S(0) -> S(0)"), HasSubstr("raised"));
  }
}

TEST(ValidateTest, LocalShapeArgMustBeAnIntListOfASingleOutputOverload) {
  for (const char* text : {
           "op: \"aten::view\"\nlocal_shape_arg: \"self\"\nsample { name: \"s\" arg { name: \"self\" tensor { shape: [4] } } arg { name: \"size\" int_list { value: [4] } } }",
           "op: \"aten::split.Tensor\"\nlocal_shape_arg: \"nope\"\nsample { name: \"s\" arg { name: \"self\" tensor { shape: [4] } } arg { name: \"split_size\" int_value: 2 } }",
       }) {
    absl::StatusOr<LoadedSpec> spec = LoadedSpec::FromText(text, "shape.textproto", TestRecipes());
    ASSERT_TRUE(spec.ok()) << spec.status();
    absl::StatusOr<OpReport> r = ValidateOp(
        *spec, [](const OpArgs&) { return absl::StatusOr<std::vector<Rule>>(std::vector<Rule>{}); },
        {});
    ASSERT_FALSE(r.ok());
    EXPECT_THAT(std::string(r.status().message()), HasSubstr("shape.textproto:2: field 'local_shape_arg'"));
  }
}

TEST(ValidateTest, RejectsBadWorldSize) {
  absl::StatusOr<LoadedSpec> spec = LoadedSpec::FromText(kMm, "mm.textproto", TestRecipes());
  ValidateOptions options;
  options.world_size = 1;
  EXPECT_FALSE(ValidateOp(*spec, {}, options).ok());
}

}  // namespace
}  // namespace shrt
