// Strategies for matrix products: mm, bmm, mv, dot, vdot, outer, ger, inner,
// matmul, chain_matmul, kron, linear without bias (P = A @ B) and the fused
// beta * self + alpha * (A @ B) forms addmm, addmv, baddbmm, addbmm, addr,
// linear with bias; and, in their own sections below (each with its
// algebra): _addmm_activation (addmm then relu/gelu), tensordot, bilinear,
// einsum (a small equation parser), cdist / _cdist_forward /
// _euclidean_dist. linear_backward is not here: libtorch 1.13 has no CPU
// kernel for it (NestedTensor and MPS only), so it cannot be executed.
//
// Product rules (DTensor's _matrix_ops.py, from the einsum view of A @ B):
//   - an output dim that A (and/or B) carries shards through: A and B are
//     sharded on that dim where they have it, replicated where they do not
//     (mm: S(0), R -> S(0); R, S(1) -> S(1); bmm's batch: S(0), S(0) -> S(0));
//   - the contracted dim sharded on both gives the local partial sums:
//     S(k_A), S(k_B) -> P(sum) (a rank past the end contracts an empty
//     chunk and contributes zeros);
//   - the product is bilinear: P(sum), R -> P(sum), R, P(sum) -> P(sum),
//     and the same with P(avg).
//   No rule holds for P(max|min|product): a sum of products is not monotone
//   or multiplicative in one factor.
//
// With self (out = beta * self + alpha * P, self broadcast to P's shape):
//   - shard rules: self follows the output dim where it has that dim with
//     the output's size, and is replicated where it broadcasts (both work
//     on a size-1 output dim);
//   - P(sum) product: the per-rank results sum to beta * sum(self_r) +
//     alpha * P, so self must be P(sum) too (a replicated self would be
//     counted W times);
//   - P(avg) product: the mean over ranks is beta * mean(self_r) + alpha *
//     P, so self may be P(avg) or R;
//   - product replicated: beta * self_r + alpha * P is affine in self_r:
//     P(avg) -> P(avg); increasing when beta > 0 (P(max) -> P(max),
//     P(min) -> P(min)), decreasing when beta < 0 (P(max) -> P(min), ...).
//     P(sum) self alone would count alpha * P W times: not claimed.
// The registry derives the out= forms and the in-place forms (addmm_,
// addmv_, baddbmm_, addbmm_, addr_), which keep the rules whose output placement equals
// self's.
//
// When every contracted dim has size 1 (or none is contracted) the product
// is an outer product, elementwise multiplicative in each factor:
// P(product), P(product) -> P(product) (mm, bmm, mv, dot, outer, inner,
// matmul, linear without bias; not with an added self).
//
// More ops with the same algebra (each is A @ B, or beta * self + alpha *
// (A @ B), with its own dim structure). These are the rules of DTensor's
// gen_einsum_strategies (torch/distributed/tensor/_ops/_einsum_strategy.py,
// which _matrix_ops.py builds mm/bmm/addmm/baddbmm from) applied to each
// op's einsum; DTensor reaches matmul, linear, inner, outer and kron through
// their CompositeImplicitAutograd decompositions into those ops:
//   - addbmm: sum_b batch1[b] @ batch2[b] contracts two dims, the batch dim
//     and k; each sharded on both factors gives P(sum) (S(0), S(0) and
//     S(2), S(1)); self is handled like addmm's (the rules above);
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
//
// libtorch 1.13 quirk: addmv with an empty local mat (a rank past the end of
// a sharded dim of mat) returns beta * self in self's own shape instead of
// broadcasting it to the (empty) output, so a rule that shards mat needs a
// self of the local output's shape on every rank: sharded with the output
// (S(0)), or full-shaped when the output is Partial. Some world size always
// leaves a rank with an empty chunk. Seen as `R, S(0), R -> S(0)` giving
// shape [1] instead of [0] on rank 3 of 4 for self [1], mat [6, 1].
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "shrt/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

// The dim structure of A @ B: for each output dim, the dim of A and of B
// that carries it (-1 where that factor lacks it), and the contracted dims.
struct ProductDims {
  std::vector<std::pair<int64_t, int64_t>> out_dims;
  // Pairs (dim of A, dim of B) summed over; empty for an outer product.
  std::vector<std::pair<int64_t, int64_t>> contracted;
};

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

Placement ShardOrR(int64_t dim) { return dim >= 0 ? Placement::Shard(dim) : Placement::Replicate(); }

// One rule of the product alone: placements of A, B and the output.
struct ProductRule {
  Placement a, b, out;
};

