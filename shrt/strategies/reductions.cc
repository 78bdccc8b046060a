// Strategies for reductions over a set of dims D (sum, mean, amax, max.dim,
// argmax, prod, all/any, var/std, norms, logsumexp, nansum; aminmax,
// _aminmax, nanmean, std_mean/var_mean, count_nonzero, median/nanmedian,
// mode, kthvalue, trace, dist, frobenius_norm, special_logsumexp; and
// linalg__powsum, sum(|x|^ord) over D (no Partial input: |x|^ord is not
// additive, and not monotone through |x|; S(d in D) -> P(sum) for every ord,
// an empty chunk summing to 0; on a size-1 reduced dim also P(max), the
// values |x|^ord being >= 0; one reduced element is |x|^ord, multiplicative
// for a finite ord: P(product) -> P(product); ord = 0 counts the reduced
// elements whatever their values: every P(op) -> R); prims::prod, whose `dims` list reduces nothing
// when empty: torch/_prims
// _prod_aten returns a copy, where aten's empty dim list reduces every dim.
// prims::sum and prims::var take aten's rules in prims.cc).
//
// These follow DTensor's common_reduction_strategy
// (torch/distributed/tensor/_ops/_math_ops.py): a shard on a dim outside D
// is kept; a shard on a dim in D gives a Partial output only when the
// reduction is "linear" (f([f(a), f(b)]) = f([a, b])), with the Partial's
// reduce op from LINEAR_REDUCTION_OP_MAP (sum -> P(sum), prod ->
// P(product), amax/max -> P(max), ...); var_reduction_strategy (var,
// std, hence var_mean/std_mean here) and cumsum_strategy pass
// reduction_linear=False; vector_norm_strategy uses a p-norm Partial, of
// which only p = 1 (sum), p = 0 (count: sum) and p = inf (max) are
// placements ShRT knows. ShRT is stricter than DTensor where a rank's
// chunk may be empty (below).
//
// The ops added to the family, and why:
//   aminmax, _aminmax, _aminmax.dim: (min, max) of the same set; shards
//     off D kept for both outputs. S(d in D) -> P(min), P(max) is NOT
//     claimed: like amin/amax, aminmax raises on an empty chunk, which
//     depends on W. One reduced element (0-d, or every reduced dim of size
//     1): min = max = x, so every P(op) -> P(op), P(op).
//   nanmean: as mean (shards off D only; one reduced element is the
//     identity). Not linear under NaN, like nansum.
//   std_mean, var_mean (every overload): outputs (std|var, mean); the
//     variance is not linear (DTensor var_reduction_strategy), so only
//     shards off D, for both outputs.
//   count_nonzero (int? dim, None = every dim), count_nonzero.dim_IntList:
//     a sum of (x != 0), so S(d in D) -> P(sum) (an empty chunk counts 0);
//     on a size-1 d in D ranks past 0 count 0 <= every count: P(max) too.
//     One reduced element: (x != 0) in {0, 1}, R -> P(product) (x*x = x),
//     P(product) -> P(product) and P(product) -> P(min) (the product of
//     the parts is nonzero iff every part is; min = product on {0, 1}).
//   median, nanmedian (every element): no shard rule (a median of medians
//     is not the median); one element is the identity.
//   median.dim, nanmedian.dim, mode, kthvalue: (values, indices) along one
//     dim: shards off the dim for both. Indices are positions within the
//     rank's chunk, never a Partial: a sharded reduced dim is invalid.
//     One reduced element: values = x (keep every Partial), indices 0 (R).
//   trace, dist, frobenius_norm: see their builders below.
//
// Shard rules, every reduction: sharding a dim d outside D keeps the output
// sharded on d's position in the output (d, or d - |{e in D : e < d}| when
// keepdim is false), for every output (max.dim's values and indices alike).
//
// Sharding a dim in D makes every rank reduce its own chunk; the chunks
// combine only where the reduction is itself an associative reduction whose
// identity is what a rank with an EMPTY chunk returns (torch.chunk leaves
// trailing ranks empty whenever the size does not fill W chunks, and a
// strategy does not see W, so a rule must hold for every W):
//   sum, nansum:           S(d in D) -> P(sum)      (empty sum = 0)
//   prod:                  S(d in D) -> P(product)  (empty product = 1)
//   all/any on uint8:      S(d in D) -> P(min), P(product) / P(max)
//                          (outputs 0/1; empty all = 1, empty any = 0;
//                          bool outputs get no Partial placement)
//   norm p=1, p=0:         S(d in D) -> P(sum) (sum of |x|, count of x != 0;
//                          the same for norm.ScalarOpt_dtype and
//                          norm.ScalarOpt_dim_dtype, with Partial inputs
//                          only if dtype= preserves values)
// Not claimed, on purpose:
//   amax/amin/max/min S(d in D) -> P(max|min): amax raises "Expected
//     reduction dim to have non-zero size" on a rank whose chunk is empty,
//     which happens or not depending on W (e.g. 5 rows at W=4 leave rank 3
//     empty); every norm with p = inf raises likewise ("linalg.vector_norm
//     cannot compute the inf norm on an empty tensor"): linalg_vector_norm,
//     and in libtorch 2.13 the legacy norm and dist too, which 1.13's
//     kernels answered with 0 (and ShRT claimed P(max)).
//   mean S(d in D) -> P(avg): the average of local means is the mean only
//     when every chunk has the same size, i.e. when size(d) % W == 0.
//   indices outputs (max.dim, argmax) are local to the chunk: never Partial.
//
// Partial inputs: a reduction that commutes with the Partial's reduction
// over ranks keeps it: sum, mean are linear (P(sum) -> P(sum),
// P(avg) -> P(avg)); amax/max keep P(max), amin/min keep P(min), prod keeps
// P(product); only without a float dtype conversion (see ValuePreserving).
// nansum does not keep P(sum): a NaN in one rank's part is dropped there
// while the other parts' values at that element are still summed.
// When the reduction covers exactly one element per output (every reduced
// dim has size 1, or a 0-d input), sum/mean/amax/amin/prod/logsumexp
// are the identity and keep every Partial (nansum is not: it maps nan to
// 0, and a nan value is nan on one rank and finite on the others); norms are |x| and keep
// P(product). On a size-1 reduced dim, S(d) leaves rank 0 the whole tensor
// and the others empty: norms (p >= 0) give 0 there, so P(sum) and P(max);
// logsumexp gives -inf, so P(max).
// Outputs in {0, 1} (all/any of uint8, prod of bool): R -> P(product)
// (x * x = x), and prod of bool also S(d in D) -> P(min). uint8 all() is
// monotone (x != 0 iff x >= 1): P(min) -> P(min); any(): P(max) -> P(max).
#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "c10/core/ScalarType.h"
#include "c10/core/WrapDimMinimal.h"
#include "shrt/strategies/pointwise_rules.h"
#include "shrt/strategies/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

