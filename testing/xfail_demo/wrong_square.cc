// A strategy for aten::square with one wrong rule, P(sum) -> P(sum)
// (square is not linear), registered globally for the xfail demo tests
// only: its xfail keeps //testing/xfail_demo:aten_square green, and the
// stale and expired xfails of //testing/xfail_demo/stale fail it.
#include "shrt/strategies/pointwise_rules.h"
#include "shrt/strategies/registry.h"

namespace shrt {
namespace {

SHRT_REGISTER_STRATEGY("aten::square", [](const OpArgs& args) {
  return PointwiseRules(args, {"P(product) -> P(product)", "P(sum) -> P(sum)"});
});

}  // namespace
}  // namespace shrt
