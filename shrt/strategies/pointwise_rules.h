// The rule builder shared by pointwise operators (elementwise, with NumPy
// broadcasting): the shard rules every pointwise op has, plus the Partial
// rules each op's algebra justifies, given by the op's row in its family's
// table.
//
// Shard rules (DTensor's pointwise_strategy does the same on one mesh dim):
// for each output dim d, the output is S(d), every input whose
// right-aligned dim has the output's size is sharded on that dim, and every
// input that broadcasts along d (dim missing, or size 1 against a larger
// output) stays R. On a size-1 output dim, size-1 inputs may be either: every
// non-empty subset of them sharded gives a rule.
//
// A family's table has one row per functional overload: the overload and
// its Partial rules, either a fixed list or a function of the op's
// non-tensor arguments (for ops whose algebra depends on a Scalar). The
// registry derives the in-place and out= variants from the row
// (registry.h): the rules of an in-place variant are those whose output 0
// keeps self's placement, so a row lists what the algebra allows for a
// fresh result, with the variant's own dtypes (a bool result drops Partial
// outputs; an in-place comparison writes self's dtype).
//
// Rule text is parsed once, when a family's library initialises: lists are
// built with ParseRules, which records a text that does not parse with the
// registry, whose Check() then fails at start-up; functions of the
// arguments return such lists or combine them (Concat), never new text.
#ifndef SHRT_STRATEGIES_POINTWISE_RULES_H_
#define SHRT_STRATEGIES_POINTWISE_RULES_H_

#include <initializer_list>
#include <optional>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "shrt/ops/op_args.h"
#include "shrt/strategies/registry.h"
#include "shrt/vocab/placement.h"

