// Strategies for comparison and logical overloads. Their functional and
// out= results are bool, which has no Partial placement, and no Partial
// input survives into a bool result, so they have exactly the pointwise
// shard rules.
//
// The in-place forms (gt_, logical_and_, ...) write 0/1 into self's dtype,
// which does have Partial placements. gt_/ge_ are non-decreasing in self
// (max_r [p_r > y] = [max_r p_r > y], and the same for min), and an
// in-place rule keeps self's placement, so they have P(max), R -> P(max)
// and P(min), R -> P(min) (one input for the Scalar overloads). lt_/le_
// are non-increasing in self, which would turn P(max) into P(min): not an
// in-place rule. eq_/ne_ and the logical ops are not monotone.
// logical_and_ and logical_or_ see their inputs only through [v != 0], and
// a product is non-zero iff every factor is: prod_r [p_r != 0] = [x != 0].
// So logical_and_ has P(product), R -> P(product) and P(product),
// P(product) -> P(product) ([a != 0][b != 0] multiplies across ranks), and
// logical_or_ has P(product), R -> P(product) (each rank gives 1 where
// y != 0, and [p_r != 0] where y == 0).
#include <deque>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "shrt/registry.h"
#include "shrt/strategies/pointwise_rules.h"

namespace shrt {
namespace {

using Rules = std::vector<absl::string_view>;

const Rules kNone = {};
// gt_/ge_: both arities, ApplicableRules keeps the one that fits.
const Rules kIncreasingSelf = {"P(max), R -> P(max)", "P(min), R -> P(min)",
                               "P(max) -> P(max)", "P(min) -> P(min)"};

const Rules kLogicalAndInPlace = {"P(product), R -> P(product)",
                                  "P(product), P(product) -> P(product)"};
const Rules kLogicalOrInPlace = {"P(product), R -> P(product)"};

const std::vector<PointwiseOp>& ComparisonOps() {
  static const auto* ops = [] {
    // Keeps the generated overload names alive (deque: no reallocation).
    static auto* names = new std::deque<std::string>;
    auto* v = new std::vector<PointwiseOp>{
        {"aten::logical_and", kNone},       {"aten::logical_or", kNone},
        {"aten::logical_xor", kNone},       {"aten::logical_not", kNone},
        {"aten::logical_and.out", kNone},   {"aten::logical_or.out", kNone},
        {"aten::logical_xor.out", kNone},   {"aten::logical_not.out", kNone},
        {"aten::logical_and_", kLogicalAndInPlace, true},
        {"aten::logical_or_", kLogicalOrInPlace, true},
        {"aten::logical_xor_", kNone, true}, {"aten::logical_not_", kNone, true},
    };
    for (const char* op : {"eq", "ne", "lt", "le", "gt", "ge"}) {
      const std::string base = std::string("aten::") + op;
      const bool increasing = std::string(op) == "gt" || std::string(op) == "ge";
      const Rules& in_place = increasing ? kIncreasingSelf : kNone;
      for (const char* suffix : {".Tensor", ".Scalar", ".Tensor_out", ".Scalar_out"}) {
        names->push_back(base + suffix);
        v->push_back({names->back().c_str(), kNone, false});
      }
      for (const char* suffix : {"_.Tensor", "_.Scalar"}) {
        if (std::string(op) == "ne" && std::string(suffix) == "_.Scalar") continue;  // below
        names->push_back(base + suffix);
        v->push_back({names->back().c_str(), in_place, true});
      }
    }
    return v;
  }();
  return *ops;
}

const bool kRegistered = RegisterPointwiseOps(ComparisonOps());

// ne_(x, 0) is [x != 0], which a product of parts keeps:
// prod_r [p_r != 0] = [x != 0]. Other scalars have no Partial rule.
SHRT_REGISTER_STRATEGY("aten::ne_.Scalar", [](const OpArgs& args) {
  const bool zero = args.GetDouble("other").value_or(1.0) == 0;
  return PointwiseRules(args, zero ? Rules{"P(product) -> P(product)"} : kNone,
                        /*in_place=*/true);
});

}  // namespace
}  // namespace shrt
