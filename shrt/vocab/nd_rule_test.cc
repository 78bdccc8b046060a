#include "shrt/vocab/nd_rule.h"

#include <set>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shrt/vocab/expand.h"

namespace shrt {
namespace {

using ::testing::HasSubstr;

TEST(NdRuleTest, TextRoundTripsAndTransposesToMeshDims) {
  const std::string text = "[S(0), S(1)], [S(0), R] -> [S(0), S(1)]";
  absl::StatusOr<NdRule> rule =
      ParseNdRule(" [S(0),S(1)] ,[ Shard(0), Replicate() ]->[S(0), S(1)]");
  ASSERT_TRUE(rule.ok()) << rule.status();
  EXPECT_EQ(NdRuleToString(*rule), text);
  ASSERT_EQ(rule->ndim(), 2);
  EXPECT_EQ(RuleToString(rule->mesh_dims[0]), "S(0), S(0) -> S(0)");
  EXPECT_EQ(RuleToString(rule->mesh_dims[1]), "S(1), R -> S(1)");
  EXPECT_EQ(NdPlacementToString(rule->Input(1)), "[S(0), R]");
}

TEST(NdRuleTest, StridedShardParsesInEveryDTensorSpelling) {
  for (const char* text : {"[_S(0, 2), S(0)] -> [_S(0, 2), S(0)]",
                           "[_StridedShard(dim=0, sf=2), S(0)] -> [_StridedShard(0, 2), S(0)]"}) {
    absl::StatusOr<NdRule> rule = ParseNdRule(text);
    ASSERT_TRUE(rule.ok()) << text << ": " << rule.status();
    EXPECT_EQ(NdRuleToString(*rule), "[_S(0, 2), S(0)] -> [_S(0, 2), S(0)]");
    EXPECT_EQ(rule->Input(0)[0], Placement::StridedShard(0, 2));
  }
  // A single-dim rule cannot hold one.
  absl::StatusOr<Rule> single = ParseRule("_S(0, 2) -> S(0)");
  EXPECT_FALSE(single.ok());
  EXPECT_THAT(single.status().message(), HasSubstr("N-D placement"));
  EXPECT_FALSE(ParsePlacement("_S(0, 0)").ok());
  EXPECT_FALSE(ParsePlacement("_S(0)").ok());
}

TEST(NdRuleTest, MalformedTextNamesTheProblem) {
  const std::pair<const char*, const char*> cases[] = {
      {"[S(0), R] [R, R] -> [R, R]", "expected ','"},
      {"[S(0), R], [R] -> [R, R]", "every tensor needs one per mesh dim"},
      {"[S(0), R] -> ", "no output"},
      {"[S(0), R -> [R, R]", "missing ']'"},
      {"S(0), R -> [R, R]", "expected '['"},
      {"[S(0), R], [R, R]", "missing '->'"},
      {"[] -> [R]", "empty placement list"},
      {"[R, R, R, R] -> [R, R, R, R]", "at most 3"},
      {"[S(x), R] -> [R, R]", "bad placement"},
  };
  for (const auto& [text, why] : cases) {
    absl::StatusOr<NdRule> rule = ParseNdRule(text);
    ASSERT_FALSE(rule.ok()) << text;
    EXPECT_EQ(rule.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(rule.status().message(), HasSubstr(why)) << text;
  }
}

// PyTorch #172610: Partial placements of one tensor must share a reduce op.
TEST(NdRuleTest, MixedPartialsAreAContractError) {
  EXPECT_TRUE(
      CheckNdPlacements({Placement::Partial(ReduceOp::kSum), Placement::Partial(ReduceOp::kSum)})
          .ok());
  const absl::Status mixed =
      CheckNdPlacements({Placement::Partial(ReduceOp::kSum), Placement::Partial(ReduceOp::kMax)});
  EXPECT_EQ(mixed.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(mixed.message(), HasSubstr("[P(sum), P(max)] mixes Partial reduce ops"));
  absl::StatusOr<NdRule> rule = ParseNdRule("[P(sum), P(max)] -> [P(sum), P(max)]");
  ASSERT_TRUE(rule.ok());
  EXPECT_THAT(CheckNdRule(*rule).message(), HasSubstr("input 0: [P(sum), P(max)]"));
}

TEST(NdRuleTest, NamedOnlyPlacementsAreOneDimensionalForNow) {
  for (const Placement& p :
       {Placement::NormPartial(2), Placement::MaskPartial(ReduceOp::kSum, 10)}) {
    const absl::Status st = CheckNdPlacements({p, Placement::Replicate()});
    EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << p.ToString();
    EXPECT_THAT(st.message(), HasSubstr("builds on a 1-D mesh only")) << p.ToString();
  }
}

TEST(NdRuleTest, EmbedPlacesOneRuleOnOneMeshDim) {
  const NdRule e = EmbedRule(*ParseRule("S(1), S(0) -> P(sum)"), 1, 2);
  EXPECT_EQ(NdRuleToString(e), "[R, S(1)], [R, S(0)] -> [R, P(sum)]");
}

Rule R(const char* text) { return *ParseRule(text); }

TEST(ExpandTest, ProductOverMeshDimsWithAllReplicateInItertoolsOrder) {
  const MeshShape mesh = *MeshShape::Parse("2x2");
  const std::vector<ExpandedRule> e =
      ExpandToMesh({R("S(0), R -> S(0)"), R("R, S(1) -> S(1)")}, {{8, 6}, {6, 4}}, 1, mesh, 1024)
          .rules;
  ASSERT_EQ(e.size(), 9u);  // (2 + 1)^2
  EXPECT_EQ(NdRuleToString(e[0].rule), "[R, R], [R, R] -> [R, R]");
  EXPECT_EQ(NdRuleToString(e[1].rule), "[R, S(0)], [R, R] -> [R, S(0)]");
  EXPECT_EQ(NdRuleToString(e[5].rule), "[S(0), R], [R, S(1)] -> [S(0), S(1)]");
  for (const ExpandedRule& r : e) EXPECT_EQ(r.filtered, "") << NdRuleToString(r.rule);
  EXPECT_EQ(
      ExpandToMesh({R("S(0) -> S(0)")}, {{8}}, 1, *MeshShape::Parse("2x2x2"), 1024).rules.size(),
      8u);
}

TEST(ExpandTest, FiltersLikeIsTensorShardableAndNeverMixesPartials) {
  const MeshShape mesh = *MeshShape::Parse("2x3");
  // Dim 0 of size 5 splits over 2 or 3 ranks, not over both (6 shards).
  const std::vector<ExpandedRule> e =
      ExpandToMesh({R("S(0) -> S(0)"), R("P(sum) -> P(sum)"), R("P(max) -> P(max)")}, {{5, 2}}, 1,
                   mesh, 1024)
          .rules;
  int filtered = 0;
  for (const ExpandedRule& r : e) {
    EXPECT_TRUE(CheckNdRule(r.rule).ok()) << NdRuleToString(r.rule);
    if (r.filtered.empty()) continue;
    ++filtered;
    EXPECT_EQ(NdRuleToString(r.rule), "[S(0), S(0)] -> [S(0), S(0)]");
    EXPECT_EQ(r.filtered, "input 0 [S(0), S(0)]: dim 0 of size 5 is split into 6 shards");
  }
  EXPECT_EQ(filtered, 1);
  EXPECT_EQ(e.size(), 16u - 2);  // no [P(sum), P(max)] or [P(max), P(sum)]
  EXPECT_EQ(WhyNotShardable({4}, {Placement::Shard(1), Placement::Replicate()}, mesh),
            "S(1) of a 1-d tensor");
}

// Past the limit, a fixed subset: every rule alone and on all mesh dims.
TEST(ExpandTest, LargeExpansionsAreSampledDeterministically) {
  std::vector<Rule> rules;
  for (int d = 0; d < 3; ++d) {
    for (int e = 0; e < 3; ++e) {
      rules.push_back({{Placement::Shard(d), Placement::Shard(e)}, {Placement::Shard(d)}});
    }
  }
  const MeshShape mesh = *MeshShape::Parse("2x2");
  const Expansion full = ExpandToMesh(rules, {{8, 8, 8}, {8, 8, 8}}, 1, mesh, 1024);
  EXPECT_FALSE(full.sampled);
  EXPECT_EQ(full.rules.size(), 100u);
  const Expansion part = ExpandToMesh(rules, {{8, 8, 8}, {8, 8, 8}}, 1, mesh, 40);
  EXPECT_TRUE(part.sampled);
  EXPECT_EQ(part.combinations, 100);
  EXPECT_EQ(part.rules.size(), 40u);
  std::set<std::string> texts;
  for (const ExpandedRule& r : part.rules) texts.insert(NdRuleToString(r.rule));
  for (const Rule& r : rules) {
    for (int m = 0; m < 2; ++m) EXPECT_TRUE(texts.count(NdRuleToString(EmbedRule(r, m, 2))));
    EXPECT_TRUE(texts.count(NdRuleToString(NdRule{{r, r}})));
  }
  const Expansion again = ExpandToMesh(rules, {{8, 8, 8}, {8, 8, 8}}, 1, mesh, 40);
  for (size_t i = 0; i < part.rules.size(); ++i) EXPECT_EQ(part.rules[i].rule, again.rules[i].rule);
}

}  // namespace
}  // namespace shrt
