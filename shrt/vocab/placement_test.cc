#include "shrt/vocab/placement.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace shrt {
namespace {

using ::testing::HasSubstr;

TEST(PlacementTest, PrintsCanonicalText) {
  EXPECT_EQ(Placement::Replicate().ToString(), "R");
  EXPECT_EQ(Placement::Shard(0).ToString(), "S(0)");
  EXPECT_EQ(Placement::Shard(-1).ToString(), "S(-1)");
  EXPECT_EQ(Placement::Partial(ReduceOp::kSum).ToString(), "P(sum)");
  EXPECT_EQ(Placement::Partial(ReduceOp::kAvg).ToString(), "P(avg)");
  EXPECT_EQ(Placement::Partial(ReduceOp::kMax).ToString(), "P(max)");
  EXPECT_EQ(Placement::Partial(ReduceOp::kMin).ToString(), "P(min)");
  EXPECT_EQ(Placement::Partial(ReduceOp::kProduct).ToString(), "P(product)");
  EXPECT_EQ(Placement::NormPartial(2).ToString(), "_NormP(2)");
  EXPECT_EQ(Placement::NormPartial(0.5).ToString(), "_NormP(0.5)");
  // Exact: the text parses back to the same p.
  EXPECT_EQ(Placement::NormPartial(1.2345678).ToString(), "_NormP(1.2345678)");
  EXPECT_EQ(Placement::NormPartial(0.1).ToString(), "_NormP(0.1)");
}

TEST(PlacementTest, ParsesEveryCanonicalFormBack) {
  for (const char* text : {"R", "S(0)", "S(3)", "S(-2)", "P(sum)", "P(avg)", "P(max)", "P(min)",
                           "P(product)", "_NormP(2)", "_NormP(-1)", "_NormP(1.5)",
                           "_MaskP(sum, 10)", "_MaskP(max, 1)"}) {
    absl::StatusOr<Placement> p = ParsePlacement(text);
    ASSERT_TRUE(p.ok()) << text << ": " << p.status();
    EXPECT_EQ(p->ToString(), text);
  }
}

TEST(PlacementTest, AcceptsDTensorNamesAndWhitespace) {
  EXPECT_EQ(*ParsePlacement(" Replicate() "), Placement::Replicate());
  EXPECT_EQ(*ParsePlacement("Shard(1)"), Placement::Shard(1));
  EXPECT_EQ(*ParsePlacement("Partial( max )"), Placement::Partial(ReduceOp::kMax));
  // DTensor's repr of _NormPartial (torch/distributed/tensor/_ops/_math_ops.py).
  EXPECT_EQ(*ParsePlacement("_NormPartial(3)"), Placement::NormPartial(3));
  EXPECT_EQ(*ParsePlacement("_NormP(norm_type=2.0)"), Placement::NormPartial(2));
}

TEST(PlacementTest, NormPartialIsAPartialNamedOnlyByRules) {
  const Placement p = Placement::NormPartial(2);
  EXPECT_TRUE(p.is_partial());
  EXPECT_TRUE(p.is_named_only());
  EXPECT_EQ(p.reduce_op(), ReduceOp::kNorm);
  EXPECT_EQ(p.norm_type(), 2);
  EXPECT_NE(p, Placement::NormPartial(3));
  EXPECT_NE(p, Placement::Partial(ReduceOp::kSum));
  EXPECT_FALSE(Placement::Partial(ReduceOp::kSum).is_named_only());
  for (ReduceOp op : kAllReduceOps) EXPECT_NE(op, ReduceOp::kNorm);
  // R -> _NormP(p) is not degenerate: W equal values reduce to W ** (1/p)
  // times the value.
  EXPECT_FALSE(IsDegenerate(*ParseRule("R -> _NormP(2)")));
}

TEST(PlacementTest, MaskPartialIsAPartialOfASizeNamedOnlyByRules) {
  const Placement p = Placement::MaskPartial(ReduceOp::kSum, 10);
  EXPECT_TRUE(p.is_partial());
  EXPECT_TRUE(p.is_named_only());
  EXPECT_TRUE(p.is_mask_partial());
  EXPECT_EQ(p.reduce_op(), ReduceOp::kSum);
  EXPECT_EQ(p.mask_size(), 10);
  EXPECT_EQ(p.ToString(), "_MaskP(sum, 10)");
  EXPECT_NE(p, Placement::MaskPartial(ReduceOp::kSum, 9));
  EXPECT_NE(p, Placement::Partial(ReduceOp::kSum));
  EXPECT_FALSE(Placement::Partial(ReduceOp::kSum).is_mask_partial());
  EXPECT_EQ(Placement::Partial(ReduceOp::kSum).mask_size(), 0);
  EXPECT_EQ(Placement::Shard(3).mask_size(), 0);
  EXPECT_EQ(*ParsePlacement("_MaskPartial(sum, 4)"), Placement::MaskPartial(ReduceOp::kSum, 4));
  EXPECT_LT(Placement::NormPartial(2), p);
  EXPECT_FALSE(IsDegenerate(*ParseRule("R -> _MaskP(max, 3)")));
  // A rule carries it on an index input and on the output.
  absl::StatusOr<Rule> r = ParseRule("S(0), _MaskP(sum, 10) -> _MaskP(sum, 10)");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(RuleToString(*r), "S(0), _MaskP(sum, 10) -> _MaskP(sum, 10)");
}

TEST(PlacementTest, BadTextNamesTheOffendingToken) {
  struct Case {
    const char* text;
    const char* message;
  };
  for (const Case& c : {Case{"Q", "'Q'"}, Case{"S(x)", "'S(x)'"}, Case{"S", "integer dim"},
                        Case{"P(mean)", "unknown reduce op 'mean'"}, Case{"S(1", "missing ')'"},
                        Case{"R(1)", "takes no argument"}, Case{"", "empty"},
                        Case{"_NormP(x)", "needs a number p"}, Case{"_NormP(0)", "non-zero"},
                        Case{"_NormP(inf)", "finite"}, Case{"P(norm)", "unknown reduce op"},
                        Case{"_MaskP(sum)", "a reduce op and a size"},
                        Case{"_MaskP(sum, 0)", "at least 1"},
                        Case{"_MaskP(norm, 3)", "unknown reduce op 'norm'"}}) {
    absl::StatusOr<Placement> p = ParsePlacement(c.text);
    ASSERT_FALSE(p.ok()) << c.text;
    EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(p.status().message()), HasSubstr(c.message)) << c.text;
  }
}

