// Strategies for comparison and logical overloads. Their outputs are bool,
// which has no Partial placement, and no Partial input survives a
// comparison (max_r (p_r < y) is not (max_r p_r < y) in general), so they
// have exactly the pointwise shard rules.
#include "shrt/registry.h"
#include "shrt/strategies/pointwise_rules.h"

namespace shrt {
namespace {

const std::vector<PointwiseOp>& ComparisonOps() {
  static const auto* ops = new std::vector<PointwiseOp>{
      {"aten::eq.Tensor", {}},    {"aten::ge.Tensor", {}},     {"aten::gt.Tensor", {}},
      {"aten::le.Tensor", {}},    {"aten::lt.Tensor", {}},     {"aten::ne.Tensor", {}},
      {"aten::logical_and", {}},  {"aten::logical_or", {}},    {"aten::logical_xor", {}},
      {"aten::logical_not", {}},
  };
  return *ops;
}

const bool kRegistered = RegisterPointwiseOps(ComparisonOps());

}  // namespace
}  // namespace shrt
