// Pins the verdict of every rule of the checked-in strategy tables on their
// specs (tables/specs/, or op_specs/ for overloads with registered
// strategies), at W = 4 and W = 3.
#include <map>

#include "gtest/gtest.h"
#include "shrt/engine/spec_tree.h"
#include "shrt/engine/validate.h"
#include "shrt/ops/overload_name.h"
#include "shrt/report/table_claims.h"

namespace shrt {
namespace {

// Table file -> overload -> the verdict of each rule, in table order.
const std::map<std::string, std::map<std::string, std::vector<Verdict>>>& Expected() {
  constexpr Verdict C = Verdict::kCorrect, I = Verdict::kIncorrect, U = Verdict::kUnverified;
  static const auto* expected = new std::map<std::string, std::map<std::string, std::vector<Verdict>>>{
      {"tables/pointwise.textproto",
       {{"aten::mul.Tensor", {C, C, C, C, C, C}},
        {"aten::add.Tensor", {C, C, C, C, C}},
        {"aten::relu", {C, C, C}},
        {"aten::neg", {C, C, C, I}},
        {"aten::where.self", {C, C, C}}}},
      {"tables/reductions.textproto",
       {{"aten::sum.dim_IntList", {C, C, C, C, C}},
        {"aten::mean.dim", {C, C, C, I}},
        {"aten::argmax", {C, C, I}},
        {"aten::mm", {C, C, C, C, C}},
        {"aten::gather", {C, C, I}},
        {"aten::index_select", {C, C, C}},
        {"aten::cat", {C, C, U}}}},
  };
  return *expected;
}

class TablesTest : public ::testing::TestWithParam<int> {};

TEST_P(TablesTest, EveryRuleHasItsPinnedVerdict) {
  absl::StatusOr<std::vector<LoadedSpec>> op_specs = LoadSpecTree("op_specs", "op_specs/recipes");
  ASSERT_TRUE(op_specs.ok()) << op_specs.status();
  absl::StatusOr<std::vector<LoadedSpec>> table_specs = LoadSpecTree("tables/specs", "op_specs/recipes");
  ASSERT_TRUE(table_specs.ok()) << table_specs.status();
  std::map<std::string, const LoadedSpec*> spec_of;
  for (const auto* specs : {&*op_specs, &*table_specs}) {
    for (const LoadedSpec& s : *specs) spec_of[OverloadToString(s.op())] = &s;
  }
  int overloads = 0;
  for (const auto& [path, ops] : Expected()) {
    absl::StatusOr<StrategyTableFile> table = StrategyTableFile::FromFile(path);
    ASSERT_TRUE(table.ok()) << table.status();
    ASSERT_EQ(table->ops().size(), ops.size()) << path << ": pin every overload";
    for (const TableStrategy* t : table->ops()) {
      const std::string op = OverloadToString(t->op());
      SCOPED_TRACE(absl::StrCat(path, " ", op, " W=", GetParam()));
      ASSERT_TRUE(ops.count(op)) << "not pinned";
      ASSERT_TRUE(spec_of.count(op)) << "no spec";
      ValidateOptions options;
      options.world_size = GetParam();
      absl::StatusOr<OpReport> report = ValidateClaims(
          *spec_of[op], TableClaims(table->Lookup(t->op())), t->proto().rule_size(), options);
      ASSERT_TRUE(report.ok()) << report.status();
      const std::vector<Verdict>& want = ops.at(op);
      ASSERT_EQ(report->origins.size(), want.size());
      for (size_t r = 0; r < want.size(); ++r) {
        EXPECT_EQ(VerdictName(report->origins[r].verdict), VerdictName(want[r]))
            << "rule '" << t->proto().rule(r).placements() << "': " << report->origins[r].evidence;
      }
      ++overloads;
    }
  }
  EXPECT_GE(overloads, 10);
}

INSTANTIATE_TEST_SUITE_P(WorldSizes, TablesTest, ::testing::Values(4, 3),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return "W" + std::to_string(info.param);
                         });

}  // namespace
}  // namespace shrt