enum class DimArg {
  kIntList,   // int[1]? dim: None or [] reduces every dim
  kInt,       // int dim
  kOptInt,    // int? dim: None flattens (argmax/argmin): no shard rule
  kOptIntAll, // int? dim: None reduces every dim (aminmax, count_nonzero)
  kAll,       // no dim argument: every dim
  kDims,      // int[] dims of prims::prod: the listed dims, none for []
};

// What a reduction does with the values of the reduced elements.
enum class Unit {
  kNone,      // no rule on unit extent
  kIdentity,  // one reduced element: the output is the input value
  kAbs,       // one reduced element: the output is |x|
  kNonzero,   // one reduced element: the output is (x != 0), in {0, 1}
};

struct ReductionOp {
  const char* overload;
  DimArg dim_arg;
  // Partial outputs of S(d) for d in D.
  std::vector<const char*> reduced_shard;
  // "P(a) -> P(b)" rules that hold for every reduced extent, as long as
  // the dtype conversion preserves values.
  std::vector<const char*> partial_rules;
  // The op on a single reduced element.
  Unit unit = Unit::kNone;
  // Partial outputs of S(d) for d in D when size(d) == 1: rank 0 holds the
  // whole tensor and reduces it, every other rank reduces an empty tensor,
  // whose result must be the identity of the Partial's reduction over the
  // values the op can take (norms: 0 for sum and max; logsumexp: -inf for
  // max).
  std::vector<const char*> unit_shard = {};
  // The outputs only take the values 0 and 1 (all/any on uint8, prod of
  // bool): then min and product over ranks coincide, and replicated
  // outputs are also P(product) (x * x = x).
  bool zero_one = false;
  // Output 1 holds indices into the reduced dim (median.dim, mode,
  // kthvalue): never Partial; on a single reduced element it is 0 on every
  // rank, i.e. R.
  bool index_second = false;
  // The name of the dim argument: "dim" for aten, "dims" for prims.
  const char* dim_name = "dim";
};