TEST(RuleTest, RoundTripsCanonicalText) {
  for (const char* text : {"S(0), R -> S(0)", "R, S(1) -> S(1)", "S(1), S(0) -> P(sum)",
                           "P(sum), R -> P(sum)", "S(1) -> P(max), P(max)", " -> R"}) {
    absl::StatusOr<Rule> r = ParseRule(text);
    ASSERT_TRUE(r.ok()) << text << ": " << r.status();
    EXPECT_EQ(RuleToString(*r), text);
  }
}

TEST(RuleTest, NormalisesWhitespace) {
  absl::StatusOr<Rule> r = ParseRule("S(1),S(0)->P(sum)");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(RuleToString(*r), "S(1), S(0) -> P(sum)");
}

TEST(RuleTest, BadRulesExplainThemselves) {
  EXPECT_THAT(std::string(ParseRule("S(0), R").status().message()), HasSubstr("missing '->'"));
  EXPECT_THAT(std::string(ParseRule("S(0) -> R -> R").status().message()),
              HasSubstr("more than one"));
  EXPECT_THAT(std::string(ParseRule("S(0), T -> S(0)").status().message()), HasSubstr("'T'"));
  EXPECT_THAT(std::string(ParseRule("S(0) ->").status().message()), HasSubstr("no output"));
}

TEST(RuleTest, AllReplicateAndDegenerate) {
  EXPECT_TRUE(IsAllReplicate(*ParseRule("R, R -> R")));
  EXPECT_FALSE(IsAllReplicate(*ParseRule("R, R -> P(max)")));
  EXPECT_TRUE(IsDegenerate(*ParseRule("R, R -> R")));
  EXPECT_TRUE(IsDegenerate(*ParseRule("R, R -> P(avg)")));
  EXPECT_TRUE(IsDegenerate(*ParseRule("R -> P(max), P(min)")));
  EXPECT_FALSE(IsDegenerate(*ParseRule("R, R -> P(sum)")));
  EXPECT_FALSE(IsDegenerate(*ParseRule("R -> P(product)")));
  EXPECT_FALSE(IsDegenerate(*ParseRule("S(0), R -> P(max)")));
}

TEST(RuleTest, ArityCheckNamesTheSideAndTheRange) {
  const Rule rule = *ParseRule("S(0), R -> S(0)");
  EXPECT_TRUE(CheckRuleArity(rule, RuleArity::Exactly(2, 1)).ok());
  EXPECT_TRUE(CheckRuleArity(rule, {1, 2, 1, 1}).ok());
  EXPECT_TRUE(CheckRuleArity(rule, {0, RuleArity::kAny, 1, RuleArity::kAny}).ok());
  struct Case {
    RuleArity arity;
    const char* message;
  };
  for (const Case& c : {
           Case{RuleArity::Exactly(1, 1), "has 2 input placements but the overload has 1 tensor input"},
           Case{RuleArity::Exactly(3, 1), "has 2 input placements but the overload has 3 tensor inputs"},
           Case{{3, 4, 1, 1}, "has 2 input placements but the overload has 3 to 4 tensor inputs"},
           Case{{3, RuleArity::kAny, 1, 1}, "has 2 input placements but the overload has at least 3 tensor inputs"},
           Case{RuleArity::Exactly(2, 2), "has 1 output placement but the overload has 2 tensor outputs"},
           Case{RuleArity::Exactly(2, 0), "has 1 output placement but the overload has 0 tensor outputs"},
       }) {
    absl::Status s = CheckRuleArity(rule, c.arity);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(s.message(), c.message);
  }
}

TEST(PlacementTest, OrdersReplicateThenShardsThenPartials) {
  EXPECT_LT(Placement::Replicate(), Placement::Shard(0));
  EXPECT_LT(Placement::Shard(0), Placement::Shard(1));
  EXPECT_LT(Placement::Shard(5), Placement::Partial(ReduceOp::kSum));
  EXPECT_LT(Placement::Partial(ReduceOp::kSum), Placement::Partial(ReduceOp::kProduct));
  EXPECT_LT(Placement::Partial(ReduceOp::kProduct), Placement::NormPartial(1));
  EXPECT_LT(Placement::NormPartial(1), Placement::NormPartial(2));
}

}  // namespace
}  // namespace shrt
