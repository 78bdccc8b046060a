// The factorization of list ops (list_elements.h) proven on small lists:
// for one overload of every foreach family (unary, binary with a list or a
// Scalar, a shared Tensor, ternary, a reduction, in-place), the
// findings composed from the list elements equal those of the product over
// elements, rule by rule; and ops whose output k is not element k's alone
// are judged whole, with the reason.
#include "shrt/engine/list_elements.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shrt/engine/test_recipes.h"
#include "shrt/ops/candidates.h"

namespace shrt {
namespace {

using ::testing::HasSubstr;

LoadedSpec Load(const std::string& text) {
  absl::StatusOr<LoadedSpec> spec = LoadedSpec::FromText(text, "test.textproto", TestRecipes());
  EXPECT_TRUE(spec.ok()) << spec.status();
  return *std::move(spec);
}

std::vector<SampleTruth> Truths(const LoadedSpec& spec, bool split, int world_size) {
  TruthOptions options;
  options.world_size = world_size;
  options.split_list_elements = split;
  absl::StatusOr<std::vector<SampleTruth>> truths = SpecTruth(spec, options);
  EXPECT_TRUE(truths.ok()) << truths.status();
  return truths.ok() ? *std::move(truths) : std::vector<SampleTruth>{};
}

std::vector<std::string> Texts(const std::vector<Rule>& rules) {
  std::vector<std::string> out;
  for (const Rule& r : rules) out.push_back(RuleToString(r));
  return out;
}

// Every rule of the sample's rule space: input tuple t (every one when
// `stride` is 1) with every output tuple.
std::vector<Rule> RuleSpace(const SampleTruth& whole, int64_t stride) {
  std::vector<std::vector<Placement>> in, out;
  for (const TensorMeta& m : whole.args().inputs()) {
    in.push_back(CandidatePlacements(m.ndim(), m.dtype));
  }
  for (const TensorMeta& m : whole.args().outputs()) {
    out.push_back(CandidatePlacements(m.ndim(), m.dtype));
  }
  const TupleSpace ins(in), outs(out);
  std::vector<Rule> rules;
  for (int64_t t = 0; t < ins.size(); t += stride) {
    for (int64_t o = 0; o < outs.size(); ++o) rules.push_back({ins.Placements(t), outs.Placements(o)});
  }
  return rules;
}

struct Family {
  const char* name;
  const char* spec;
  int64_t stride;  // of the input tuples whose every rule is compared
};

class FactorizationTest : public ::testing::TestWithParam<Family> {};

TEST_P(FactorizationTest, ComposedFindingsEqualTheProductsRuleByRule) {
  const LoadedSpec spec = Load(GetParam().spec);
  const std::vector<SampleTruth> split = Truths(spec, true, 2);
  const std::vector<SampleTruth> whole = Truths(spec, false, 2);
  ASSERT_EQ(split.size(), whole.size());
  for (size_t s = 0; s < split.size(); ++s) {
    SCOPED_TRACE(split[s].name());
    ASSERT_EQ(split[s].elements().size(), 2u) << split[s].not_split();
    ASSERT_TRUE(whole[s].elements().empty());
    EXPECT_LT(split[s].combination_checks(), whole[s].combination_checks());
    EXPECT_EQ(Texts(split[s].Holds()), Texts(whole[s].Holds()));
    EXPECT_EQ(Texts(split[s].Valid()), Texts(whole[s].Valid()));
    std::vector<Rule> rules = RuleSpace(whole[s], GetParam().stride);
    for (const Rule& r : whole[s].Holds()) rules.push_back(r);
    int refuted = 0;
    for (const Rule& r : rules) {
      const Finding f = split[s].Test(r);
      ASSERT_EQ(f, whole[s].Test(r)) << RuleToString(r);
      refuted += f == Finding::kRefuted;
    }
    // The space holds refuted rules too: the comparison can fail both ways.
    EXPECT_GT(refuted, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Foreach, FactorizationTest,
    ::testing::Values(
        Family{"unary", R"pb(
          op: "aten::_foreach_abs"
          sample { name: "s" arg { name: "self" tensors { tensor { shape: [3] } tensor { shape: [] } } } }
        )pb", 1},
        Family{"unary_inplace", R"pb(
          op: "aten::_foreach_neg_"
          sample { name: "s" arg { name: "self" tensors { tensor { shape: [3] } tensor { shape: [2, 1] } } } }
        )pb", 1},
        Family{"binary_list", R"pb(
          op: "aten::_foreach_add.List"
          sample {
            name: "s"
            arg { name: "self" tensors { tensor { shape: [3] } tensor { shape: [] } } }
            arg { name: "other" tensors { tensor { shape: [3] } tensor { shape: [] } } }
            arg { name: "alpha" float_value: -1.5 }
          }
        )pb", 1},
        Family{"binary_list_max", R"pb(
          op: "aten::_foreach_maximum.List"
          sample {
            name: "s"
            arg { name: "self" tensors { tensor { shape: [3] } tensor { shape: [2] } } }
            arg { name: "other" tensors { tensor { shape: [3] } tensor { shape: [] } } }
          }
        )pb", 1},
        Family{"binary_scalar", R"pb(
          op: "aten::_foreach_mul.Scalar"
          sample {
            name: "s"
            arg { name: "self" tensors { tensor { shape: [3, 2] } tensor { shape: [] } } }
            arg { name: "scalar" float_value: 2.5 }
          }
        )pb", 1},
        Family{"binary_shared_tensor", R"pb(
          op: "aten::_foreach_add.Tensor"
          sample {
            name: "s"
            arg { name: "self" tensors { tensor { shape: [3] } tensor { shape: [2, 3] } } }
            arg { name: "other" tensor { shape: [] } }
          }
        )pb", 1},
        Family{"ternary", R"pb(
          op: "aten::_foreach_addcmul.Scalar"
          sample {
            name: "s"
            arg { name: "self" tensors { tensor { shape: [2] } tensor { shape: [] } } }
            arg { name: "tensor1" tensors { tensor { shape: [2] } tensor { shape: [] } } }
            arg { name: "tensor2" tensors { tensor { shape: [] } tensor { shape: [] dtype: BOOL } } }
            arg { name: "value" float_value: 0.5 }
          }
        )pb", 7},
        Family{"reduction", R"pb(
          op: "aten::_foreach_norm.Scalar"
          sample { name: "s" arg { name: "self" tensors { tensor { shape: [4] } tensor { shape: [2, 3] } } } }
        )pb", 1}),
    [](const ::testing::TestParamInfo<Family>& info) { return std::string(info.param.name); });

// Ops whose outputs are not one per list element (cat: no note), or whose
// element alone is another call (a note says why), are judged whole.
TEST(ListElementsTest, OtherListOpsAreJudgedWhole) {
  struct Case {
    const char* spec;
    const char* why;
  };
  for (const Case& c : {
           Case{R"pb(
             op: "aten::cat"
             sample { name: "s" arg { name: "tensors" tensors { tensor { shape: [2] } tensor { shape: [3] } } } }
           )pb",
                ""},
           // Output k is tensor k broadcast to every tensor's shape.
           Case{R"pb(
             op: "aten::broadcast_tensors"
             sample { name: "s" arg { name: "tensors" tensors { tensor { shape: [2, 1] } tensor { shape: [3] } } } }
           )pb",
                "output 0 of list element 0 called alone differs from the whole call's output 0"},
       }) {
    const LoadedSpec spec = Load(c.spec);
    absl::StatusOr<std::vector<BoundSample>> bound = BoundSample::BindAll(spec, 0);
    ASSERT_TRUE(bound.ok()) << bound.status();
    absl::StatusOr<ElementSplit> split = SplitListElements(spec, 0, bound->front(), TruthOptions{});
    ASSERT_TRUE(split.ok()) << split.status();
    EXPECT_TRUE(split->elements.empty());
    if (*c.why == '\0') {
      EXPECT_EQ(split->not_split, "");
    } else {
      EXPECT_THAT(split->not_split, HasSubstr(c.why));
    }
  }
}

TEST(ListElementsTest, ElementsKeepTheWholeSamplesLabelsAndSeeds) {
  const LoadedSpec spec = Load(R"pb(
    op: "aten::_foreach_add.Tensor"
    sample {
      name: "s"
      arg { name: "self" tensors { tensor { shape: [3] } tensor { shape: [2, 3] } } }
      arg { name: "other" tensor { shape: [] } }
    }
  )pb");
  absl::StatusOr<std::vector<BoundSample>> bound = BoundSample::BindAll(spec, 0);
  ASSERT_TRUE(bound.ok()) << bound.status();
  absl::StatusOr<std::vector<ListElement>> elements = bound->front().ListElements(spec, 0);
  ASSERT_TRUE(elements.ok()) << elements.status();
  ASSERT_EQ(elements->size(), 2u);
  const BoundSample& second = *(*elements)[1].sample;
  EXPECT_EQ(second.name(), "s (list element 1)");
  ASSERT_EQ(second.inputs().size(), 2u);
  EXPECT_EQ(second.inputs()[0].label, "self[1]");
  EXPECT_EQ(second.inputs()[0].seed_index, 1);
  EXPECT_EQ(second.inputs()[1].label, "other");
  EXPECT_EQ(second.inputs()[1].seed_index, 2);
  EXPECT_EQ((*elements)[1].inputs, (std::vector<int>{1, 2}));
}

}  // namespace
}  // namespace shrt
