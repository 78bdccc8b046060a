// Strategies for matrix products: mm, bmm, mv, dot, vdot, outer, ger, inner,
// matmul, chain_matmul, kron, linear without bias (P = A @ B) and the fused
// beta * self + alpha * (A @ B) forms addmm, addmv, baddbmm, addbmm, addr,
// linear with bias; and, in their own sections below (each with its
// algebra): _addmm_activation (addmm then relu/gelu), tensordot, cdist /
// _cdist_forward / _euclidean_dist. bilinear and einsum (a small equation
// parser) are in matrix_einsum.cc, the algebra of A @ B and of the fused
// forms in matrix_product.h. linear_backward is not here: libtorch 1.13 has
// no CPU kernel for it (NestedTensor and MPS only), so it cannot be
// executed.
//
// The registry derives the out= forms and the in-place forms (addmm_,
// addmv_, baddbmm_, addbmm_, addr_), which keep the rules whose output
// placement equals self's.
//
// More ops with the same algebra (matrix_product.h; each is A @ B, or
// beta * self + alpha * (A @ B), with its own dim structure). These are the rules of DTensor's
// gen_einsum_strategies (torch/distributed/tensor/_ops/_einsum_strategy.py,
// which _matrix_ops.py builds mm/bmm/addmm/baddbmm from) applied to each
// op's einsum; DTensor reaches matmul, linear, inner, outer and kron through
// their CompositeImplicitAutograd decompositions into those ops:
//   - addbmm: sum_b batch1[b] @ batch2[b] contracts two dims, the batch dim
//     and k; each sharded on both factors gives P(sum) (S(0), S(0) and
//     S(2), S(1)); self is handled like addmm's (matrix_product.h);
//   - outer / ger (alias) and addr: vec1 (x) vec2 contracts nothing, so there
//     is no S, S -> P(sum) rule; out[i, j] = a[i] * b[j] is a product of one
//     element of each factor, hence P(product), P(product) -> P(product)
//     (outer, ger); addr adds self like addmm;
//   - vdot: dot for real dtypes (no conjugation);
//   - inner: contracts the last dim of both (out = self.shape[:-1] +
//     other.shape[:-1]); with a 0-d input it is a scalar product, which
//     contracts nothing;
//   - matmul: dot (1-D @ 1-D), mv-like (N-D @ 1-D), vector @ matrix (1-D @
//     N-D, whose prepended 1 is dropped), or a batched mm whose batch dims
//     broadcast: a factor whose batch dim is broadcast (size 1, or absent)
//     is replicated on it while the other shards it (as DTensor's
//     _einsum_strategy treats broadcast dims);
//   - chain_matmul: M_0 @ ... @ M_{n-1}: rows follow M_0's dim 0 and
//     columns M_{n-1}'s dim 1 (the others replicated); each contraction
//     M_i @ M_{i+1} sharded on both gives P(sum) (the chain is linear in the
//     pair's sum index with the rest replicated); P(sum|avg) on one matrix,
//     the others R; P(product) on all when every inner dim is 1 (then each
//     output element is a product of one element of each matrix); a single
//     matrix is copied (every rule maps its placement to itself);
//   - kron(A, B): out[i * p + k] = A[i] * B[k] on each dim (sizes n of A,
//     p of B, the shorter shape padded with leading 1s). A's index is the
//     outer one: S(d) on A with B R gives the output's chunk when B's dim is
//     1 (then out = A's dim); B's dim is the inner one, so S(d) on B with A R
//     needs A's dim to be 1; both sharded when both are 1. Otherwise rank r's
//     block of A rows lands on rows [lo * p, hi * p), which is torch.chunk's
//     r-th chunk of n * p only for some n, p, W: not claimed. Each output
//     element is one product A[..] * B[..]: P(sum|avg), R (or R, P) ->
//     P(sum|avg), and P(product), P(product) -> P(product);
//   - linear: input @ weight.T (contracts input's last dim with weight's
//     dim 1), plus bias as self with beta = 1 (bias broadcasts on the last
//     output dim); without bias it is a plain product.
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "shrt/strategies/matrix_product.h"
#include "shrt/strategies/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