std::vector<ProductRule> ProductRules(const ProductDims& dims) {
  std::vector<ProductRule> rules;
  for (size_t d = 0; d < dims.out_dims.size(); ++d) {
    rules.push_back({ShardOrR(dims.out_dims[d].first), ShardOrR(dims.out_dims[d].second),
                     Placement::Shard(static_cast<int64_t>(d))});
  }
  const Placement sum = Placement::Partial(ReduceOp::kSum);
  const Placement avg = Placement::Partial(ReduceOp::kAvg);
  const Placement r = Placement::Replicate();
  for (const auto& [a_k, b_k] : dims.contracted) {
    rules.push_back({Placement::Shard(a_k), Placement::Shard(b_k), sum});
  }
  rules.push_back({sum, r, sum});
  rules.push_back({r, sum, sum});
  rules.push_back({avg, r, avg});
  rules.push_back({r, avg, avg});
  return rules;
}

// mm, bmm, mv, dot, ...: inputs (A, B), one output.
std::vector<Rule> PlainProduct(const OpArgs& args, const ProductDims& dims) {
  std::vector<Rule> rules;
  for (const ProductRule& p : ProductRules(dims)) rules.push_back({{p.a, p.b}, {p.out}});
  const TensorMeta& a = args.inputs()[0];
  const bool unit_contraction =
      std::all_of(dims.contracted.begin(), dims.contracted.end(),
                  [&](const std::pair<int64_t, int64_t>& k) { return k.first < a.ndim() && a.sizes[k.first] == 1; });
  if (unit_contraction) {
    const Placement prod = Placement::Partial(ReduceOp::kProduct);
    rules.push_back({{prod, prod}, {prod}});
  }
  return KeepApplicable(args, std::move(rules));
}

// The placements of self (broadcast to the output `out`) that go with a
// product placed `prod` in beta * self + alpha * product.
std::vector<Placement> SelfOptions(const TensorMeta& self, const TensorMeta& out, const Placement& prod) {
  std::vector<Placement> options;
  if (prod.is_shard()) {
    const int64_t d = prod.dim();
    const int64_t a = d - (out.ndim() - self.ndim());
    const bool aligned = a >= 0 && self.sizes[a] == out.sizes[d];
    if (aligned) options.push_back(Placement::Shard(a));
    if (!aligned || out.sizes[d] == 1) options.push_back(Placement::Replicate());
  } else if (prod.reduce_op() == ReduceOp::kSum) {
    options.push_back(prod);
  } else {  // P(avg)
    options.push_back(prod);
    options.push_back(Placement::Replicate());
  }
  return options;
}

// (self, output) placements with the product replicated: beta * self + c
// is affine in self.
std::vector<std::pair<Placement, Placement>> SelfPartialRules(double beta) {
  const Placement avg = Placement::Partial(ReduceOp::kAvg);
  const Placement max = Placement::Partial(ReduceOp::kMax);
  const Placement min = Placement::Partial(ReduceOp::kMin);
  std::vector<std::pair<Placement, Placement>> rules = {{avg, avg}};
  if (beta >= 0) {
    rules.push_back({max, max});
    rules.push_back({min, min});
  }
  if (beta <= 0) {
    rules.push_back({max, min});
    rules.push_back({min, max});
  }
  return rules;
}

// Where self, A and B sit among the inputs of an op with self.
struct AddOrder {
  size_t self, a, b;
};
constexpr AddOrder kSelfFirst{0, 1, 2};  // addmm(self, mat1, mat2), ...
constexpr AddOrder kBiasLast{2, 0, 1};   // linear(input, weight, bias)

// A rule of inputs (self, A, B) in the op's input order.
Rule AddRule(const AddOrder& order, const Placement& s, const Placement& a, const Placement& b,
             const Placement& out) {
  std::vector<Placement> in(3, Placement::Replicate());
  in[order.self] = s;
  in[order.a] = a;
  in[order.b] = b;
  return {std::move(in), {out}};
}

