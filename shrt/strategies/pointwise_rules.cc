#include "shrt/strategies/pointwise_rules.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "shrt/strategies/partial_algebra.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

// The rule lists of this file, parsed once.
struct SharedLists {
  Rules linear = ParseRules({"P(sum) -> P(sum)", "P(avg) -> P(avg)"});
  Rules increasing = ParseRules({"P(max) -> P(max)", "P(min) -> P(min)"});
  Rules decreasing = ParseRules({"P(max) -> P(min)", "P(min) -> P(max)"});
  Rules multiplicative = ParseRules({"P(product) -> P(product)"});
  Rules identity = Concat({linear, increasing, multiplicative});
  Rules increasing_from_below = ParseRules({"P(min) -> P(min)"});
  Rules decreasing_from_below = ParseRules({"P(min) -> P(max)"});
  // a * x + b * y (TwoTensorAffineRules)
  Rules two_tensor_linear = ParseRules({"P(sum), P(sum) -> P(sum)", "P(avg), P(avg) -> P(avg)",
                                        "P(avg), R -> P(avg)", "R, P(avg) -> P(avg)"});
  Rules self_increasing = ParseRules({"P(max), R -> P(max)", "P(min), R -> P(min)"});
  Rules self_decreasing = ParseRules({"P(max), R -> P(min)", "P(min), R -> P(max)"});
  Rules other_increasing = ParseRules({"R, P(max) -> P(max)", "R, P(min) -> P(min)"});
  Rules other_decreasing = ParseRules({"R, P(max) -> P(min)", "R, P(min) -> P(max)"});
  // Named ops' lists (pointwise_rules.h says why each holds).
  Rules mul = ParseRules({"P(sum), R -> P(sum)", "R, P(sum) -> P(sum)", "P(avg), R -> P(avg)",
                          "R, P(avg) -> P(avg)", "P(product), P(product) -> P(product)"});
  Rules div = ParseRules({"P(sum), R -> P(sum)", "P(avg), R -> P(avg)",
                          "P(product), P(product) -> P(product)"});
  Rules maximum = ParseRules({"P(max), P(max) -> P(max)", "P(max), R -> P(max)",
                              "R, P(max) -> P(max)", "P(min), R -> P(min)", "R, P(min) -> P(min)"});
  Rules minimum = ParseRules({"P(min), P(min) -> P(min)", "P(min), R -> P(min)",
                              "R, P(min) -> P(min)", "P(max), R -> P(max)", "R, P(max) -> P(max)"});
  Rules addcmul = ParseRules({"P(sum), P(sum), R -> P(sum)", "P(sum), R, P(sum) -> P(sum)",
                              "P(avg), P(avg), R -> P(avg)", "P(avg), R, P(avg) -> P(avg)",
                              "P(avg), R, R -> P(avg)",      "R, P(avg), R -> P(avg)",
                              "R, R, P(avg) -> P(avg)",      "P(max), R, R -> P(max)",
                              "P(min), R, R -> P(min)"});
  Rules addcdiv = ParseRules({"P(sum), P(sum), R -> P(sum)", "P(avg), P(avg), R -> P(avg)",
                              "P(avg), R, R -> P(avg)",      "R, P(avg), R -> P(avg)",
                              "P(max), R, R -> P(max)",      "P(min), R, R -> P(min)"});
  Rules avg = ParseRules({"P(avg) -> P(avg)"});
  Rules sum = ParseRules({"P(sum) -> P(sum)"});
};

// On first use: the families' static initialisers, or kParsedAtStartUp
// below, so that a typo fails at start-up either way.
const SharedLists& Lists() {
  static const auto* lists = new SharedLists;
  return *lists;
}

const bool kParsedAtStartUp = (Lists(), true);

// PointwiseShardRules plus the applicable ones of `partial_rules`.
Rules WithShardRules(const OpArgs& args, const Rules& partial_rules) {
  Rules rules = PointwiseShardRules(args);
  Append(rules, KeepApplicable(args, partial_rules));
  return rules;
}

}  // namespace

Rules PointwiseShardRules(const OpArgs& args) {
  Rules rules;
  if (args.outputs().empty()) return rules;
  const TensorMeta& out = args.outputs()[0];
  const size_t n = args.inputs().size();
  for (int64_t d = 0; d < out.ndim(); ++d) {
    // The input dim aligned with output dim d, or -1 where the input
    // broadcasts along d.
    std::vector<int64_t> aligned(n, -1);
    std::vector<size_t> optional;  // size-1 inputs on a size-1 output dim
    for (size_t i = 0; i < n; ++i) {
      const TensorMeta& in = args.inputs()[i];
      const int64_t a = d - (out.ndim() - in.ndim());
      if (a >= 0 && in.sizes[a] == out.sizes[d]) aligned[i] = a;
      if (aligned[i] >= 0 && out.sizes[d] == 1) optional.push_back(i);
    }
    // On a size-1 output dim, a size-1 input may be sharded (rank 0 holds it)
    // or replicated (it broadcasts against the empty chunks): every
    // non-empty subset of them sharded is a rule.
    const size_t variants = optional.empty() ? 1 : (size_t{1} << optional.size()) - 1;
    for (size_t v = 0; v < variants; ++v) {
      std::vector<int64_t> dims = aligned;
      for (size_t j = 0; j < optional.size(); ++j) {
        if (!(((v + 1) >> j) & 1)) dims[optional[j]] = -1;
      }
      Rule rule;
      for (int64_t a : dims) {
        rule.inputs.push_back(a >= 0 ? Placement::Shard(a) : Placement::Replicate());
      }
      rule.outputs.assign(args.outputs().size(), Placement::Shard(d));
      rules.push_back(std::move(rule));
    }
  }
  return rules;
}