using matrix_internal::AddProduct;
using matrix_internal::kBiasLast;
using matrix_internal::PlainProduct;
using matrix_internal::ProductDims;
using matrix_internal::ShardOrR;

// The dim structures that do not depend on the inputs' shapes.
const ProductDims kMm{{{0, -1}, {-1, 1}}, {{1, 0}}};
const ProductDims kBmm{{{0, 0}, {1, -1}, {-1, 2}}, {{2, 1}}};
const ProductDims kMv{{{0, -1}}, {{1, 0}}};
const ProductDims kDot{{}, {{0, 0}}};
const ProductDims kAddbmm{{{1, -1}, {-1, 2}}, {{0, 0}, {2, 1}}};
const ProductDims kOuter{{{0, -1}, {-1, 0}}, {}};

// inner(A, B): contracts the last dims; a 0-d factor scales the other.
ProductDims InnerDims(const OpArgs& args) {
  const int64_t na = args.inputs()[0].ndim();
  const int64_t nb = args.inputs()[1].ndim();
  ProductDims dims;
  if (na == 0 || nb == 0) {
    for (int64_t d = 0; d < na; ++d) dims.out_dims.push_back({d, -1});
    for (int64_t d = 0; d < nb; ++d) dims.out_dims.push_back({-1, d});
    return dims;
  }
  for (int64_t d = 0; d + 1 < na; ++d) dims.out_dims.push_back({d, -1});
  for (int64_t d = 0; d + 1 < nb; ++d) dims.out_dims.push_back({-1, d});
  dims.contracted.push_back({na - 1, nb - 1});
  return dims;
}

// matmul(A, B) (torch.matmul's cases; both inputs have >= 1 dim).
ProductDims MatmulDims(const OpArgs& args) {
  const TensorMeta& a = args.inputs()[0];
  const TensorMeta& b = args.inputs()[1];
  const TensorMeta& out = args.outputs()[0];
  const int64_t na = a.ndim();
  const int64_t nb = b.ndim();
  ProductDims dims;
  if (na == 1 && nb == 1) return kDot;
  if (nb == 1) {
    for (int64_t d = 0; d + 1 < na; ++d) dims.out_dims.push_back({d, -1});
    dims.contracted.push_back({na - 1, 0});
    return dims;
  }
  if (na == 1) {
    for (int64_t d = 0; d + 2 < nb; ++d) dims.out_dims.push_back({-1, d});
    dims.out_dims.push_back({-1, nb - 1});
    dims.contracted.push_back({0, nb - 2});
    return dims;
  }
  const int64_t batch = out.ndim() - 2;
  // A factor carries an output batch dim only where it has it unbroadcast.
  auto batch_dim = [&](const TensorMeta& t, int64_t d) -> int64_t {
    const int64_t td = d - (batch - (t.ndim() - 2));
    return td >= 0 && t.sizes[td] == out.sizes[d] ? td : -1;
  };
  for (int64_t d = 0; d < batch; ++d) dims.out_dims.push_back({batch_dim(a, d), batch_dim(b, d)});
  dims.out_dims.push_back({na - 2, -1});
  dims.out_dims.push_back({-1, nb - 1});
  dims.contracted.push_back({na - 1, nb - 2});
  return dims;
}

// linear(input, weight): input @ weight.T, weight 2-D.
ProductDims LinearDims(const OpArgs& args) {
  const int64_t n = args.inputs()[0].ndim();
  ProductDims dims;
  for (int64_t d = 0; d + 1 < n; ++d) dims.out_dims.push_back({d, -1});
  dims.out_dims.push_back({-1, 0});
  dims.contracted.push_back({n - 1, 1});
  return dims;
}

