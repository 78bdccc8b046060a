// Strategies for matrix products: mm, bmm, mv, dot (P = A @ B) and the
// fused beta * self + alpha * (A @ B) forms addmm, addmv, baddbmm.
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
// addmv_, baddbmm_), which keep the rules whose output placement equals
// self's.
//
// When the contracted dim has size 1 the product is an outer product,
// elementwise multiplicative in each factor: P(product), P(product) ->
// P(product) (mm, bmm, mv, dot; not with an added self).
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
  int64_t a_k;
  int64_t b_k;
};

const ProductDims kMm{{{0, -1}, {-1, 1}}, 1, 0};
const ProductDims kBmm{{{0, 0}, {1, -1}, {-1, 2}}, 2, 1};
const ProductDims kMv{{{0, -1}}, 1, 0};
const ProductDims kDot{{}, 0, 0};

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
  rules.push_back({Placement::Shard(dims.a_k), Placement::Shard(dims.b_k), sum});
  rules.push_back({sum, r, sum});
  rules.push_back({r, sum, sum});
  rules.push_back({avg, r, avg});
  rules.push_back({r, avg, avg});
  return rules;
}

// mm, bmm, mv, dot: inputs (A, B), one output.
std::vector<Rule> PlainProduct(const OpArgs& args, const ProductDims& dims) {
  std::vector<Rule> rules;
  for (const ProductRule& p : ProductRules(dims)) rules.push_back({{p.a, p.b}, {p.out}});
  const TensorMeta& a = args.inputs()[0];
  if (dims.a_k < a.ndim() && a.sizes[dims.a_k] == 1) {
    const Placement prod = Placement::Partial(ReduceOp::kProduct);
    rules.push_back({{prod, prod}, {prod}});
  }
  return KeepApplicable(args, std::move(rules));
}

// addmm, addmv, baddbmm: inputs (self, A, B), one output.
std::vector<Rule> AddProduct(const OpArgs& args, const ProductDims& dims,
                             bool empty_mat_breaks_broadcast) {
  const double beta = args.GetDouble("beta").value_or(1.0);
  const TensorMeta& self = args.inputs()[0];
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
    for (const Placement& s : self_options) rules.push_back({{s, p.a, p.b}, {p.out}});
  }
  // The product replicated, self partial.
  const Placement avg = Placement::Partial(ReduceOp::kAvg);
  const Placement max = Placement::Partial(ReduceOp::kMax);
  const Placement min = Placement::Partial(ReduceOp::kMin);
  rules.push_back({{avg, r, r}, {avg}});
  if (beta >= 0) {
    rules.push_back({{max, r, r}, {max}});
    rules.push_back({{min, r, r}, {min}});
  }
  if (beta <= 0) {
    rules.push_back({{max, r, r}, {min}});
    rules.push_back({{min, r, r}, {max}});
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

struct PlainOp {
  const char* overload;
  const ProductDims* dims;
};

constexpr PlainOp kPlainOps[] = {
    {"aten::mm", &kMm},
    {"aten::bmm", &kBmm},
    {"aten::mv", &kMv},
    {"aten::dot", &kDot},
};

struct AddOp {
  const char* overload;
  const ProductDims* dims;
  bool empty_mat_breaks_broadcast;  // the addmv quirk above
};

constexpr AddOp kAddOps[] = {
    {"aten::addmm", &kMm, false},
    {"aten::addmv", &kMv, true},
    {"aten::baddbmm", &kBmm, false},
};

const bool kRegistered = [] {
  for (const PlainOp& op : kPlainOps) {
    StrategyRegistrar(op.overload, [&op](const OpArgs& args) -> absl::StatusOr<std::vector<Rule>> {
      return PlainProduct(args, *op.dims);
    });
  }
  for (const AddOp& op : kAddOps) {
    StrategyRegistrar(op.overload, [&op](const OpArgs& args) -> absl::StatusOr<std::vector<Rule>> {
      return AddProduct(args, *op.dims, op.empty_mat_breaks_broadcast);
    });
  }
  return true;
}();

}  // namespace
}  // namespace shrt
