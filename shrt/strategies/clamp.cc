// Strategy for aten::clamp(self, min=None, max=None) with Scalar bounds:
// pointwise, and non-decreasing in self, so it commutes with max and min
// over ranks.
#include "shrt/registry.h"
#include "shrt/strategies/pointwise_rules.h"

namespace shrt {
namespace {

SHRT_REGISTER_STRATEGY("aten::clamp", [](const OpArgs& args) {
  return PointwiseRules(args, {"P(max) -> P(max)", "P(min) -> P(min)"});
});

}  // namespace
}  // namespace shrt