ProductDims MmDims(const OpArgs&) { return kMm; }
ProductDims BmmDims(const OpArgs&) { return kBmm; }
ProductDims MvDims(const OpArgs&) { return kMv; }
ProductDims DotDims(const OpArgs&) { return kDot; }
ProductDims AddbmmDims(const OpArgs&) { return kAddbmm; }
ProductDims OuterDims(const OpArgs&) { return kOuter; }

using DimsFn = ProductDims (*)(const OpArgs&);

struct PlainOp {
  const char* overload;
  DimsFn dims;
};

constexpr PlainOp kPlainOps[] = {
    {"aten::mm", &MmDims},         {"aten::bmm", &BmmDims},       {"aten::mv", &MvDims},
    {"aten::dot", &DotDims},       {"aten::vdot", &DotDims},      {"aten::outer", &OuterDims},
    {"aten::ger", &OuterDims},     {"aten::inner", &InnerDims},   {"aten::matmul", &MatmulDims},
};

struct AddOp {
  const char* overload;
  DimsFn dims;
  bool empty_mat_breaks_broadcast;  // the addmv quirk (matrix_product.h)
};

constexpr AddOp kAddOps[] = {
    {"aten::addmm", &MmDims, false},
    {"aten::addmv", &MvDims, true},
    {"aten::baddbmm", &BmmDims, false},
    {"aten::addbmm", &AddbmmDims, false},
    {"aten::addr", &OuterDims, false},
};

// chain_matmul(matrices): M_0 @ M_1 @ ... @ M_{n-1}, all 2-D.
std::vector<Rule> ChainMatmul(const OpArgs& args) {
  const size_t n = args.inputs().size();
  const Placement r = Placement::Replicate();
  std::vector<Rule> rules;
  auto add = [&](std::vector<std::pair<size_t, Placement>> set, const Placement& out) {
    std::vector<Placement> in(n, r);
    for (auto& [i, p] : set) in[i] = p;
    rules.push_back({std::move(in), {out}});
  };
  if (n == 0) return rules;
  if (n == 1) {  // a copy of the one matrix
    add({{0, Placement::Shard(0)}}, Placement::Shard(0));
    add({{0, Placement::Shard(1)}}, Placement::Shard(1));
    for (ReduceOp op : kAllReduceOps) add({{0, Placement::Partial(op)}}, Placement::Partial(op));
    return KeepApplicable(args, std::move(rules));
  }
  add({{0, Placement::Shard(0)}}, Placement::Shard(0));
  add({{n - 1, Placement::Shard(1)}}, Placement::Shard(1));
  for (size_t i = 0; i + 1 < n; ++i) {
    add({{i, Placement::Shard(1)}, {i + 1, Placement::Shard(0)}}, Placement::Partial(ReduceOp::kSum));
  }
  for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kAvg}) {
    for (size_t i = 0; i < n; ++i) add({{i, Placement::Partial(op)}}, Placement::Partial(op));
  }
  bool unit = true;
  for (size_t i = 0; i + 1 < n; ++i) unit = unit && args.inputs()[i].sizes[1] == 1;
  if (unit) {
    std::vector<std::pair<size_t, Placement>> all;
    for (size_t i = 0; i < n; ++i) all.push_back({i, Placement::Partial(ReduceOp::kProduct)});
    add(all, Placement::Partial(ReduceOp::kProduct));
  }
  return KeepApplicable(args, std::move(rules));
}