Rules ParseRules(std::initializer_list<absl::string_view> texts, StrategyRegistry& registry) {
  Rules rules;
  for (absl::string_view text : texts) {
    absl::StatusOr<Rule> rule = ParseRule(text);
    if (rule.ok()) {
      rules.push_back(*std::move(rule));
    } else {
      registry.RecordError(absl::InvalidArgumentError(
          absl::StrCat("pointwise rule '", text, "': ", rule.status().message())));
    }
  }
  return rules;
}

Rules Concat(std::initializer_list<Rules> parts) {
  Rules out;
  for (const Rules& part : parts) out.insert(out.end(), part.begin(), part.end());
  return out;
}

void Append(Rules& rules, const Rules& more) {
  rules.insert(rules.end(), more.begin(), more.end());
}

const Rules& LinearRules() { return Lists().linear; }
const Rules& IncreasingRules() { return Lists().increasing; }
const Rules& DecreasingRules() { return Lists().decreasing; }
const Rules& MultiplicativeRules() { return Lists().multiplicative; }
const Rules& IdentityRules() { return Lists().identity; }
bool NanFree(const OpArgs& args) {
  for (const TensorMeta& t : args.inputs()) {
    if (c10::isFloatingType(t.dtype) || c10::isComplexType(t.dtype)) return false;
  }
  return true;
}

const Rules& IncreasingFromBelowRules() { return Lists().increasing_from_below; }
const Rules& DecreasingFromBelowRules() { return Lists().decreasing_from_below; }

const Rules& MulRules() { return Lists().mul; }
const Rules& DivRules() { return Lists().div; }
const Rules& MaximumRules() { return Lists().maximum; }
const Rules& MinimumRules() { return Lists().minimum; }
const Rules& AddcmulRules() { return Lists().addcmul; }
const Rules& AddcdivRules() { return Lists().addcdiv; }

Rules ScalarAffineRules(double a, double b) {
  const SharedLists& l = Lists();
  Rules out = l.avg;
  if (b == 0) Append(out, l.sum);
  if (a == 1 && b == 0) Append(out, l.multiplicative);  // the identity
  if (a >= 0) Append(out, l.increasing);
  if (a <= 0) Append(out, l.decreasing);
  return out;
}

Rules ClampScalarRules(std::optional<double> lo, std::optional<double> hi, bool nan_free) {
  if (!lo.has_value() || !hi.has_value() || !(*lo > *hi)) return IncreasingRules();
  Rules out;
  for (ReduceOp in : kAllReduceOps) {
    if (nan_free) out.push_back({{Placement::Partial(in)}, {Placement::Replicate()}});
    for (ReduceOp op : kAllReduceOps) {
      if (ConstantKeeps(*hi, op)) out.push_back({{Placement::Partial(in)}, {Placement::Partial(op)}});
    }
  }
  return out;
}

Rules ConstantRules(std::optional<double> c) {
  Rules out;
  for (ReduceOp in : kAllReduceOps) {
    out.push_back({{Placement::Partial(in)}, {Placement::Replicate()}});
    for (ReduceOp op : kAllReduceOps) {
      if (ConstantKeeps(c, op)) out.push_back({{Placement::Partial(in)}, {Placement::Partial(op)}});
    }
  }
  // R -> P(avg|max|min) is degenerate; sum and product need c's value.
  for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kProduct}) {
    if (ConstantKeeps(c, op)) out.push_back({{Placement::Replicate()}, {Placement::Partial(op)}});
  }
  return out;
}

Rules TwoTensorAffineRules(double a, double b) {
  const SharedLists& l = Lists();
  Rules out = l.two_tensor_linear;
  if (a >= 0) Append(out, l.self_increasing);
  if (a <= 0) Append(out, l.self_decreasing);
  if (b >= 0) Append(out, l.other_increasing);
  if (b <= 0) Append(out, l.other_decreasing);
  return out;
}

bool RegisterPointwiseOps(std::vector<PointwiseOp> ops, StrategyRegistry& registry) {
  for (PointwiseOp& op : ops) {
    Strategy strategy;
    if (op.from_args != nullptr) {
      strategy = [fn = op.from_args](const OpArgs& args) -> absl::StatusOr<Rules> {
        return WithShardRules(args, fn(args));
      };
    } else {
      strategy = [rules = std::move(op.fixed)](const OpArgs& args) -> absl::StatusOr<Rules> {
        return WithShardRules(args, rules);
      };
    }
    StrategyRegistrar(op.overload, std::move(strategy), registry);
  }
  return true;
}

absl::StatusOr<Rules> ApplicableRules(const OpArgs& args,
                                      absl::Span<const absl::string_view> rules) {
  Rules parsed;
  for (absl::string_view text : rules) {
    absl::StatusOr<Rule> rule = ParseRule(text);
    if (!rule.ok()) return rule.status();
    parsed.push_back(*std::move(rule));
  }
  return KeepApplicable(args, std::move(parsed));
}

absl::StatusOr<Rules> PointwiseRules(const OpArgs& args,
                                     absl::Span<const absl::string_view> partial_rules) {
  absl::StatusOr<Rules> partial = ApplicableRules(args, partial_rules);
  if (!partial.ok()) return partial.status();
  return WithShardRules(args, *partial);
}

}  // namespace shrt
