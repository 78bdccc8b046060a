#include "shrt/strategies/table.h"

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace shrt {
namespace {

using ::testing::HasSubstr;
using ::testing::UnorderedElementsAreArray;

TensorMeta Meta(std::vector<int64_t> sizes) {
  std::vector<int64_t> strides(sizes.size(), 1);
  return {sizes, strides, c10::ScalarType::Float};
}

std::vector<std::string> Rules(const StrategyTableFile& file, const OpArgs& args, int ws = 4) {
  absl::StatusOr<std::vector<TableInstance>> in = file.ops()[0]->Instantiate(args, ws);
  EXPECT_TRUE(in.ok()) << in.status();
  std::vector<std::string> out;
  for (const TableInstance& i : *in) out.push_back(RuleToString(i.rule));
  return out;
}

// aten::sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None)
OpArgs SumArgs(std::vector<int64_t> shape, ArgValue dim, bool keepdim, std::vector<int64_t> out) {
  return OpArgs({{"self", Meta(shape)}, {"dim", dim}, {"keepdim", keepdim}, {"dtype", std::monostate{}}},
                {Meta(shape)}, {Meta(out)});
}

absl::StatusOr<StrategyTableFile> Table(const std::string& body) {
  return StrategyTableFile::FromText(body, "t.textproto");
}

TEST(TableTest, FreeVariablesConditionsAndNormalisedDims) {
  absl::StatusOr<StrategyTableFile> t = Table(R"pb(
    op {
      name: "aten::sum.dim_IntList"
      rule { placements: "S(d) -> P(sum)" condition: "d in dim" }
      rule { placements: "S(d) -> S(d - count_lt(dim, d))" condition: "!(d in dim) && !keepdim" }
      rule { placements: "S(-1) -> R" condition: "ws > 3" }
    }
  )pb");
  ASSERT_TRUE(t.ok()) << t.status();
  // dim=[-1] on a 3-d tensor is dim 2.
  EXPECT_THAT(Rules(*t, SumArgs({4, 5, 6}, std::vector<int64_t>{-1}, false, {4, 5})),
              UnorderedElementsAreArray({"S(2) -> P(sum)", "S(0) -> S(0)", "S(1) -> S(1)", "S(2) -> R"}));
  EXPECT_THAT(Rules(*t, SumArgs({4, 5, 6}, std::vector<int64_t>{0, 2}, false, {5}), 2),
              UnorderedElementsAreArray({"S(0) -> P(sum)", "S(2) -> P(sum)", "S(1) -> S(0)"}));
}

TEST(TableTest, ConditionReadingNoneIsFalse) {
  absl::StatusOr<StrategyTableFile> t = Table(R"pb(
    op {
      name: "aten::sum.dim_IntList"
      rule { placements: "S(d) -> P(sum)" condition: "d in dim" }
      rule { placements: "S(d) -> P(sum)" condition: "!(d in dim)" }
      rule { placements: "P(sum) -> P(sum)" }
    }
  )pb");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_THAT(Rules(*t, SumArgs({4, 5}, std::monostate{}, false, {})),
              UnorderedElementsAreArray({"P(sum) -> P(sum)"}));
}

TEST(TableTest, ArgumentDimsAndArity) {
  absl::StatusOr<StrategyTableFile> t = Table(R"pb(
    op {
      name: "aten::gather"
      rule { placements: "R, S(dim) -> S(dim)" }
      rule { placements: "S(d), S(d) -> S(d)" condition: "d != dim && size(self, d) == size(index, d)" }
      rule { placements: "S(0) -> S(0)" }
    }
  )pb");
  ASSERT_TRUE(t.ok()) << t.status();
  OpArgs args({{"self", Meta({6, 5})}, {"dim", int64_t{-1}}, {"index", Meta({4, 5})},
               {"sparse_grad", false}},
              {Meta({6, 5}), Meta({4, 5})}, {Meta({4, 5})});
  // dim=-1 is dim 1; d=0 has sizes 6 vs 4; the 1-input rule never applies.
  EXPECT_THAT(Rules(*t, args), UnorderedElementsAreArray({"R, S(1) -> S(1)"}));
}

TEST(TableTest, ComparisonsAreNotAssignments) {
  absl::StatusOr<StrategyTableFile> t = Table(R"pb(
    op {
      name: "aten::gather"
      rule { placements: "S(d), S(d) -> S(d)" condition: "d != dim && d <= 1 && d >= 0 && d == d" }
    }
  )pb");
  EXPECT_TRUE(t.ok()) << t.status();
}

TEST(TableTest, ConditionNaNForASampleIsAnErrorNamingTheRule) {
  // size(index, 2) of a 2-d index is NaN: neither true nor false.
  absl::StatusOr<StrategyTableFile> t = Table(
      "op {\n name: \"aten::gather\"\n rule { placements: \"R, S(1) -> S(1)\" condition: \"size(index, 2)\" }\n}");
  ASSERT_TRUE(t.ok()) << t.status();
  OpArgs args({{"self", Meta({6, 5})}, {"dim", int64_t{0}}, {"index", Meta({4, 5})},
               {"sparse_grad", false}},
              {Meta({6, 5}), Meta({4, 5})}, {Meta({4, 5})});
  absl::StatusOr<std::vector<TableInstance>> in = t->ops()[0]->Instantiate(args, 4);
  ASSERT_FALSE(in.ok());
  EXPECT_EQ(in.status().message(),
            "t.textproto:3: field 'op[0].rule[0].condition': 'size(index, 2)' is NaN here, "
            "neither true nor false");
}

TEST(TableTest, ErrorsNameFileLineFieldAndToken) {
  struct Case {
    const char* body;
    const char* message;
  };
  for (const Case& c : {
           Case{"op {\n name: \"aten::gather\"\n rule { placements: \"S(d) -> S(d)\" condition: \"d != dimm\" }\n}",
                "t.textproto:3: field 'op[0].rule[0].condition': 'd != dimm': Unexpected token"},
           Case{"op {\n name: \"aten::gather\"\n rule { placements: \"S(d) -> S(d)\" condition: \"d != dimm\" }\n}",
                "token 'dimm'"},
           Case{"op {\n name: \"aten::gather\"\n rule { placements: \"R, S(dim) -> S(e)\" condition: \"f == 1\" }\n}",
                "token 'f'"},
           Case{"op {\n name: \"aten::gathr\"\n}", "t.textproto:2: field 'op[0].name'"},
           Case{"op {\n name: \"aten::gather\"\n rule { placements: \"R, Q -> R\" }\n}",
                "field 'op[0].rule[0].placements': bad placement 'Q'"},
           Case{"op {\n name: \"aten::gather\"\n rule { placements: \"R, R\" }\n}", "missing '->'"},
           Case{"op {\n name: \"aten::gather\"\n rule { placments: \"R\" }\n}", "t.textproto:3:"},
           Case{"op { name: \"aten::gather\" }\nop { name: \"aten::gather.default\" }", "listed twice"},
           // Issue 14: an assignment or a NaN read as true.
           Case{"op {\n name: \"aten::gather\"\n rule { placements: \"R, R -> R\" condition: \"ws = 3\" }\n}",
                "t.textproto:3: field 'op[0].rule[0].condition': 'ws = 3': '=' at offset 3 assigns; "
                "compare with '=='"},
           Case{"op {\n name: \"aten::gather\"\n rule { placements: \"S(d) -> S(d)\" condition: \"d += 1\" }\n}",
                "'+=' at offset 2 assigns"},
           Case{"op {\n name: \"aten::gather\"\n rule { placements: \"S(0) -> S(0)\" condition: \"0/0\" }\n}",
                "t.textproto:3: field 'op[0].rule[0].condition': '0/0' is NaN, neither true nor false"},
       }) {
    absl::StatusOr<StrategyTableFile> t = Table(c.body);
    ASSERT_FALSE(t.ok()) << c.body;
    EXPECT_THAT(std::string(t.status().message()), HasSubstr(c.message)) << c.body;
  }
}

// Found by //shrt/fuzz:table_fuzz (corpus regression_nan_dim_set): `in`
// and count_lt() converted a dim set that is not one (size() of a missing
// dim is NaN) to an integer, and ndim()/size() a handle before checking it,
// which is undefined behaviour (the --config=asan run of this test stops
// there). A non-set is the empty set; a non-handle is an error.
TEST(TableTest, ValuesThatAreNoDimSetOrTensorAreNeverConverted) {
  absl::StatusOr<StrategyTableFile> t = Table(R"pb(
    op {
      name: "aten::sum.dim_IntList"
      rule { placements: "S(d) -> P(sum)" condition: "d in size(self, 7)" }
      rule { placements: "S(d) -> P(avg)" condition: "count_lt(-1, 2) == 0 && !(d in 1e300) && !(0/0 in dim)" }
      rule { placements: "S(d) -> S(d)" condition: "d in dim" }
    }
  )pb");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_THAT(Rules(*t, SumArgs({4, 5}, std::vector<int64_t>{1}, true, {4, 1})),
              UnorderedElementsAreArray({"S(0) -> P(avg)", "S(1) -> P(avg)", "S(1) -> S(1)"}));
  for (const char* handle : {"-1", "0/0", "1e300"}) {
    absl::StatusOr<StrategyTableFile> bad = Table(absl::StrCat(
        "op { name: \"aten::sum.dim_IntList\" rule { placements: \"S(d) -> S(d)\" condition: \"ndim(", handle,
        ") == 2 || size(", handle, ", 0) == 4\" } }"));
    ASSERT_TRUE(bad.ok()) << bad.status();
    EXPECT_THAT(std::string(bad->ops()[0]->Instantiate(SumArgs({4, 5}, std::vector<int64_t>{1}, true, {4, 1}), 4)
                                .status()
                                .message()),
                HasSubstr("takes a tensor argument"))
        << handle;
  }
}