// kron(A, B), the shorter shape padded with leading 1s.
std::vector<Rule> Kron(const OpArgs& args) {
  const TensorMeta& a = args.inputs()[0];
  const TensorMeta& b = args.inputs()[1];
  const int64_t nd = std::max(a.ndim(), b.ndim());
  const Placement r = Placement::Replicate();
  std::vector<Rule> rules;
  for (int64_t d = 0; d < nd; ++d) {
    const int64_t ad = d - (nd - a.ndim());
    const int64_t bd = d - (nd - b.ndim());
    const bool a_unit = ad < 0 || a.sizes[ad] == 1;
    const bool b_unit = bd < 0 || b.sizes[bd] == 1;
    const Placement out = Placement::Shard(d);
    if (ad >= 0 && b_unit) rules.push_back({{Placement::Shard(ad), r}, {out}});
    if (bd >= 0 && a_unit) rules.push_back({{r, Placement::Shard(bd)}, {out}});
    if (ad >= 0 && bd >= 0 && a_unit && b_unit) {
      rules.push_back({{Placement::Shard(ad), Placement::Shard(bd)}, {out}});
    }
  }
  for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kAvg}) {
    const Placement p = Placement::Partial(op);
    rules.push_back({{p, r}, {p}});
    rules.push_back({{r, p}, {p}});
  }
  const Placement prod = Placement::Partial(ReduceOp::kProduct);
  rules.push_back({{prod, prod}, {prod}});
  return KeepApplicable(args, std::move(rules));
}

// linear(input, weight, bias?): a plain product without bias.
absl::StatusOr<std::vector<Rule>> Linear(const OpArgs& args) {
  if (args.inputs().size() == 2) return PlainProduct(args, LinearDims(args));
  return AddProduct(args, LinearDims(args), false, kBiasLast);
}

// _addmm_activation(self, mat1, mat2, beta, alpha, use_gelu):
// act(beta * self + alpha * mat1 @ mat2). addmm's shard rules carry
// through the elementwise activation; no Partial output survives it except
// where act commutes with the reduction: relu is nondecreasing, so with the
// product replicated P(max|min) of self map as addmm's (flipped when
// beta < 0); gelu is not monotone.
std::vector<Rule> AddmmActivation(const OpArgs& args) {
  const bool gelu = args.GetBool("use_gelu").value_or(false);
  std::vector<Rule> rules = AddProduct(args, kMm, false);
  rules.erase(std::remove_if(rules.begin(), rules.end(),
                             [&](const Rule& rule) {
                               const Placement& o = rule.outputs[0];
                               if (o.is_shard()) return false;
                               const bool monotone_op = o.is_partial() && (o.reduce_op() == ReduceOp::kMax ||
                                                                          o.reduce_op() == ReduceOp::kMin);
                               return gelu || !monotone_op;
                             }),
              rules.end());
  return rules;
}

// tensordot(A, B, dims_self, dims_other): the free dims of A, then those of
// B, each carried by one factor; dims_self[i] contracted with dims_other[i].
ProductDims TensordotDims(const OpArgs& args) {
  const int64_t na = args.inputs()[0].ndim();
  const int64_t nb = args.inputs()[1].ndim();
  std::vector<int64_t> da = args.GetIntList("dims_self").value_or(std::vector<int64_t>{});
  std::vector<int64_t> db = args.GetIntList("dims_other").value_or(std::vector<int64_t>{});
  ProductDims dims;
  std::vector<bool> a_free(na, true), b_free(nb, true);
  for (size_t i = 0; i < da.size() && i < db.size(); ++i) {
    const int64_t a = da[i] < 0 ? da[i] + na : da[i];
    const int64_t b = db[i] < 0 ? db[i] + nb : db[i];
    if (a < 0 || a >= na || b < 0 || b >= nb) continue;
    a_free[a] = b_free[b] = false;
    dims.contracted.push_back({a, b});
  }
  for (int64_t d = 0; d < na; ++d) {
    if (a_free[d]) dims.out_dims.push_back({d, -1});
  }
  for (int64_t d = 0; d < nb; ++d) {
    if (b_free[d]) dims.out_dims.push_back({-1, d});
  }
  return dims;
}

