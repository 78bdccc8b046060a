#include "shrt/strategies/matrix_product.h"

#include <algorithm>
#include <utility>

#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace matrix_internal {
namespace {

// One rule of the product alone: placements of A, B and the output.
struct ProductRule {
  Placement a, b, out;
};

// The product rules (matrix_product.h) of `dims`.
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

// A rule of inputs (self, A, B) in the op's input order.
Rule AddRule(const AddOrder& order, const Placement& s, const Placement& a, const Placement& b,
             const Placement& out) {
  std::vector<Placement> in(3, Placement::Replicate());
  in[order.self] = s;
  in[order.a] = a;
  in[order.b] = b;
  return {std::move(in), {out}};
}

}  // namespace

Placement ShardOrR(int64_t dim) { return dim >= 0 ? Placement::Shard(dim) : Placement::Replicate(); }

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

std::vector<Rule> AddProduct(const OpArgs& args, const ProductDims& dims,
                             bool empty_mat_breaks_broadcast, const AddOrder& order) {
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

}  // namespace matrix_internal
}  // namespace shrt