namespace shrt {

using Rules = std::vector<Rule>;

// The shard rules described above, for output 0 of `args`.
Rules PointwiseShardRules(const OpArgs& args);

// Parses each of `texts` ("P(sum), R -> P(sum)"); meant to initialise a
// constant, so that it runs once. A text that does not parse is left out
// and its error recorded in `registry`, whose Check() reports it.
Rules ParseRules(std::initializer_list<absl::string_view> texts,
                 StrategyRegistry& registry = StrategyRegistry::Global());

// `parts`, one after the other.
Rules Concat(std::initializer_list<Rules> parts);
// Appends `more` to `rules`.
void Append(Rules& rules, const Rules& more);

// True when no tensor input of `args` can hold nan or inf: every one is of
// an integer dtype or bool. Rules that nan breaks (an op that maps nan to
// a number: fmax, sign, gt; a nan held on one rank of a Partial(max) with
// finite parts on the others) hold there.
bool NanFree(const OpArgs& args);

// Partial rule lists common to one-tensor maps f, parsed once:
const Rules& LinearRules();          // P(sum) -> P(sum), P(avg) -> P(avg)
const Rules& IncreasingRules();      // P(max) -> P(max), P(min) -> P(min)
const Rules& DecreasingRules();      // P(max) -> P(min), P(min) -> P(max)
const Rules& MultiplicativeRules();  // P(product) -> P(product)
const Rules& IdentityRules();        // P(op) -> P(op) for every reduce op
// Maps defined on a half-line x >= c (sqrt, log): only P(min) parts, each
// >= x, stay in the domain.
const Rules& IncreasingFromBelowRules();  // P(min) -> P(min)
const Rules& DecreasingFromBelowRules();  // P(min) -> P(max)

// The Partial rules of clamp(x, lo, hi) = min(max(x, lo), hi) with scalar
// bounds, either absent (nullopt), as clamp, clip and hardtanh compute it
// (aten/src/ATen/native/cpu/UnaryOpsKernel.cpp clamp_scalar_kernel_impl,
// hardtanh's kernel is clamp's): non-decreasing in x (IncreasingRules)
// while lo <= hi. With lo > hi every finite or infinite x gives hi (max
// first, then min; torch.clamp's documentation: "If min is greater than
// max ... sets all elements in input to the value of max"), a constant, so
// P(any) -> P(avg|max|min), and P(any) -> P(sum|product) where hi keeps
// that reduction (partial_algebra.h ConstantKeeps). nan stays nan, so
// P(any) -> R holds only when no input can hold nan (`nan_free`, NanFree):
// a nan held on one rank gives nan there and hi on the others.
Rules ClampScalarRules(std::optional<double> lo, std::optional<double> hi, bool nan_free);

// The Partial rules of a map whose output is the constant `c` whatever its
// one tensor input holds, nan and inf included (zeros_like, a polynomial of
// negative degree): every rank writes c, so P(any) -> R, P(any) -> P(op)
// for every op that keeps c (partial_algebra.h ConstantKeeps; `c` nullopt
// when unknown: avg, max and min only), and R -> P(sum|product) when c
// keeps it (R -> P(avg|max|min) is degenerate). The shard rules are the
// caller's.
Rules ConstantRules(std::optional<double> c);

// The Partial rules of a * x + b * y, two tensors with broadcasting:
// linear in both (P(sum) and P(avg) on both), affine in each (P(avg) on one,
// the other R), and monotone in each by the sign of its coefficient
// (P(max)/P(min) on one, the other R: kept for a >= 0, swapped for a <= 0).
Rules TwoTensorAffineRules(double a, double b);

// The Partial rules of the one-tensor affine map a * x + b: P(avg) always
// (the mean of a * p_r + b is a * x + b), P(sum) iff b == 0, P(product) for
// the identity, monotone by the sign of a.
Rules ScalarAffineRules(double a, double b);

// Partial rule lists of named ops whose algebra several families share
// (binary.cc and ternary.cc derive them; foreach.cc applies them per list
// position, clamp.cc reuses max/min):
const Rules& MulRules();      // x * y: bilinear, and multiplicative in both
const Rules& DivRules();      // x / y: linear in x off zero divisors (DTensor claims
                              // P(sum), R -> P(sum) too), multiplicative in both
const Rules& MaximumRules();  // max(x, y): commutes with max over ranks, non-decreasing in each
const Rules& MinimumRules();  // min(x, y): the mirror
const Rules& AddcmulRules();  // self + v * t1 * t2: linear in (self, t1) and (self, t2)
const Rules& AddcdivRules();  // self + v * t1 / t2: linear in (self, t1)

// Partial rules that depend on the op's non-tensor arguments.
using PartialRulesFn = Rules (*)(const OpArgs& args);

// One row of a pointwise family's table.
struct PointwiseOp {
  PointwiseOp(const char* overload, Rules partial_rules)
      : overload(overload), fixed(std::move(partial_rules)) {}
  PointwiseOp(const char* overload, PartialRulesFn partial_rules)
      : overload(overload), from_args(partial_rules) {}

  const char* overload;   // a functional overload, "aten::mul.Tensor"
  Rules fixed;            // the Partial rules, unless from_args is set
  PartialRulesFn from_args = nullptr;
};

// Registers, for every row, the strategy returning PointwiseShardRules
// plus the row's Partial rules that a RuleSet keeps for the args
// (rule_set.h: matching arity, applicable placements, no duplicates).
// Returns true, so that a family registers from a static initialiser:
// `const bool kRegistered = RegisterPointwiseOps({...});`.
bool RegisterPointwiseOps(std::vector<PointwiseOp> ops,
                          StrategyRegistry& registry = StrategyRegistry::Global());

// For strategies outside the families (custom ops, test strategies), which
// pass rule text and parse it on every call:
//
// Parses each text of `rules` and keeps those a RuleSet keeps.
// Errors: InvalidArgument for text that does not parse.
absl::StatusOr<Rules> ApplicableRules(const OpArgs& args,
                                      absl::Span<const absl::string_view> rules);
// PointwiseShardRules plus ApplicableRules(args, partial_rules).
absl::StatusOr<Rules> PointwiseRules(const OpArgs& args,
                                     absl::Span<const absl::string_view> partial_rules);

}  // namespace shrt

#endif  // SHRT_STRATEGIES_POINTWISE_RULES_H_