// A table listing a functional overload claims its in-place and out=
// variants too (variant_rules.h), unless it lists them itself.
TEST(TableTest, VariantsInheritTheFunctionalsEntry) {
  absl::StatusOr<StrategyTableFile> t = Table(R"pb(
    op {
      name: "aten::mm"
      rule { placements: "S(0), R -> S(0)" }
    }
    op {
      name: "aten::add.Tensor"
      rule { placements: "S(0), S(0) -> S(0)" }
    }
    op {
      name: "aten::add.out"
      rule { placements: "S(1), S(1) -> S(1)" }
    }
  )pb");
  ASSERT_TRUE(t.ok()) << t.status();
  auto op = [](const char* name, const char* overload) { return c10::OperatorName(name, overload); };
  const TableEntry mm_out = t->Lookup(op("aten::mm", "out"));
  ASSERT_NE(mm_out.strategy, nullptr);
  EXPECT_EQ(mm_out.strategy, t->Find(op("aten::mm", "")));
  EXPECT_FALSE(mm_out.inplace);
  const TableEntry add_ = t->Lookup(op("aten::add_", "Tensor"));
  EXPECT_EQ(add_.strategy, t->Find(op("aten::add", "Tensor")));
  EXPECT_TRUE(add_.inplace);
  // Listed itself: its own entry, not the functional's.
  EXPECT_EQ(t->Lookup(op("aten::add", "out")).strategy, t->Find(op("aten::add", "out")));
  // Neither listed nor a variant of a listed overload.
  EXPECT_EQ(t->Lookup(op("aten::sub", "Tensor")).strategy, nullptr);
  EXPECT_EQ(t->Lookup(op("aten::bmm", "out")).strategy, nullptr);
}

}  // namespace
}  // namespace shrt