// True when a Partial input stays a Partial of the same values through the
// op's dtype conversion: none, integer -> integer, or float -> float.
// Casting float parts to an integer truncates each part. Float -> wider
// float keeps the values; the parts' exact sum differs from the float32
// value they stand for by float32 rounding, which is the computation's
// precision (DESIGN.md §3: float32 math written to float64 is judged at
// float32 tolerance).
bool ValuePreserving(const OpArgs& args) {
  const c10::ScalarType in = args.inputs()[0].dtype;
  const c10::ScalarType out = args.outputs()[0].dtype;
  if (in == out) return true;
  if (c10::isIntegralType(in, false) && c10::isIntegralType(out, false)) return true;
  return c10::isFloatingType(in) && c10::isFloatingType(out);
}

// The normalised reduced dims, or nullopt when the op flattens (no rules).
std::optional<std::set<int64_t>> ReducedDims(const OpArgs& args, const ReductionOp& op) {
  const DimArg kind = op.dim_arg;
  const int64_t n = args.inputs()[0].ndim();
  std::set<int64_t> dims;
  std::optional<std::vector<int64_t>> list;
  if (kind != DimArg::kAll) list = args.GetIntList(op.dim_name);
  if (kind == DimArg::kDims && (!list || list->empty())) return dims;
  if (kind == DimArg::kOptInt && !list) return std::nullopt;
  if (kind == DimArg::kOptIntAll && !list) list.emplace();
  if (n == 0) return dims;  // 0-d: dim 0 / -1 reduce a single element
  if (!list || list->empty()) {
    if (kind == DimArg::kInt) return std::nullopt;
    for (int64_t d = 0; d < n; ++d) dims.insert(d);
    return dims;
  }
  for (int64_t d : *list) dims.insert(c10::maybe_wrap_dim(d, n));
  return dims;
}

