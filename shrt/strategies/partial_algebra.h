// When a Partial placement survives what an operator does to values other
// than arithmetic: a dtype conversion of the parts, or a constant written on
// every rank. Shared by the strategy families that copy, convert, select or
// fill values (copy.cc, indexing.cc, concat.cc, slicing.cc).
#ifndef SHRT_STRATEGIES_PARTIAL_ALGEBRA_H_
#define SHRT_STRATEGIES_PARTIAL_ALGEBRA_H_

#include <optional>

#include "c10/core/ScalarType.h"
#include "shrt/vocab/placement.h"

namespace shrt {

// The reductions that map identical values on every rank to that value:
// avg, max and min. A Replicate operand can stand beside a P(op) one of these.
inline constexpr ReduceOp kIdempotentReduceOps[] = {ReduceOp::kAvg, ReduceOp::kMax,
                                                    ReduceOp::kMin};

// True if converting each rank's part from dtype `from` to `to` commutes
// with the reduction `op` over ranks, so that P(op) of `from` values gives
// P(op) of the converted values:
//   - same dtype: always;
//   - to or from bool: never (bool tensors take no Partial, DESIGN.md §3);
//   - float -> float, int -> float: always (monotone, and linear up to
//     the rounding of the less precise dtype, which is the computation's
//     precision: DESIGN.md §3 judges float32 widened to float64 at float32
//     tolerance);
//   - float -> int: max and min only (truncation is monotone, not linear;
//     the conversion of nan and inf is undefined, and the specs of casts
//     say so: spec.proto special_values_undefined);
//   - int widening (no signed -> unsigned): always;
//   - int narrowing or signed -> unsigned: sum and product only (wrapping
//     is a ring homomorphism, not monotone).
bool ConversionKeeps(c10::ScalarType from, c10::ScalarType to, ReduceOp op);

// True if a constant `c` written on every rank is a P(op) of c: always for
// avg, max and min; for sum only when c == 0; for product when c is 0 or 1.
// `c` is nullopt when the value is unknown (e.g. a tensor value): then only
// the idempotent reductions hold.
bool ConstantKeeps(std::optional<double> c, ReduceOp op);

}  // namespace shrt

#endif  // SHRT_STRATEGIES_PARTIAL_ALGEBRA_H_
