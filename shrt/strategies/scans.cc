// Strategies for scans along one dim (cumsum, cumprod, logcumsumexp,
// cummax, cummin).
//
// Shard rules: sharding any dim other than the scanned one keeps every
// output sharded on it. Sharding the scanned dim is invalid (each rank
// would restart the scan at its chunk), except when that dim has size 1:
// the scan is then the identity along it (rank 0 holds the element, the
// other ranks empty chunks), so S(dim) -> S(dim) holds too.
//
// Partial inputs: cumsum is linear (P(sum) -> P(sum), P(avg) -> P(avg));
// cumprod is multiplicative (P(product) -> P(product)); both only when the
// dtype= conversion preserves the parts (none, integer -> integer, float
// -> float). On a size-1
// scanned dim (or a 0-d input) cumsum, cumprod and logcumsumexp are the
// identity and keep every Partial. cummax/cummin return local indices,
// which no Partial describes.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "c10/core/ScalarType.h"
#include "shrt/strategies/pointwise_rules.h"
#include "shrt/strategies/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

struct ScanOp {
  const char* overload;
  Rules partial_rules;
  bool identity_on_unit;
};

absl::StatusOr<std::vector<Rule>> ScanRules(const OpArgs& args, const ScanOp& op) {
  bool unit = false;
  std::vector<Rule> rules = ShardOffDimRules(args, &unit);
  if (!args.GetInt("dim")) return rules;
  const TensorMeta& self = args.inputs()[0];
  const c10::ScalarType in = self.dtype;
  const c10::ScalarType out = args.outputs()[0].dtype;
  // Partial inputs survive no dtype conversion but integer -> integer and
  // float -> float: float parts truncate to integers. (Float parts widened
  // to float64 sum to x up to float32 rounding, the computation's own
  // precision: DESIGN.md §3.)
  const bool floats = c10::isFloatingType(in) && c10::isFloatingType(out);
  if (in != out && !floats &&
      !(c10::isIntegralType(in, false) && c10::isIntegralType(out, false))) {
    return rules;
  }
  Append(rules, KeepApplicable(args, unit && op.identity_on_unit ? IdentityRules()
                                                                 : op.partial_rules));
  return rules;
}

const std::vector<ScanOp>& Ops() {
  static const auto* ops = new std::vector<ScanOp>{
      {"aten::cumsum", LinearRules(), true},
      {"aten::cumprod", MultiplicativeRules(), true},
      {"aten::logcumsumexp", {}, true},
      {"aten::cummax", {}, false},
      {"aten::cummin", {}, false},
  };
  return *ops;
}

const bool kRegistered = [] {
  for (const ScanOp& op : Ops()) {
    StrategyRegistrar(op.overload, [&op](const OpArgs& args) { return ScanRules(args, op); });
  }
  return true;
}();

}  // namespace
}  // namespace shrt
