#include "shrt/engine/scalar_regimes.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shrt/engine/test_recipes.h"

namespace shrt {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// The gaps of the spec `text`, each as "arg[, arg]: seen".
std::vector<std::string> Gaps(const std::string& text) {
  absl::StatusOr<LoadedSpec> spec = LoadedSpec::FromText(text, "test.textproto", TestRecipes());
  EXPECT_TRUE(spec.ok()) << spec.status();
  if (!spec.ok()) return {};
  absl::StatusOr<std::vector<ScalarRegimeGap>> gaps = ScalarRegimeGaps(*spec);
  EXPECT_TRUE(gaps.ok()) << gaps.status();
  std::vector<std::string> out;
  for (const ScalarRegimeGap& g : *gaps) {
    std::string args;
    for (const std::string& a : g.args) args += (args.empty() ? "" : ", ") + a;
    out.push_back(args + ": " + g.seen);
  }
  return out;
}

// clamp's bounds given with one sign each, and in one order, are three
// gaps; a sample that crosses them closes all three.
TEST(ScalarRegimesTest, BoundsOfOneSignAndOneOrder) {
  const std::string base = R"pb(op: "aten::clamp"
                                sample {
                                  name: "a"
                                  arg { name: "self" tensor { shape: [ 4 ] } }
                                  arg { name: "min" float_value: -0.5 }
                                  arg { name: "max" float_value: 0.5 }
                                }
                                sample {
                                  name: "b"
                                  arg { name: "self" tensor { shape: [ 4 ] } }
                                  arg { name: "min" none: true }
                                  arg { name: "max" float_value: 2 }
                                })pb";
  EXPECT_THAT(Gaps(base), ElementsAre("min: every value < 0 (-0.5)", "max: every value > 0 (0.5, 2)",
                                      "min, max: min < max in every sample that gives both"));
  EXPECT_THAT(Gaps(base + R"pb(sample {
                                 name: "crossed"
                                 arg { name: "self" tensor { shape: [ 4 ] } }
                                 arg { name: "min" float_value: 0.5 }
                                 sweep { name: "max" float_values: [ -0.5, inf ] }
                               })pb"),
              IsEmpty());
}

// An omitted argument takes its schema default (add's alpha = 1); a sweep
// counts each of its values; a bool needs both values.
TEST(ScalarRegimesTest, DefaultsSweepsAndBools) {
  EXPECT_THAT(Gaps(R"pb(op: "aten::add.Tensor"
                        sample {
                          name: "a"
                          arg { name: "self" tensor { shape: [ 4 ] } }
                          arg { name: "other" tensor { shape: [ 4 ] } }
                        })pb"),
              ElementsAre("alpha: every value > 0 (1)"));
  EXPECT_THAT(Gaps(R"pb(op: "aten::add.Tensor"
                        sample {
                          name: "a"
                          arg { name: "self" tensor { shape: [ 4 ] } }
                          arg { name: "other" tensor { shape: [ 4 ] } }
                          sweep { name: "alpha" int_values: [ 0, 2 ] }
                        })pb"),
              IsEmpty());
  EXPECT_THAT(Gaps(R"pb(op: "aten::sum.dim_IntList"
                        sample {
                          name: "a"
                          arg { name: "self" tensor { shape: [ 4, 3 ] } }
                          arg { name: "dim" int_list { value: [ 0 ] } }
                        })pb"),
              ElementsAre("keepdim: always false (0)"));
}

}  // namespace
}  // namespace shrt
