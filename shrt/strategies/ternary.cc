// Strategies for ternary pointwise overloads (with broadcasting): every
// shard rule, plus the Partial rules each op's algebra justifies.
//
// addcmul(s, a, b, value) = s + value * a * b: linear in (s, a) jointly and
// in (s, b) jointly (P(sum) on s and one factor); affine in each argument
// alone (P(avg) on any one input, the others R); non-decreasing in s.
// addcdiv(s, a, b, value) = s + value * a / b: the same, except that b is
// not linear (only a is); like div, the rules on a hold off zero divisors
// b, which the specs draw from the "nonzero" recipe.
// lerp(s, e, w) = (1 - w) * s + w * e: for a Scalar w it is affine in
// (s, e) jointly and monotone in s by the sign of 1 - w and in e by the
// sign of w; for a Tensor w it is linear in (s, e) jointly and affine in
// each of s, e, w alone.
// where.ScalarSelf(c, x, y) / where.ScalarOther(c, x, y) select between a
// tensor and a constant: max/min/mean over ranks commute with the
// selection (the constant is the same on every rank), sum and product do
// not (W copies of the constant).
#include <functional>
#include <vector>

#include "absl/strings/string_view.h"
#include "shrt/registry.h"
#include "shrt/strategies/pointwise_rules.h"

namespace shrt {
namespace {

using Rules = std::vector<absl::string_view>;

const Rules kAddcmul = {"P(sum), P(sum), R -> P(sum)", "P(sum), R, P(sum) -> P(sum)",
                        "P(avg), P(avg), R -> P(avg)", "P(avg), R, P(avg) -> P(avg)",
                        "P(avg), R, R -> P(avg)",      "R, P(avg), R -> P(avg)",
                        "R, R, P(avg) -> P(avg)",      "P(max), R, R -> P(max)",
                        "P(min), R, R -> P(min)"};
const Rules kAddcdiv = {"P(sum), P(sum), R -> P(sum)", "P(avg), P(avg), R -> P(avg)",
                        "P(avg), R, R -> P(avg)",      "R, P(avg), R -> P(avg)",
                        "P(max), R, R -> P(max)",      "P(min), R, R -> P(min)"};
const Rules kLerpTensor = {"P(sum), P(sum), R -> P(sum)", "P(avg), P(avg), R -> P(avg)",
                           "P(avg), R, R -> P(avg)", "R, P(avg), R -> P(avg)",
                           "R, R, P(avg) -> P(avg)"};
const Rules kWhereScalar = {"R, P(max) -> P(max)", "R, P(min) -> P(min)",
                            "R, P(avg) -> P(avg)"};

Rules LerpScalar(const OpArgs& args) {
  const double w = args.GetDouble("weight").value_or(0.5);
  Rules out = {"P(sum), P(sum) -> P(sum)", "P(avg), P(avg) -> P(avg)", "P(avg), R -> P(avg)",
               "R, P(avg) -> P(avg)"};
  auto add = [&out](std::initializer_list<absl::string_view> rules) {
    out.insert(out.end(), rules.begin(), rules.end());
  };
  if (1 - w >= 0) add({"P(max), R -> P(max)", "P(min), R -> P(min)"});
  if (1 - w <= 0) add({"P(max), R -> P(min)", "P(min), R -> P(max)"});
  if (w >= 0) add({"R, P(max) -> P(max)", "R, P(min) -> P(min)"});
  if (w <= 0) add({"R, P(max) -> P(min)", "R, P(min) -> P(max)"});
  return out;
}

const std::vector<PointwiseOp>& TernaryOps() {
  static const auto* ops = new std::vector<PointwiseOp>{
      {"aten::addcmul", kAddcmul, false},
      {"aten::addcmul_", kAddcmul, true},
      {"aten::addcmul.out", kAddcmul, false},
      {"aten::addcdiv", kAddcdiv, false},
      {"aten::addcdiv_", kAddcdiv, true},
      {"aten::addcdiv.out", kAddcdiv, false},
      {"aten::lerp.Tensor", kLerpTensor, false},
      {"aten::lerp_.Tensor", kLerpTensor, true},
      {"aten::lerp.Tensor_out", kLerpTensor, false},
      {"aten::where.ScalarSelf", kWhereScalar, false},
      {"aten::where.ScalarOther", kWhereScalar, false},
  };
  return *ops;
}

const bool kRegistered = RegisterPointwiseOps(TernaryOps());

struct ArgDependentOp {
  const char* overload;
  bool in_place;
};

constexpr ArgDependentOp kLerpScalarOps[] = {
    {"aten::lerp.Scalar", false}, {"aten::lerp_.Scalar", true}, {"aten::lerp.Scalar_out", false}};

const bool kLerpRegistered = [] {
  for (const ArgDependentOp& op : kLerpScalarOps) {
    StrategyRegistrar(op.overload, [&op](const OpArgs& args) {
      return PointwiseRules(args, LerpScalar(args), op.in_place);
    });
  }
  return true;
}();

}  // namespace
}  // namespace shrt
