// A custom-op library as a custom-op author builds it outside ShRT's Bazel
// graph (plain g++, CMake or torch.utils.cpp_extension), against the
// installed libtorch and ShRT's public header shrt/plugin.h only:
//
//   shrt_plugin_demo::scaled_mul(Tensor self, Tensor other, float scale=1.0)
//       -> self * other * scale, for inputs of one shape.
//
// Its strategy claims one deliberately wrong rule, P(sum), P(sum) ->
// P(sum): a product of sums is not the sum of the products.
// testing/plugin/load_test.sh builds it with g++, loads it with
// `shrt validate --load` and expects exactly that rule to be incorrect.
#include <string>
#include <vector>

#include "ATen/ATen.h"
#include "shrt/plugin.h"
#include "torch/library.h"

namespace {

at::Tensor ScaledMul(const at::Tensor& self, const at::Tensor& other, double scale) {
  return at::mul(at::mul(self, other), scale);
}

TORCH_LIBRARY(shrt_plugin_demo, m) {
  m.def("scaled_mul(Tensor self, Tensor other, float scale=1.0) -> Tensor");
}

TORCH_LIBRARY_IMPL(shrt_plugin_demo, CPU, m) { m.impl("scaled_mul", &ScaledMul); }

// Bilinear: a Partial input times a Replicate one stays Partial (sum and
// avg); both sharded alike along any dim.
std::vector<std::string> ScaledMulStrategy(const shrt::plugin::Args& args) {
  using shrt::plugin::P;
  using shrt::plugin::R;
  using shrt::plugin::Rule;
  using shrt::plugin::S;
  std::vector<std::string> rules = {
      Rule({P(), R()}, {P()}),           Rule({R(), P()}, {P()}), Rule({P("avg"), R()}, {P("avg")}),
      Rule({R(), P("avg")}, {P("avg")}), Rule({P(), P()}, {P()}),  // wrong on purpose
  };
  for (int64_t d = 0; d < args.input_ndim(0); ++d) rules.push_back(Rule({S(d), S(d)}, {S(d)}));
  return rules;
}

SHRT_PLUGIN_STRATEGY("shrt_plugin_demo::scaled_mul", ScaledMulStrategy);

}  // namespace
