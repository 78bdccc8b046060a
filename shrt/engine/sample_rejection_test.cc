// Which samples an overload is judged on: a sample the operator rejects
// on full inputs is a spec error; one its in-place or out= variant rejects
// is a note, and an error of the report only when the variant rejects
// every sample it ran (validate.h ValidateOp, op_report.h
// RejectsEverySample).
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shrt/engine/test_recipes.h"
#include "shrt/engine/validate.h"

namespace shrt {
namespace {

using ::testing::HasSubstr;

// An in-place overload that rejects every sample it runs is a spec error,
// unless a sample was skipped (ValidateOptions::skip): that one may be
// one it accepts.
TEST(SampleRejectionTest, RejectingEverySampleRunIsAnErrorUnlessOneWasSkipped) {
  const std::string rejected = R"pb(
    op: "aten::add.Tensor"
    sample {
      name: "broadcast_self"
      arg { name: "self" tensor { shape: [1, 4] } }
      arg { name: "other" tensor { shape: [5, 4] } }
    }
  )pb";
  const std::string accepted = R"pb(
    sample {
      name: "same_shape"
      arg { name: "self" tensor { shape: [5, 4] } }
      arg { name: "other" tensor { shape: [5, 4] } }
    }
  )pb";
  ValidateOptions options;
  options.world_size = 4;
  const c10::OperatorName in_place("aten::add_", "Tensor");
  absl::StatusOr<LoadedSpec> alone = LoadedSpec::FromText(rejected, "add_.textproto", TestRecipes());
  ASSERT_TRUE(alone.ok()) << alone.status();
  alone = alone->ForOverload(in_place);
  ASSERT_TRUE(alone.ok()) << alone.status();
  absl::StatusOr<OpReport> r = ValidateOp(*alone, ClaimRules({}), options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(r->error, HasSubstr("rejects every sample of add_.textproto"));

  absl::StatusOr<LoadedSpec> both =
      LoadedSpec::FromText(rejected + accepted, "add_.textproto", TestRecipes());
  ASSERT_TRUE(both.ok()) << both.status();
  both = both->ForOverload(in_place);
  ASSERT_TRUE(both.ok()) << both.status();
  options.skip = {{"same_shape", "not asked"}};
  r = ValidateOp(*both, ClaimRules({}), options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->rejected_samples, 1);
  EXPECT_EQ(r->error, "");
}

TEST(SampleRejectionTest, SampleRejectedOnFullTensorsIsASpecError) {
  absl::StatusOr<LoadedSpec> spec = LoadedSpec::FromText(R"pb(
    op: "aten::mm"
    sample {
      name: "bad"
      arg { name: "self" tensor { shape: [2, 3] } }
      arg { name: "mat2" tensor { shape: [2, 3] } }
    }
  )pb", "bad.textproto", TestRecipes());
  ASSERT_TRUE(spec.ok());
  absl::StatusOr<OpReport> r = ValidateOp(
      *spec, [](const OpArgs&) { return absl::StatusOr<std::vector<Rule>>(std::vector<Rule>{}); },
      {});
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("bad.textproto:3"));
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("rejects the full inputs"));
}

}  // namespace
}  // namespace shrt
