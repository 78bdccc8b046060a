// Strategy for aten::clamp(self, min=None, max=None) with Scalar bounds:
// pointwise, and non-decreasing in self, so it commutes with max and min
// over ranks. The registry derives clamp_ and clamp.out from it.
#include "shrt/strategies/pointwise_rules.h"

namespace shrt {
namespace {

const bool kRegistered = RegisterPointwiseOps({{"aten::clamp", IncreasingRules()}});

}  // namespace
}  // namespace shrt