// cdist(x1 [B..., P, M], x2 [B..., R, M], p) -> [B..., P, R]:
// out[b, i, j] = (sum_m |x1[b, i, m] - x2[b, j, m]|^p)^(1/p). Batch dims
// (broadcast like matmul's: a factor broadcasting one is replicated on it)
// and the row dims P (x1) and R (x2) shard through, as for a product. M is
// contracted through a norm, not a sum: S(-1), S(-1) gives each rank the
// norm of its chunk, which combines into the norm only where the norm is
// itself a reduction of per-element terms: p = 1 (sum of |d|) and p = 0
// (count of nonzero d) are sums: P(sum); p = inf (max |d|, and an empty
// chunk gives 0 <= every distance) is a max: P(max); M = 1 makes every
// norm a single |d| that one rank holds while the others give 0: P(sum)
// and P(max) at any p. No Partial input: the norm is not linear in x1 or
// x2. _euclidean_dist is cdist at p = 2 (via matmul of norms).
std::vector<Rule> Cdist(const OpArgs& args) {
  const TensorMeta& x1 = args.inputs()[0];
  const TensorMeta& x2 = args.inputs()[1];
  const TensorMeta& out = args.outputs()[0];
  const double p = args.GetDouble("p").value_or(2.0);
  const int64_t batch = out.ndim() - 2;
  if (batch < 0 || x1.ndim() < 2 || x2.ndim() < 2) return {};
  const Placement r = Placement::Replicate();
  auto batch_dim = [&](const TensorMeta& t, int64_t d) -> int64_t {
    const int64_t td = d - (batch - (t.ndim() - 2));
    return td >= 0 && t.sizes[td] == out.sizes[d] ? td : -1;
  };
  std::vector<Rule> rules;
  for (int64_t d = 0; d < batch; ++d) {
    rules.push_back({{ShardOrR(batch_dim(x1, d)), ShardOrR(batch_dim(x2, d))}, {Placement::Shard(d)}});
  }
  rules.push_back({{Placement::Shard(x1.ndim() - 2), r}, {Placement::Shard(batch)}});
  rules.push_back({{r, Placement::Shard(x2.ndim() - 2)}, {Placement::Shard(batch + 1)}});
  const bool unit_m = x1.sizes.back() == 1;
  const Placement km = Placement::Shard(x1.ndim() - 1);
  const Placement kmo = Placement::Shard(x2.ndim() - 1);
  if (unit_m || p == 0.0 || p == 1.0) rules.push_back({{km, kmo}, {Placement::Partial(ReduceOp::kSum)}});
  if (unit_m || std::isinf(p)) rules.push_back({{km, kmo}, {Placement::Partial(ReduceOp::kMax)}});
  return KeepApplicable(args, std::move(rules));
}

const bool kRegistered = [] {
  for (const PlainOp& op : kPlainOps) {
    StrategyRegistrar(op.overload, [&op](const OpArgs& args) -> absl::StatusOr<std::vector<Rule>> {
      return PlainProduct(args, op.dims(args));
    });
  }
  for (const AddOp& op : kAddOps) {
    StrategyRegistrar(op.overload, [&op](const OpArgs& args) -> absl::StatusOr<std::vector<Rule>> {
      return AddProduct(args, op.dims(args), op.empty_mat_breaks_broadcast);
    });
  }
  StrategyRegistrar("aten::linear", Linear);
  StrategyRegistrar("aten::kron", [](const OpArgs& args) -> absl::StatusOr<std::vector<Rule>> {
    return Kron(args);
  });
  StrategyRegistrar("aten::_addmm_activation", [](const OpArgs& args) -> absl::StatusOr<std::vector<Rule>> {
    return AddmmActivation(args);
  });
  StrategyRegistrar("aten::tensordot", [](const OpArgs& args) -> absl::StatusOr<std::vector<Rule>> {
    return PlainProduct(args, TensordotDims(args));
  });
  for (const char* op : {"aten::cdist", "aten::_cdist_forward", "aten::_euclidean_dist"}) {
    StrategyRegistrar(op, [](const OpArgs& args) -> absl::StatusOr<std::vector<Rule>> { return Cdist(args); });
  }
  StrategyRegistrar("aten::chain_matmul", [](const OpArgs& args) -> absl::StatusOr<std::vector<Rule>> {
    return ChainMatmul(args);
  });
  return true;
}();

}  // namespace
}  // namespace shrt