absl::StatusOr<std::vector<Rule>> ReductionRules(const OpArgs& args, const ReductionOp& op) {
  std::vector<Rule> rules;
  const TensorMeta& self = args.inputs()[0];
  const int64_t n = self.ndim();
  const std::optional<std::set<int64_t>> reduced = ReducedDims(args, op);
  if (!reduced) return rules;
  const bool keepdim = args.GetBool("keepdim").value_or(false);
  const int64_t out_ndim = keepdim ? n : n - static_cast<int64_t>(reduced->size());
  // Guard: answer nothing rather than guess when the dims were misread.
  for (const TensorMeta& out : args.outputs()) {
    if (out.ndim() != out_ndim) return rules;
  }
  const size_t num_out = args.outputs().size();
  int64_t extent = 1;
  for (int64_t d : *reduced) extent *= self.sizes[d];

  std::vector<std::string> texts;
  // prod of a bool tensor counts in {0, 1} too; an empty chunk gives 1,
  // the identity of min as well as of product.
  const bool bool_prod = op.reduced_shard.size() == 1 &&
                         std::string(op.reduced_shard[0]) == "P(product)" &&
                         self.dtype == c10::ScalarType::Bool;
  const bool zero_one = op.zero_one || bool_prod;
  for (int64_t d = 0; d < n; ++d) {
    if (reduced->count(d)) {
      std::vector<const char*> outs = op.reduced_shard;
      if (bool_prod) outs.push_back("P(min)");
      if (self.sizes[d] == 1) outs.insert(outs.end(), op.unit_shard.begin(), op.unit_shard.end());
      for (const char* p : outs) {
        texts.push_back("S(" + std::to_string(d) + ") -> " + p);
      }
      continue;
    }
    int64_t od = d;
    if (!keepdim) od -= std::count_if(reduced->begin(), reduced->end(), [d](int64_t e) { return e < d; });
    Rule rule;
    rule.inputs.push_back(Placement::Shard(d));
    rule.outputs.assign(num_out, Placement::Shard(od));
    rules.push_back(std::move(rule));
  }
  const bool preserving = ValuePreserving(args);
  if (preserving) {
    for (const char* t : op.partial_rules) texts.push_back(t);
  }
  if (zero_one) texts.push_back("R -> P(product)");
  if (extent == 1 && preserving && op.unit == Unit::kIdentity) {
    // Every value output is the input element itself (aminmax: min = max =
    // x); an index output is 0 everywhere.
    for (const char* p : {"P(sum)", "P(avg)", "P(max)", "P(min)", "P(product)"}) {
      std::string t = std::string(p) + " -> ";
      for (size_t i = 0; i < num_out; ++i) {
        if (i > 0) t += ", ";
        t += (i == 1 && op.index_second) ? "R" : p;
      }
      texts.push_back(t);
    }
  } else if (extent == 1 && preserving && num_out == 1 && op.unit == Unit::kAbs) {
    texts.push_back("P(product) -> P(product)");
  } else if (extent == 1 && num_out == 1 && op.unit == Unit::kNonzero) {
    // (x != 0) in {0, 1}: x * x = x for R; the product of the parts is
    // nonzero iff every part is, i.e. P(product) -> P(product).
    // min and product coincide on {0, 1}: P(product) -> P(min) too.
    texts.push_back("R -> P(product)");
    texts.push_back("P(product) -> P(product)");
    texts.push_back("P(product) -> P(min)");
  }
  std::sort(texts.begin(), texts.end());
  texts.erase(std::unique(texts.begin(), texts.end()), texts.end());
  std::vector<absl::string_view> views(texts.begin(), texts.end());
  absl::StatusOr<std::vector<Rule>> partial = ApplicableRules(args, views);
  if (!partial.ok()) return partial.status();
  rules.insert(rules.end(), partial->begin(), partial->end());
  return rules;
}

// all/any: Partial outputs only exist for uint8 outputs (values 0/1).
ReductionOp AllAny(const char* overload, DimArg dim, bool is_all) {
  ReductionOp op{overload, dim, {}, {}, Unit::kNone};
  op.zero_one = true;
  if (is_all) {
    // uint8 input: x != 0 iff x >= 1, so all() is monotone: a P(min)
    // input (parts >= x, min = x) gives P(min) (= P(product) on 0/1).
    op.reduced_shard = {"P(product)", "P(min)"};
    op.partial_rules = {"P(min) -> P(min)", "P(min) -> P(product)"};
  } else {
    // uint8 input: any() is monotone, a P(max) input gives P(max).
    op.reduced_shard = {"P(max)"};
    op.partial_rules = {"P(max) -> P(max)"};
  }
  return op;
}

// The ord/p argument of a norm, or 2 when None/absent.
double NormOrder(const OpArgs& args, absl::string_view name) {
  return args.GetDouble(name).value_or(2.0);
}

ReductionOp NormOp(const char* overload, DimArg dim, double p) {
  ReductionOp op{overload, dim, {}, {}, Unit::kAbs};
  if (p == 1.0 || p == 0.0) op.reduced_shard = {"P(sum)"};
  if (p == 0.0) op.unit = Unit::kNone;
  // The norm of an empty tensor is 0 for finite p >= 0; for p = inf it
  // raises (see "Not claimed" above).
  if (p >= 0 && !std::isinf(p)) op.unit_shard = {"P(sum)", "P(max)"};
  return op;
}