// addmm, addmv, baddbmm, addbmm, addr, linear: inputs self, A, B (in
// `order`), one output.
std::vector<Rule> AddProduct(const OpArgs& args, const ProductDims& dims,
                             bool empty_mat_breaks_broadcast, const AddOrder& order = kSelfFirst) {
  const double beta = args.GetDouble("beta").value_or(1.0);
  const TensorMeta& self = args.inputs()[order.self];
  const TensorMeta& out = args.outputs()[0];
  const Placement r = Placement::Replicate();
  std::vector<Rule> rules;
  for (const ProductRule& p : ProductRules(dims)) {
    for (const Placement& s : SelfOptions(self, out, p.out)) rules.push_back(AddRule(order, s, p.a, p.b, p.out));
  }
  // The product replicated, self partial.
  for (const auto& [s, o] : SelfPartialRules(beta)) rules.push_back(AddRule(order, s, r, r, o));
  if (empty_mat_breaks_broadcast) {
    // A rank's self must have the shape of its local output whenever its
    // mat may be empty: self sharded with the output, or full-shaped.
    const bool full_self = self.sizes == out.sizes;
    rules.erase(std::remove_if(rules.begin(), rules.end(),
                               [&](const Rule& rule) {
                                 if (!rule.inputs[1].is_shard()) return false;
                                 if (rule.outputs[0].is_shard()) return !rule.inputs[0].is_shard();
                                 return !full_self;
                               }),
                rules.end());
  }
  return KeepApplicable(args, std::move(rules));
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
  bool empty_mat_breaks_broadcast;  // the addmv quirk above
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

// bilinear(x1 [..., i], x2 [..., j], W [o, i, j], bias? [o]):
// y[..., o] = sum_ij x1[..., i] W[o, i, j] x2[..., j] + bias[o], trilinear
// in (x1, x2, W) (einsum "...i,oij,...j->...o"): batch dims shard x1 and
// x2 together, o shards W (bias sharded with it: bilinear checks
// bias.size(0) == weight.size(0) on each rank); P(sum|avg) on one of the
// three, the others R; bias is
// added with beta = 1 (SelfOptions, SelfPartialRules). Without bias and
// with i = j = 1 each output element is one product x1 * W * x2:
// P(product) on all three. Not claimed: i (or j) sharded on W and x1 (or
// x2), the local partial sums of the contraction, which DTensor's einsum
// view would give P(sum): libtorch 1.13's _trilinear raises on an empty
// chunk of a contracted dim ("cannot reshape tensor of 0 elements into
// shape [-1, 0]"), and every size has a world size leaving one rank empty.
std::vector<Rule> Bilinear(const OpArgs& args) {
  const std::vector<TensorMeta>& in = args.inputs();
  const TensorMeta& out = args.outputs()[0];
  const int64_t n = in[0].ndim();
  const bool has_bias = in.size() == 4;
  const Placement r = Placement::Replicate();
  const Placement sum = Placement::Partial(ReduceOp::kSum);
  const Placement avg = Placement::Partial(ReduceOp::kAvg);
  struct Tri {
    Placement x1, x2, w, out;
  };
  std::vector<Tri> tri;
  for (int64_t d = 0; d + 1 < n; ++d) tri.push_back({Placement::Shard(d), Placement::Shard(d), r, Placement::Shard(d)});
  tri.push_back({r, r, Placement::Shard(0), Placement::Shard(n - 1)});
  for (const Placement& p : {sum, avg}) {
    tri.push_back({p, r, r, p});
    tri.push_back({r, p, r, p});
    tri.push_back({r, r, p, p});
  }
  std::vector<Rule> rules;
  for (const Tri& t : tri) {
    if (!has_bias) {
      rules.push_back({{t.x1, t.x2, t.w}, {t.out}});
      continue;
    }
    // bilinear requires bias.size(0) == weight.size(0): with W sharded,
    // bias is sharded with it (no broadcast of a replicated [1] bias).
    const bool w_sharded = t.w.is_shard();
    for (const Placement& b : SelfOptions(in[3], out, t.out)) {
      if (!w_sharded || b.is_shard()) rules.push_back({{t.x1, t.x2, t.w, b}, {t.out}});
    }
  }
  if (has_bias) {
    for (const auto& [b, o] : SelfPartialRules(1.0)) rules.push_back({{r, r, r, b}, {o}});
  } else if (in[2].ndim() == 3 && in[2].sizes[1] == 1 && in[2].sizes[2] == 1) {
    const Placement prod = Placement::Partial(ReduceOp::kProduct);
    rules.push_back({{prod, prod, prod}, {prod}});
  }
  return KeepApplicable(args, std::move(rules));
}

// einsum(equation, operands): the equation "ab,bc->ac" parsed into one
// letter string per operand and the output's (implicit form "ab,bc": the
// letters used once, sorted). Ellipses ("...") are not parsed: no rules.
struct EinsumEq {
  std::vector<std::string> operands;
  std::string output;
};

std::optional<EinsumEq> ParseEinsum(const std::string& equation) {
  std::string eq;
  for (char c : equation) {
    if (c != ' ') eq += c;
  }
  if (eq.find('.') != std::string::npos) return std::nullopt;
  const size_t arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  EinsumEq parsed;
  size_t start = 0;
  while (true) {
    const size_t comma = lhs.find(',', start);
    parsed.operands.push_back(lhs.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (arrow != std::string::npos) {
    parsed.output = eq.substr(arrow + 2);
  } else {
    for (char c : std::string(lhs)) {
      if (c != ',' && std::count(lhs.begin(), lhs.end(), c) == 1) parsed.output += c;
    }
    std::sort(parsed.output.begin(), parsed.output.end());
  }
  return parsed;
}

// The rules of DTensor's gen_einsum_strategies (_einsum_strategy.py) for
// one equation: a letter kept on the output shards it, every operand that
// has the letter at its full size sharded on it and the others (lacking it
// or broadcasting it from size 1) replicated; a summed letter sharded the
// same way gives P(sum) (each rank sums its chunk; a rank past the end sums
// nothing: zeros). A letter an operand repeats (a diagonal, "ii") would
// need two shard dims on it: no rule. The result is multilinear in the
// operands: P(sum|avg) on one, the others R. When every summed letter has
// size 1 each output element is one product of one element per operand:
// P(product) on all; with one operand it is then a copy (permutation,
// diagonal), so P(max|min) carry through too.
std::vector<Rule> Einsum(const OpArgs& args) {
  const ArgValue* eq_arg = args.Find("equation");
  if (eq_arg == nullptr || !std::holds_alternative<std::string>(*eq_arg)) return {};
  const std::optional<EinsumEq> eq = ParseEinsum(std::get<std::string>(*eq_arg));
  const std::vector<TensorMeta>& in = args.inputs();
  if (!eq || eq->operands.size() != in.size()) return {};
  const size_t n = in.size();
  for (size_t i = 0; i < n; ++i) {
    if (static_cast<int64_t>(eq->operands[i].size()) != in[i].ndim()) return {};
  }
  // Each letter's full size: the largest over its occurrences.
  auto letter_size = [&](char c) {
    int64_t size = 1;
    for (size_t i = 0; i < n; ++i) {
      for (size_t d = 0; d < eq->operands[i].size(); ++d) {
        if (eq->operands[i][d] == c) size = std::max(size, in[i].sizes[d]);
      }
    }
    return size;
  };
  // Operand placements for sharding letter c, or nullopt if one repeats it.
  auto shard_on = [&](char c) -> std::optional<std::vector<Placement>> {
    const int64_t size = letter_size(c);
    std::vector<Placement> placements(n, Placement::Replicate());
    for (size_t i = 0; i < n; ++i) {
      const std::string& ops = eq->operands[i];
      const auto count = std::count(ops.begin(), ops.end(), c);
      if (count > 1) return std::nullopt;
      if (count == 0) continue;
      const int64_t d = static_cast<int64_t>(ops.find(c));
      if (in[i].sizes[d] == size) placements[i] = Placement::Shard(d);
    }
    return placements;
  };
  std::vector<Rule> rules;
  std::string letters;
  for (const std::string& ops : eq->operands) letters += ops;
  std::sort(letters.begin(), letters.end());
  letters.erase(std::unique(letters.begin(), letters.end()), letters.end());
  bool unit_sums = true;
  for (char c : letters) {
    const size_t o = eq->output.find(c);
    if (o == std::string::npos && letter_size(c) != 1) unit_sums = false;
    std::optional<std::vector<Placement>> placements = shard_on(c);
    if (!placements) continue;
    const Placement out =
        o == std::string::npos ? Placement::Partial(ReduceOp::kSum) : Placement::Shard(static_cast<int64_t>(o));
    rules.push_back({std::move(*placements), {out}});
  }
  std::vector<ReduceOp> linear = {ReduceOp::kSum, ReduceOp::kAvg};
  if (n == 1 && unit_sums) {
    linear.push_back(ReduceOp::kMax);
    linear.push_back(ReduceOp::kMin);
  }
  for (ReduceOp op : linear) {
    for (size_t i = 0; i < n; ++i) {
      std::vector<Placement> placements(n, Placement::Replicate());
      placements[i] = Placement::Partial(op);
      rules.push_back({std::move(placements), {Placement::Partial(op)}});
    }
  }
  if (unit_sums) {
    const Placement prod = Placement::Partial(ReduceOp::kProduct);
    rules.push_back({std::vector<Placement>(n, prod), {prod}});
  }
  return KeepApplicable(args, std::move(rules));
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
  StrategyRegistrar("aten::bilinear", [](const OpArgs& args) -> absl::StatusOr<std::vector<Rule>> {
    return Bilinear(args);
  });
  StrategyRegistrar("aten::einsum", [](const OpArgs& args) -> absl::StatusOr<std::vector<Rule>> {
    return Einsum(args);
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
