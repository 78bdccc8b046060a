// An example custom operator, registered with TORCH_LIBRARY exactly as a
// downstream project would, together with its single-dim strategy:
//
//   shrt_example::scaled_add(Tensor self, Tensor other, float scale=1.0)
//       -> self + scale * other  (with broadcasting)
//
// Its generated test, //testing/custom_op:shrt_example_scaled_add, comes
// from the same shrt_op_tests macro as every aten overload's.
#include "ATen/core/Tensor.h"  // methods only: shrt/spec/aten_functions.h
#include "shrt/strategies/pointwise_rules.h"
#include "shrt/strategies/registry.h"
#include "torch/library.h"

namespace shrt_example {
namespace {

at::Tensor ScaledAdd(const at::Tensor& self, const at::Tensor& other, double scale) {
  return self.add(other, scale);
}

TORCH_LIBRARY(shrt_example, m) {
  m.def("scaled_add(Tensor self, Tensor other, float scale=1.0) -> Tensor");
}

TORCH_LIBRARY_IMPL(shrt_example, CPU, m) { m.impl("scaled_add", &ScaledAdd); }

// self + scale * other is linear in both inputs, increasing in self, and
// increasing or decreasing in other by the sign of scale.
absl::StatusOr<std::vector<shrt::Rule>> ScaledAddStrategy(const shrt::OpArgs& args) {
  std::vector<absl::string_view> partial = {"P(sum), P(sum) -> P(sum)", "P(avg), P(avg) -> P(avg)",
                                            "P(avg), R -> P(avg)", "P(max), R -> P(max)",
                                            "P(min), R -> P(min)"};
  const double scale = args.GetDouble("scale").value_or(1.0);
  if (scale > 0) partial.insert(partial.end(), {"R, P(max) -> P(max)", "R, P(min) -> P(min)"});
  if (scale < 0) partial.insert(partial.end(), {"R, P(max) -> P(min)", "R, P(min) -> P(max)"});
  if (scale != 0) partial.push_back("R, P(avg) -> P(avg)");
  return shrt::PointwiseRules(args, partial);
}

SHRT_REGISTER_STRATEGY("shrt_example::scaled_add", ScaledAddStrategy);

}  // namespace
}  // namespace shrt_example
