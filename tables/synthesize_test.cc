// Conditional synthesis on real overloads: the rules DESIGN.md and the
// issue name come out, and every synthesised rule is correct when validated
// as a table (the re-check).
#include "shrt/report/synthesize.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shrt/engine/spec_loader.h"
#include "shrt/report/table_claims.h"

namespace shrt {
namespace {

using ::testing::Contains;
using ::testing::Not;

struct Found {
  Synthesis synthesis;
  std::vector<std::string> lines;  // "placements | condition"
};

Found Discover(const std::string& spec_path, int world_size) {
  absl::StatusOr<RecipeSet> recipes = RecipeSet::FromDir("op_specs/recipes");
  EXPECT_TRUE(recipes.ok());
  absl::StatusOr<LoadedSpec> spec =
      LoadedSpec::FromFile(spec_path, std::make_shared<const RecipeSet>(*std::move(recipes)));
  EXPECT_TRUE(spec.ok()) << spec.status();
  ValidateOptions options;
  options.world_size = world_size;
  absl::StatusOr<std::vector<SampleTruth>> truths = SpecTruth(*spec, options);
  EXPECT_TRUE(truths.ok()) << truths.status();
  absl::StatusOr<Synthesis> syn = Synthesize(spec->op(), *truths, world_size);
  EXPECT_TRUE(syn.ok()) << syn.status();
  Found f{*syn, {}};
  for (const SynthesizedRule& r : syn->rules) f.lines.push_back(r.placements + " | " + r.condition);

  // Re-check: the synthesised table validates with every rule correct.
  StrategyTable proto;
  TableOp* op = proto.add_op();
  op->set_name(spec->proto().op());
  for (const SynthesizedRule& r : syn->rules) {
    TableRule* rule = op->add_rule();
    rule->set_placements(r.placements);
    rule->set_condition(r.condition);
  }
  absl::StatusOr<StrategyTableFile> table = StrategyTableFile::FromProto(proto, "synthesised");
  EXPECT_TRUE(table.ok()) << table.status();
  const TableStrategy* t = table->ops()[0];
  absl::StatusOr<OpReport> check =
      ValidateClaims(*spec, TableClaims(table->Lookup(t->op())), t->proto().rule_size(), options);
  EXPECT_TRUE(check.ok()) << check.status();
  for (size_t r = 0; r < check->origins.size(); ++r) {
    EXPECT_EQ(check->origins[r].verdict, Verdict::kCorrect)
        << f.lines[r] << ": " << check->origins[r].evidence;
  }
  return f;
}

TEST(SynthesizeTest, SumOverDimLists) {
  for (int w : {3, 4}) {
    Found f = Discover("tables/specs/aten_sum_dim_IntList.textproto", w);
    EXPECT_THAT(f.lines, Contains("S(d) -> P(sum) | d in dim"));
    EXPECT_THAT(f.lines, Contains("S(d) -> S(d - count_lt(dim, d)) | !(d in dim) && !keepdim"));
    EXPECT_THAT(f.lines, Contains("P(sum) -> P(sum) | "));
    EXPECT_TRUE(f.synthesis.uncovered.empty());
  }
}

TEST(SynthesizeTest, GatherNeedsEqualSizesOffTheGatherDim) {
  Found f = Discover("tables/specs/aten_gather.textproto", 4);
  EXPECT_THAT(f.lines, Contains("R, S(dim) -> S(dim) | "));
  EXPECT_THAT(f.lines, Contains("S(d), S(d) -> S(d) | d != dim && size(self, d) == size(index, d)"));
  EXPECT_THAT(f.lines, Not(Contains("S(d), S(d) -> S(d) | d != dim")));
}

TEST(SynthesizeTest, ArgmaxShiftsDimsAboveTheReducedOne) {
  Found f = Discover("tables/specs/aten_argmax.textproto", 4);
  EXPECT_THAT(f.lines, Contains("S(d) -> S(d - (d > dim)) | d != dim && !keepdim"));
  EXPECT_THAT(f.lines, Not(Contains(::testing::HasSubstr("P(max)"))));
}

}  // namespace
}  // namespace shrt
