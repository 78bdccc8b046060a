// Strategies for batched linear algebra: factorizations, solves, inverses,
// determinants and eigen/singular decompositions over the last two dims of
// [*, m, n] matrices; and the cross product of 3-vectors (LinalgCross).
//
// Each matrix of the batch is factored or solved on its own (LAPACK per
// matrix), so a batch dim shards through: S(d) on every tensor input and
// output for each dim d before input 0's last two, where every tensor has
// input 0's size at d (an input that broadcasts there is not sharded: the
// samples give none). The outputs keep the batch dims in front whatever
// their own core dims (det's [*], pivots' and tau's [*, k], LU's
// [*, m, n]). A matrix dim never shards: every entry of a factor or a
// solution depends on the whole matrix. DTensor claims the same batch
// rules (torch/distributed/tensor/_ops/_math_ops.py
// linalg_batch_dim_strategy); _linalg_svd, linalg_qr and _linalg_eigh it
// replicates (linalg_replicate_strategy).
//
// The solves are also column by column in their right-hand side B
// [*, n, k] (left = true: A X = B) or row by row (left = false: X A = B,
// B [*, k, n]), with every other input R: B's last dim (left) or its
// second-to-last (right) shards the solution the same way, and the outputs
// that come from the matrix alone stay R (_linalg_solve_ex's LU, pivots
// and info; triangular_solve's cloned_coefficient). ormqr applies Q to C
// alike (left: Q C, by C's columns; right: C Q, by its rows).
//
// Partial rules: the solves are linear in B with the matrix fixed, so P(sum)
// and P(avg) on B, every other input R, give P(sum) / P(avg) on the
// solution and R on the others. Nothing else is linear or monotone (an
// inverse, a determinant, a factor). linalg_lu's permutation matrix P
// holds 0 and 1 only, each its own product: R -> P(product) there.
#include <optional>
#include <vector>

#include "shrt/strategies/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

using P = Placement;

// `rhs`: the input index of the right-hand side a solve is linear in, or
// nullopt.
std::vector<Rule> LinalgRules(const OpArgs& args, std::optional<size_t> rhs) {
  RuleSet rules(args);
  const size_t nin = args.inputs().size();
  const size_t nout = args.outputs().size();
  if (nin == 0 || nout == 0) return rules.Take();
  const TensorMeta& a = args.inputs()[0];
  for (int64_t d = 0; d + 2 < a.ndim(); ++d) {
    bool aligned = true;
    for (const auto* group : {&args.inputs(), &args.outputs()}) {
      for (const TensorMeta& t : *group) {
        aligned = aligned && d < t.ndim() && t.sizes[d] == a.sizes[d];
      }
    }
    if (aligned) {
      rules.Add(std::vector<Placement>(nin, P::Shard(d)),
                std::vector<Placement>(nout, P::Shard(d)));
    }
  }
  if (rhs.has_value() && *rhs < nin) {
    const int64_t b_ndim = args.inputs()[*rhs].ndim();
    const bool left = args.GetBool("left").value_or(true);
    std::vector<Placement> in(nin, P::Replicate());
    std::vector<Placement> out(nout, P::Replicate());
    in[*rhs] = P::Shard(left ? b_ndim - 1 : b_ndim - 2);
    out[0] = P::Shard(args.outputs()[0].ndim() - (left ? 1 : 2));
    rules.Add(std::move(in), std::move(out));
    for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kAvg}) {
      std::vector<Placement> in(nin, P::Replicate());
      std::vector<Placement> out(nout, P::Replicate());
      in[*rhs] = P::Partial(op);
      out[0] = P::Partial(op);
      rules.Add(std::move(in), std::move(out));
    }
  }
  return rules.Take();
}

absl::StatusOr<std::vector<Rule>> LinalgLu(const OpArgs& args) {
  std::vector<Rule> rules = LinalgRules(args, std::nullopt);
  if (args.GetBool("pivot").value_or(true) && args.outputs().size() == 3) {
    rules.push_back({{P::Replicate()},
                     {P::Partial(ReduceOp::kProduct), P::Replicate(), P::Replicate()}});
  }
  return rules;
}

