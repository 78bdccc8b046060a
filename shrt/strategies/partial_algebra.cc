#include "shrt/strategies/partial_algebra.h"

namespace shrt {

bool ConversionKeeps(c10::ScalarType from, c10::ScalarType to, ReduceOp op) {
  if (from == to) return true;
  if (from == c10::ScalarType::Bool || to == c10::ScalarType::Bool) return false;
  const bool ff = c10::isFloatingType(from), tf = c10::isFloatingType(to);
  if (tf) return true;
  if (ff) return op == ReduceOp::kMax || op == ReduceOp::kMin;
  if (c10::elementSize(to) >= c10::elementSize(from) &&
      (c10::isSignedType(to) || !c10::isSignedType(from))) {
    return true;
  }
  return op == ReduceOp::kSum || op == ReduceOp::kProduct;
}

bool ConstantKeeps(std::optional<double> c, ReduceOp op) {
  switch (op) {
    case ReduceOp::kAvg:
    case ReduceOp::kMax:
    case ReduceOp::kMin: return true;
    case ReduceOp::kSum: return c.has_value() && *c == 0;
    case ReduceOp::kProduct: return c.has_value() && (*c == 0 || *c == 1);
    // W equal values reduce to W ** (1 / p) times one.
    case ReduceOp::kNorm: return false;
  }
  return false;
}

}  // namespace shrt