// trace: the sum of the diagonal of a 2-d tensor. Linear in self
// (P(sum) -> P(sum), P(avg) -> P(avg)). Sharding a dim leaves each rank the
// diagonal of its own block, offset from the true diagonal, except on a
// size-1 dim: rank 0 holds the whole tensor and the others an empty block
// whose trace is 0, so S(d) -> P(sum). With a size-1 dim the diagonal is
// the single element x[0, 0]: trace is then the identity on it and keeps
// every Partial.
absl::StatusOr<std::vector<Rule>> TraceRules(const OpArgs& args) {
  const TensorMeta& self = args.inputs()[0];
  std::vector<std::string> texts;
  if (self.ndim() != 2) return std::vector<Rule>{};
  for (int64_t d = 0; d < 2; ++d) {
    if (self.sizes[d] == 1) texts.push_back("S(" + std::to_string(d) + ") -> P(sum)");
  }
  if (ValuePreserving(args)) {
    texts.push_back("P(sum) -> P(sum)");
    texts.push_back("P(avg) -> P(avg)");
    if (self.sizes[0] == 1 || self.sizes[1] == 1) {
      for (const char* t : {"P(max) -> P(max)", "P(min) -> P(min)", "P(product) -> P(product)"}) {
        texts.push_back(t);
      }
    }
  }
  std::vector<absl::string_view> views(texts.begin(), texts.end());
  return ApplicableRules(args, views);
}

// dist(self, other, p) = norm(self - other, p) over every element of the
// broadcast difference. Sharding one dim of the broadcast shape (each input
// whose aligned dim has the full size sharded on it, a broadcast input R)
// gives each rank the difference of its chunk, whose norm combines like
// norm's: p = 0, 1 -> P(sum); a size-1 broadcast dim leaves ranks past 0
// empty, so P(sum) and P(max) for every finite p >= 0. Not p = inf -> P(max):
// libtorch 2.13's dist raises on an empty chunk, as every inf norm does.
absl::StatusOr<std::vector<Rule>> DistRules(const OpArgs& args) {
  const double p = args.GetDouble("p").value_or(2.0);
  const TensorMeta& a = args.inputs()[0];
  const TensorMeta& b = args.inputs()[1];
  const int64_t nd = std::max(a.ndim(), b.ndim());
  std::vector<Rule> rules;
  for (int64_t d = 0; d < nd; ++d) {
    const int64_t da = d - (nd - a.ndim());
    const int64_t db = d - (nd - b.ndim());
    const int64_t sa = da >= 0 ? a.sizes[da] : 1;
    const int64_t sb = db >= 0 ? b.sizes[db] : 1;
    const int64_t so = std::max(sa, sb);
    std::vector<Placement> outs;
    if (p == 0.0 || p == 1.0) outs.push_back(Placement::Partial(ReduceOp::kSum));
    if (so == 1 && p >= 0 && !std::isinf(p)) {
      outs = {Placement::Partial(ReduceOp::kSum), Placement::Partial(ReduceOp::kMax)};
    }
    const Placement pa = (da >= 0 && sa == so) ? Placement::Shard(da) : Placement::Replicate();
    const Placement pb = (db >= 0 && sb == so) ? Placement::Shard(db) : Placement::Replicate();
    for (const Placement& o : outs) rules.push_back({{pa, pb}, {o}});
  }
  return KeepApplicable(args, std::move(rules));
}

