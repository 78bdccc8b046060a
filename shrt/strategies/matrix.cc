// Strategies for matrix products: mm, bmm, mv, dot, vdot, outer, ger, inner,
// matmul, chain_matmul, kron, linear without bias (P = A @ B) and the fused
// beta * self + alpha * (A @ B) forms addmm, addmv, baddbmm, addbmm, addr,
// linear with bias.
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
#include <optional>
#include <utility>
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
    std::vector<Placement> self_options;
    if (p.out.is_shard()) {
      const int64_t d = p.out.dim();
      const int64_t a = d - (out.ndim() - self.ndim());
      const bool aligned = a >= 0 && self.sizes[a] == out.sizes[d];
      if (aligned) self_options.push_back(Placement::Shard(a));
      if (!aligned || out.sizes[d] == 1) self_options.push_back(r);
    } else if (p.out.reduce_op() == ReduceOp::kSum) {
      self_options.push_back(p.out);
    } else {  // P(avg)
      self_options.push_back(p.out);
      self_options.push_back(r);
    }
    for (const Placement& s : self_options) rules.push_back(AddRule(order, s, p.a, p.b, p.out));
  }
  // The product replicated, self partial.
  const Placement avg = Placement::Partial(ReduceOp::kAvg);
  const Placement max = Placement::Partial(ReduceOp::kMax);
  const Placement min = Placement::Partial(ReduceOp::kMin);
  rules.push_back(AddRule(order, avg, r, r, avg));
  if (beta >= 0) {
    rules.push_back(AddRule(order, max, r, r, max));
    rules.push_back(AddRule(order, min, r, r, min));
  }
  if (beta <= 0) {
    rules.push_back(AddRule(order, max, r, r, min));
    rules.push_back(AddRule(order, min, r, r, max));
  }
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
  StrategyRegistrar("aten::chain_matmul", [](const OpArgs& args) -> absl::StatusOr<std::vector<Rule>> {
    return ChainMatmul(args);
  });
  return true;
}();

}  // namespace
}  // namespace shrt
