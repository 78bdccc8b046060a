// Strategies for binary pointwise overloads (with broadcasting): every
// shard rule, plus the Partial rules each op's algebra justifies.
//
// add/sub compute self + c * other (c = alpha, or -alpha for sub):
//   linear in both:            P(sum), P(sum) -> P(sum), P(avg), P(avg) -> P(avg)
//   affine in each:            P(avg), R -> P(avg), R, P(avg) -> P(avg)
//                              (the mean over ranks of p_r + c * y is x + c * y)
//   increasing in self:        P(max), R -> P(max), P(min), R -> P(min)
//   monotone in other, by the sign of c: R, P(max) -> P(max) (c > 0) or
//                              P(min) (c < 0), and the mirror for P(min).
// mul is bilinear and multiplicative; div is linear in self and
// multiplicative; maximum/minimum commute with max/min over ranks;
// logaddexp is increasing in both arguments.
#include <vector>

#include "absl/strings/string_view.h"
#include "shrt/registry.h"
#include "shrt/strategies/pointwise_rules.h"

namespace shrt {
namespace {

using Rules = std::vector<absl::string_view>;

const Rules kAffineSelf = {"P(sum), P(sum) -> P(sum)", "P(avg), P(avg) -> P(avg)",
                           "P(avg), R -> P(avg)", "P(max), R -> P(max)", "P(min), R -> P(min)"};
const Rules kOtherIncreasing = {"R, P(max) -> P(max)", "R, P(min) -> P(min)"};
const Rules kOtherDecreasing = {"R, P(max) -> P(min)", "R, P(min) -> P(max)"};

// The Partial rules of self + c * other.
Rules AffineRules(double c) {
  Rules out = kAffineSelf;
  const Rules& other = c > 0 ? kOtherIncreasing : kOtherDecreasing;
  if (c != 0) {
    out.push_back("R, P(avg) -> P(avg)");
    out.insert(out.end(), other.begin(), other.end());
  }
  return out;
}

struct AffineOp {
  const char* overload;
  double sign;  // +1 for add, -1 for sub
  bool in_place;
};

constexpr AffineOp kAffineOps[] = {
    {"aten::add.Tensor", 1, false}, {"aten::add_.Tensor", 1, true}, {"aten::add.out", 1, false},
    {"aten::sub.Tensor", -1, false}, {"aten::sub_.Tensor", -1, true},
};

const Rules kMul = {"P(sum), R -> P(sum)", "R, P(sum) -> P(sum)", "P(avg), R -> P(avg)",
                    "R, P(avg) -> P(avg)", "P(product), P(product) -> P(product)"};
const Rules kDiv = {"P(sum), R -> P(sum)", "P(avg), R -> P(avg)",
                    "P(product), P(product) -> P(product)"};
const Rules kMaximum = {"P(max), P(max) -> P(max)", "P(max), R -> P(max)",
                        "R, P(max) -> P(max)", "P(min), R -> P(min)", "R, P(min) -> P(min)"};
const Rules kMinimum = {"P(min), P(min) -> P(min)", "P(min), R -> P(min)",
                        "R, P(min) -> P(min)", "P(max), R -> P(max)", "R, P(max) -> P(max)"};
const Rules kIncreasingBoth = {"P(max), R -> P(max)", "R, P(max) -> P(max)",
                               "P(min), R -> P(min)", "R, P(min) -> P(min)"};
const Rules kNone = {};

const std::vector<PointwiseOp>& BinaryOps() {
  static const auto* ops = new std::vector<PointwiseOp>{
      {"aten::atan2", kNone, false},
      {"aten::div.Tensor", kDiv, false},
      {"aten::logaddexp", kIncreasingBoth, false},
      {"aten::maximum", kMaximum, false},
      {"aten::minimum", kMinimum, false},
      {"aten::mul.Tensor", kMul, false},
      {"aten::mul_.Tensor", kMul, true},
      {"aten::mul.out", kMul, false},
      {"aten::pow.Tensor_Tensor", kNone, false},
  };
  return *ops;
}

const bool kRegistered = [] {
  for (const AffineOp& op : kAffineOps) {
    StrategyRegistrar(op.overload, [&op](const OpArgs& args) {
      const double alpha = args.GetDouble("alpha").value_or(1.0);
      return PointwiseRules(args, AffineRules(op.sign * alpha), op.in_place);
    });
  }
  return RegisterPointwiseOps(BinaryOps());
}();

}  // namespace
}  // namespace shrt
