// Strategies of the matrix family for multilinear maps written as an
// einsum (the rest of the family: matrix.cc): bilinear, the einsum
// "...i,oij,...j->...o" of (x1, x2, W), and einsum itself, whose rules are
// DTensor's gen_einsum_strategies for the parsed equation. bilinear's bias
// is added as a product's self (matrix_product.h).
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "shrt/strategies/matrix_product.h"
#include "shrt/strategies/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

using matrix_internal::SelfOptions;
using matrix_internal::SelfPartialRules;

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

const bool kRegistered = [] {
  StrategyRegistrar("aten::bilinear", [](const OpArgs& args) -> absl::StatusOr<std::vector<Rule>> {
    return Bilinear(args);
  });
  StrategyRegistrar("aten::einsum", [](const OpArgs& args) -> absl::StatusOr<std::vector<Rule>> {
    return Einsum(args);
  });
  return true;
}();

}  // namespace
}  // namespace shrt