// linalg_cross(self, other, dim): the cross product of 3-vectors along dim,
// with broadcasting. Each output vector depends on its own pair, so every
// other dim shards as a pointwise op does (an input of size 1 there
// broadcasts and stays R); bilinear, so P(sum) / P(avg) on one input with
// the other R.
absl::StatusOr<std::vector<Rule>> LinalgCross(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() != 2 || args.outputs().size() != 1) return rules.Take();
  const int64_t ndim = args.outputs()[0].ndim();
  int64_t dim = args.GetInt("dim").value_or(-1);
  if (dim < 0) dim += ndim;
  for (int64_t d = 0; d < ndim; ++d) {
    if (d == dim) continue;
    std::vector<Placement> in;
    for (const TensorMeta& t : args.inputs()) {
      const int64_t td = d - (ndim - t.ndim());  // right-aligned
      const bool broadcast = td < 0 || t.sizes[td] != args.outputs()[0].sizes[d];
      in.push_back(broadcast ? P::Replicate() : P::Shard(td));
    }
    rules.Add(std::move(in), {P::Shard(d)});
  }
  for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kAvg}) {
    rules.Add({P::Partial(op), P::Replicate()}, {P::Partial(op)});
    rules.Add({P::Replicate(), P::Partial(op)}, {P::Partial(op)});
  }
  return rules.Take();
}

template <int kRhs>
absl::StatusOr<std::vector<Rule>> Linalg(const OpArgs& args) {
  if (kRhs < 0) return LinalgRules(args, std::nullopt);
  return LinalgRules(args, static_cast<size_t>(kRhs));
}

constexpr auto kBatch = Linalg<-1>;

SHRT_REGISTER_STRATEGY("aten::cholesky", kBatch);
SHRT_REGISTER_STRATEGY("aten::cholesky_inverse", kBatch);
SHRT_REGISTER_STRATEGY("aten::linalg_matrix_exp", kBatch);
SHRT_REGISTER_STRATEGY("aten::linalg_householder_product", kBatch);
SHRT_REGISTER_STRATEGY("aten::geqrf", kBatch);
SHRT_REGISTER_STRATEGY("aten::linalg_cholesky_ex", kBatch);
SHRT_REGISTER_STRATEGY("aten::linalg_eig", kBatch);
SHRT_REGISTER_STRATEGY("aten::linalg_inv_ex", kBatch);
SHRT_REGISTER_STRATEGY("aten::_linalg_det", kBatch);
SHRT_REGISTER_STRATEGY("aten::linalg_ldl_factor_ex", kBatch);
SHRT_REGISTER_STRATEGY("aten::linalg_lu", LinalgLu);
SHRT_REGISTER_STRATEGY("aten::linalg_lu_factor_ex", kBatch);
SHRT_REGISTER_STRATEGY("aten::_linalg_slogdet", kBatch);
SHRT_REGISTER_STRATEGY("aten::_linalg_svd", kBatch);
SHRT_REGISTER_STRATEGY("aten::linalg_qr", kBatch);
SHRT_REGISTER_STRATEGY("aten::_linalg_eigh", kBatch);
SHRT_REGISTER_STRATEGY("aten::linalg_pinv.atol_rtol_tensor", kBatch);
SHRT_REGISTER_STRATEGY("aten::linalg_cross", LinalgCross);
// Solves, by the input index of the right-hand side.
SHRT_REGISTER_STRATEGY("aten::cholesky_solve", Linalg<0>);           // (B, L)
SHRT_REGISTER_STRATEGY("aten::triangular_solve", Linalg<0>);         // (b, A)
SHRT_REGISTER_STRATEGY("aten::linalg_solve_triangular", Linalg<1>);  // (A, B)
SHRT_REGISTER_STRATEGY("aten::_linalg_solve_ex", Linalg<1>);         // (A, B)
SHRT_REGISTER_STRATEGY("aten::linalg_lu_solve", Linalg<2>);          // (LU, pivots, B)
SHRT_REGISTER_STRATEGY("aten::linalg_ldl_solve", Linalg<2>);         // (LD, pivots, B)
SHRT_REGISTER_STRATEGY("aten::ormqr", Linalg<2>);                    // (A, tau, C)

}  // namespace
}  // namespace shrt