const std::vector<ReductionOp>& Ops() {
  static const auto* ops = new std::vector<ReductionOp>{
      {"aten::sum", DimArg::kAll, {"P(sum)"}, {"P(sum) -> P(sum)", "P(avg) -> P(avg)"}, Unit::kIdentity},
      {"aten::sum.dim_IntList", DimArg::kIntList, {"P(sum)"}, {"P(sum) -> P(sum)", "P(avg) -> P(avg)"}, Unit::kIdentity},
      {"aten::nansum", DimArg::kIntList, {"P(sum)"}, {}, Unit::kNone},
      {"aten::mean", DimArg::kAll, {}, {"P(sum) -> P(sum)", "P(avg) -> P(avg)"}, Unit::kIdentity},
      {"aten::mean.dim", DimArg::kIntList, {}, {"P(sum) -> P(sum)", "P(avg) -> P(avg)"}, Unit::kIdentity},
      {"aten::amax", DimArg::kIntList, {}, {"P(max) -> P(max)"}, Unit::kIdentity},
      {"aten::amin", DimArg::kIntList, {}, {"P(min) -> P(min)"}, Unit::kIdentity},
      {"aten::max", DimArg::kAll, {}, {"P(max) -> P(max)"}, Unit::kIdentity},
      {"aten::min", DimArg::kAll, {}, {"P(min) -> P(min)"}, Unit::kIdentity},
      {"aten::max.dim", DimArg::kInt, {}, {}, Unit::kNone},
      {"aten::min.dim", DimArg::kInt, {}, {}, Unit::kNone},
      {"aten::argmax", DimArg::kOptInt, {}, {}, Unit::kNone},
      {"aten::argmin", DimArg::kOptInt, {}, {}, Unit::kNone},
      {"aten::prod", DimArg::kAll, {"P(product)"}, {"P(product) -> P(product)"}, Unit::kIdentity},
      {"aten::prod.dim_int", DimArg::kInt, {"P(product)"}, {"P(product) -> P(product)"}, Unit::kIdentity},
      // prims::prod over each of `dims` in turn; no dim for [] (a copy).
      {"prims::prod", DimArg::kDims, {"P(product)"}, {"P(product) -> P(product)"}, Unit::kIdentity, {}, false, false, "dims"},
      {"aten::var.correction", DimArg::kIntList, {}, {}, Unit::kNone},
      {"aten::var.dim", DimArg::kIntList, {}, {}, Unit::kNone},
      {"aten::std.correction", DimArg::kIntList, {}, {}, Unit::kNone},
      {"aten::std.dim", DimArg::kIntList, {}, {}, Unit::kNone},
      {"aten::logsumexp", DimArg::kIntList, {}, {}, Unit::kIdentity, {"P(max)"}},
      {"aten::special_logsumexp", DimArg::kIntList, {}, {}, Unit::kIdentity, {"P(max)"}},
      {"aten::nanmean", DimArg::kIntList, {}, {}, Unit::kIdentity},
      {"aten::aminmax", DimArg::kOptIntAll, {}, {}, Unit::kIdentity},
      {"aten::_aminmax", DimArg::kAll, {}, {}, Unit::kIdentity},
      {"aten::_aminmax.dim", DimArg::kInt, {}, {}, Unit::kIdentity},
      {"aten::std_mean", DimArg::kAll, {}, {}, Unit::kNone},
      {"aten::std_mean.dim", DimArg::kIntList, {}, {}, Unit::kNone},
      {"aten::std_mean.correction", DimArg::kIntList, {}, {}, Unit::kNone},
      {"aten::var_mean", DimArg::kAll, {}, {}, Unit::kNone},
      {"aten::var_mean.dim", DimArg::kIntList, {}, {}, Unit::kNone},
      {"aten::var_mean.correction", DimArg::kIntList, {}, {}, Unit::kNone},
      {"aten::count_nonzero", DimArg::kOptIntAll, {"P(sum)"}, {}, Unit::kNonzero, {"P(max)"}},
      {"aten::count_nonzero.dim_IntList", DimArg::kIntList, {"P(sum)"}, {}, Unit::kNonzero, {"P(max)"}},
      {"aten::median", DimArg::kAll, {}, {}, Unit::kIdentity},
      {"aten::nanmedian", DimArg::kAll, {}, {}, Unit::kIdentity},
      {"aten::median.dim", DimArg::kInt, {}, {}, Unit::kIdentity, {}, false, true},
      {"aten::nanmedian.dim", DimArg::kInt, {}, {}, Unit::kIdentity, {}, false, true},
      {"aten::mode", DimArg::kInt, {}, {}, Unit::kIdentity, {}, false, true},
      {"aten::kthvalue", DimArg::kInt, {}, {}, Unit::kIdentity, {}, false, true},
  };
  return *ops;
}

