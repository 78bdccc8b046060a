// Strategy for aten::where.self(condition, self, other): pointwise with
// broadcasting. where selects elementwise, so it commutes with every
// reduction over ranks when both branches carry the same Partial:
// where(c, p_r, q_r) reduces to where(c, x, y). For the idempotent
// reductions (max, min) and for the mean one branch may instead be
// Replicate: max_r where(c, p_r, y) = mean_r where(c, p_r, y) = where(c, x, y).
#include "shrt/strategies/pointwise_rules.h"

namespace shrt {
namespace {

const bool kRegistered = RegisterPointwiseOps({
    {"aten::where.self",
     ParseRules({"R, P(sum), P(sum) -> P(sum)", "R, P(avg), P(avg) -> P(avg)",
                 "R, P(max), P(max) -> P(max)", "R, P(min), P(min) -> P(min)",
                 "R, P(product), P(product) -> P(product)",
                 "R, P(max), R -> P(max)",      "R, R, P(max) -> P(max)",
                 "R, P(min), R -> P(min)",      "R, R, P(min) -> P(min)",
                 "R, P(avg), R -> P(avg)",      "R, R, P(avg) -> P(avg)"})},
});

}  // namespace
}  // namespace shrt
