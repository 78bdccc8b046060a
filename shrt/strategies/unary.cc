// Strategies for unary pointwise overloads: every shard rule, plus the
// Partial rules each op's algebra justifies:
//   linear f (neg):                 P(sum) -> P(sum), P(avg) -> P(avg)
//   non-decreasing f (relu, exp):   P(max) -> P(max), P(min) -> P(min)
//   non-increasing f (neg, erfc):   P(max) -> P(min), P(min) -> P(max)
//   multiplicative f (abs, sign, reciprocal): P(product) -> P(product)
// Functions defined on a half-line (sqrt, log, log1p, rsqrt) keep only the
// P(min) rule of their monotonicity: P(min) parts are >= x, so they stay in
// the domain, while P(max) and P(sum) parts leave it.
#include <vector>

#include "absl/strings/string_view.h"
#include "shrt/registry.h"
#include "shrt/strategies/pointwise_rules.h"

namespace shrt {
namespace {

using Rules = std::vector<absl::string_view>;

const Rules kLinear = {"P(sum) -> P(sum)", "P(avg) -> P(avg)"};
const Rules kIncreasing = {"P(max) -> P(max)", "P(min) -> P(min)"};
const Rules kDecreasing = {"P(max) -> P(min)", "P(min) -> P(max)"};
const Rules kMultiplicative = {"P(product) -> P(product)"};
const Rules kIncreasingFromBelow = {"P(min) -> P(min)"};
const Rules kDecreasingFromBelow = {"P(min) -> P(max)"};
const Rules kNone = {};

Rules Concat(std::initializer_list<const Rules*> parts) {
  Rules out;
  for (const Rules* p : parts) out.insert(out.end(), p->begin(), p->end());
  return out;
}

const std::vector<PointwiseOp>& UnaryOps() {
  static const auto* ops = new std::vector<PointwiseOp>{
      {"aten::abs", kMultiplicative, false},
      {"aten::abs_", kMultiplicative, true},
      {"aten::ceil", kIncreasing, false},
      {"aten::cos", kNone, false},
      {"aten::erf", kIncreasing, false},
      {"aten::erfc", kDecreasing, false},
      {"aten::exp", kIncreasing, false},
      {"aten::exp.out", kIncreasing, false},
      {"aten::expm1", kIncreasing, false},
      {"aten::floor", kIncreasing, false},
      {"aten::log", kIncreasingFromBelow, false},
      {"aten::log1p", kIncreasingFromBelow, false},
      {"aten::neg", Concat({&kLinear, &kDecreasing}), false},
      {"aten::neg_", Concat({&kLinear, &kDecreasing}), true},
      {"aten::reciprocal", kMultiplicative, false},
      {"aten::relu", kIncreasing, false},
      {"aten::relu_", kIncreasing, true},
      {"aten::rsqrt", kDecreasingFromBelow, false},
      {"aten::sigmoid", kIncreasing, false},
      {"aten::sign", Concat({&kIncreasing, &kMultiplicative}), false},
      {"aten::sin", kNone, false},
      {"aten::sqrt", kIncreasingFromBelow, false},
      {"aten::tanh", kIncreasing, false},
      {"aten::trunc", kIncreasing, false},
  };
  return *ops;
}

const bool kRegistered = RegisterPointwiseOps(UnaryOps());

}  // namespace
}  // namespace shrt