const bool kRegistered = [] {
  for (const ReductionOp& op : Ops()) {
    StrategyRegistrar(op.overload, [&op](const OpArgs& args) { return ReductionRules(args, op); });
  }
  static const ReductionOp kAllDim = AllAny("aten::all.dim", DimArg::kInt, true);
  static const ReductionOp kAll = AllAny("aten::all", DimArg::kAll, true);
  static const ReductionOp kAnyDim = AllAny("aten::any.dim", DimArg::kInt, false);
  static const ReductionOp kAny = AllAny("aten::any", DimArg::kAll, false);
  static const ReductionOp kAnyDims = AllAny("aten::any.dims", DimArg::kIntList, false);
  for (const ReductionOp* op : {&kAllDim, &kAll, &kAnyDim, &kAny, &kAnyDims}) {
    StrategyRegistrar(op->overload, [op](const OpArgs& args) { return ReductionRules(args, *op); });
  }
  StrategyRegistrar("aten::norm.ScalarOpt_dim", [](const OpArgs& args) {
    return ReductionRules(args, NormOp("aten::norm.ScalarOpt_dim", DimArg::kIntList,
                                       NormOrder(args, "p")));
  });
  StrategyRegistrar("aten::norm.Scalar", [](const OpArgs& args) {
    return ReductionRules(args, NormOp("aten::norm.Scalar", DimArg::kAll, NormOrder(args, "p")));
  });
  StrategyRegistrar("aten::norm.ScalarOpt_dtype", [](const OpArgs& args) {
    return ReductionRules(args, NormOp("aten::norm.ScalarOpt_dtype", DimArg::kAll,
                                       NormOrder(args, "p")));
  });
  StrategyRegistrar("aten::norm.ScalarOpt_dim_dtype", [](const OpArgs& args) {
    return ReductionRules(args, NormOp("aten::norm.ScalarOpt_dim_dtype", DimArg::kIntList,
                                       NormOrder(args, "p")));
  });
  StrategyRegistrar("aten::frobenius_norm.dim", [](const OpArgs& args) {
    return ReductionRules(args, NormOp("aten::frobenius_norm.dim", DimArg::kIntList, 2.0));
  });
  StrategyRegistrar("aten::linalg__powsum", [](const OpArgs& args) {
    const double ord = NormOrder(args, "ord");
    ReductionOp op{"aten::linalg__powsum", DimArg::kIntList, {"P(sum)"}, {},
                   std::isfinite(ord) ? Unit::kAbs : Unit::kNone, {"P(sum)", "P(max)"}};
    // ord = 0 counts the elements (pow(x, 0) = 1, nan and inf included).
    if (ord == 0) {
      op.partial_rules = {"P(sum) -> R", "P(avg) -> R", "P(max) -> R", "P(min) -> R",
                          "P(product) -> R"};
    }
    return ReductionRules(args, op);
  });
  StrategyRegistrar("aten::trace", TraceRules);
  StrategyRegistrar("aten::dist", DistRules);
  StrategyRegistrar("aten::linalg_vector_norm", [](const OpArgs& args) {
    return ReductionRules(args, NormOp("aten::linalg_vector_norm", DimArg::kIntList,
                                       NormOrder(args, "ord")));
  });
  return true;
}();

// histc(self, bins, min, max): the counts of self's elements in `bins`
// equal bins of [min, max] (out-of-range, inf and nan elements ignored).
// With min < max the bins are the same on every rank, so every rank counts
// its chunk: S(d) -> P(sum) for every dim. With min == max the range is the
// data's own (min and max of each rank's chunk): no rule.
absl::StatusOr<std::vector<Rule>> HistcRules(const OpArgs& args) {
  RuleSet rules(args);
  if (args.inputs().size() != 1) return rules.Take();
  const double lo = args.GetDouble("min").value_or(0.0);
  const double hi = args.GetDouble("max").value_or(0.0);
  if (!(lo < hi)) return rules.Take();
  for (int64_t d = 0; d < args.inputs()[0].ndim(); ++d) {
    rules.Add({Placement::Shard(d)}, {Placement::Partial(ReduceOp::kSum)});
  }
  return rules.Take();
}
SHRT_REGISTER_STRATEGY("aten::histc", HistcRules);

}  // namespace
}  // namespace shrt
