// Strategies for view ops that rearrange or relabel dims without changing
// any element: transpose/swapaxes/swapdims/t/mT/mH/adjoint, permute,
// movedim/moveaxis, unsqueeze, squeeze, flatten, unflatten, diagonal,
// unfold, alias and detach, and their *_copy twins (permute_copy,
// transpose_copy.int, t_copy, squeeze_copy(.dim), unsqueeze_copy,
// diagonal_copy, unfold_copy, alias_copy, detach_copy), which return a
// fresh tensor holding the same elements as the view and therefore have the
// view's rules exactly (they share its builder; their specs take the view's
// samples with samples_from).
//
// Every output element is one input element (and, for a real tensor, no
// arithmetic is done on it), so every Partial passes through:
// P(op) -> P(op) for all five reductions (the local outputs have the full
// output's shape, and reducing them elementwise reduces the same input
// elements).
//
// Shard rules follow DTensor's _view_ops.py, restricted to what holds for
// every world size with torch.chunk's uneven layout:
//   - permutations (transpose, permute, movedim, t, ...): S(d) -> S(p) where
//     output dim p is input dim d;
//   - unsqueeze(dim): S(d) -> S(d + (d >= dim));
//   - squeeze.dim(dim): a dim other than `dim` keeps its size on every rank,
//     so S(d) -> S(d - (d > dim)) when size(dim) == 1 and S(d) -> S(d)
//     otherwise. Sharding `dim` itself is never claimed: a rank whose chunk
//     has length 1 (or 0 past the end) squeezes differently from the full
//     tensor, and some world size always produces such a chunk;
//   - squeeze.default: no shard rule. Whether a sharded dim keeps every
//     chunk longer than 1 depends on the world size (a dim of size n has
//     chunks of length 1 at W >= n), which a strategy does not know;
//   - flatten(start, end): dims outside [start, end] keep (or shift) their
//     shard; a dim d inside the range may be sharded only when every other
//     dim of the range has size 1 (then the flattened dim is d relabelled).
//     Otherwise the chunks of the flattened dim and the flattened chunks
//     differ whenever the sizes do not divide evenly;
//   - unflatten(dim, sizes): dims other than `dim` keep (or shift) their
//     shard; `dim` itself only when sizes is all 1 except one -1 (the local
//     call infers the chunk length there; an explicit size fails locally);
//   - diagonal(offset, dim1, dim2): dims other than dim1/dim2 keep their
//     shard, renumbered; the diagonal mixes dim1 and dim2, so sharding either
//     is not local;
//   - alias, detach: the identity on values, S(d) -> S(d) for every d;
//   - swapdims = swapaxes = transpose; moveaxis = movedim; mH and adjoint
//     of a real tensor are mT (a conjugate of a real value is itself), and
//     like mT they leave a 0-d tensor alone;
//   - unfold(dimension, size, step): output dim d < ndim is input dim d
//     with `dimension` replaced by the window count, and a new last dim
//     indexes within a window. Dims other than `dimension` keep their shard
//     (the same index; each window lies inside one row of them). Sharding
//     `dimension` is not local: a window may straddle two chunks, and the
//     window count of a chunk is not the chunk of the window count.
//   - view_as_real: a complex [*] as a real [*, 2] (real and imaginary
//     parts): S(d) -> S(d) for every input dim; the new last dim is never
//     sharded. A complex Partial is a sum (or mean) of complex parts, and
//     the real views of the parts sum (average) to the real view of the
//     value: P(sum) -> P(sum), P(avg) -> P(avg) (the other Partials do not
//     apply to a complex tensor: candidates.h);
//   - view_as_complex, its inverse on a real [*, 2]: S(d) -> S(d) for every
//     dim but the last (sharding the pair dim would split a number), and
//     P(sum), P(avg) by the same argument (P(max|min|product) of the real
//     parts are not complex reductions, and a complex output has none);
//     view_as_real_copy and view_as_complex_copy are their *_copy twins;
//   - _neg_view_copy materialises _neg_view, i.e. -self: S(d) -> S(d);
//     negation is linear (P(sum), P(avg) kept) and decreasing (P(max) <->
//     P(min)); P(product) only at odd W ((-1)^W), so it is not claimed.
// DTensor's dim_maps express the same (torch/distributed/tensor/_ops/
// _view_ops.py: dim_transpose, dim_movedim, dim_unsqueeze, dim_squeeze,
// dim_flatten), propagating a shard only through an InputDim that is not
// split or merged; alias/detach are the identity map (every dim InputDim).
#include <algorithm>
#include <set>
#include <vector>

#include "c10/core/WrapDimMinimal.h"
#include "shrt/strategies/registry.h"
#include "shrt/strategies/rule_set.h"

namespace shrt {
namespace {

using P = Placement;

// S(in_dim) -> S(out_dim).
void AddShard(RuleSet& rules, int64_t in_dim, int64_t out_dim) {
  rules.Add({P::Shard(in_dim)}, {P::Shard(out_dim)});
}

// P(op) -> P(op) for every reduce op.
void AddPartials(RuleSet& rules) {
  for (ReduceOp op : kAllReduceOps) rules.Add({P::Partial(op)}, {P::Partial(op)});
}

int64_t InNdim(const OpArgs& args) { return args.inputs().empty() ? 0 : args.inputs()[0].ndim(); }
const std::vector<int64_t>& InSizes(const OpArgs& args) { return args.inputs()[0].sizes; }

// Rules of a permutation view: output dim i is input dim order[i].
std::vector<Rule> PermutationRules(const OpArgs& args, const std::vector<int64_t>& order) {
  RuleSet rules(args);
  for (size_t i = 0; i < order.size(); ++i) AddShard(rules, order[i], static_cast<int64_t>(i));
  AddPartials(rules);
  return rules.Take();
}

std::vector<int64_t> Identity(int64_t n) {
  std::vector<int64_t> order(n);
  for (int64_t i = 0; i < n; ++i) order[i] = i;
  return order;
}

// Swaps dims a and b (already normalised).
std::vector<int64_t> SwapOrder(int64_t n, int64_t a, int64_t b) {
  std::vector<int64_t> order = Identity(n);
  if (a >= 0 && a < n && b >= 0 && b < n) std::swap(order[a], order[b]);
  return order;
}

std::vector<Rule> SwapRules(const OpArgs& args, const char* a_name, const char* b_name) {
  const int64_t n = InNdim(args);
  const int64_t a = c10::maybe_wrap_dim(args.GetInt(a_name).value_or(0), n);
  const int64_t b = c10::maybe_wrap_dim(args.GetInt(b_name).value_or(0), n);
  return PermutationRules(args, SwapOrder(n, a, b));
}

// aten::t: identity below 2 dims, else swaps dims 0 and 1.
std::vector<Rule> TRules(const OpArgs& args) {
  const int64_t n = InNdim(args);
  return PermutationRules(args, n < 2 ? Identity(n) : SwapOrder(n, 0, 1));
}

// mT: swaps the last two dims (the schema requires >= 2 dims).
std::vector<Rule> MatrixTransposeRules(const OpArgs& args) {
  const int64_t n = InNdim(args);
  return PermutationRules(args, n < 2 ? Identity(n) : SwapOrder(n, n - 2, n - 1));
}

std::vector<Rule> PermuteRules(const OpArgs& args) {
  const int64_t n = InNdim(args);
  std::vector<int64_t> order = args.GetIntList("dims").value_or(std::vector<int64_t>{});
  for (int64_t& d : order) d = c10::maybe_wrap_dim(d, n);
  return PermutationRules(args, order);
}

// movedim: output positions destination[i] take input dims source[i]; the
// other output positions take the other input dims in increasing order.
std::vector<Rule> MovedimRules(const OpArgs& args) {
  const int64_t n = InNdim(args);
  std::vector<int64_t> src = args.GetIntList("source").value_or(std::vector<int64_t>{});
  std::vector<int64_t> dst = args.GetIntList("destination").value_or(std::vector<int64_t>{});
  if (src.size() != dst.size()) return {};
  std::vector<int64_t> order(n, -1);
  std::vector<bool> used(n, false);
  for (size_t i = 0; i < src.size(); ++i) {
    const int64_t s = c10::maybe_wrap_dim(src[i], n), d = c10::maybe_wrap_dim(dst[i], n);
    if (s < 0 || s >= n || d < 0 || d >= n) return {};
    order[d] = s;
    used[s] = true;
  }
  int64_t next = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (order[i] != -1) continue;
    while (next < n && used[next]) ++next;
    order[i] = next++;
  }
  return PermutationRules(args, order);
}

std::vector<Rule> UnsqueezeRules(const OpArgs& args) {
  RuleSet rules(args);
  const int64_t n = InNdim(args);
  const int64_t dim = c10::maybe_wrap_dim(args.GetInt("dim").value_or(0), n + 1);
  for (int64_t d = 0; d < n; ++d) AddShard(rules, d, d + (d >= dim ? 1 : 0));
  AddPartials(rules);
  return rules.Take();
}

std::vector<Rule> SqueezeDimRules(const OpArgs& args) {
  RuleSet rules(args);
  const int64_t n = InNdim(args);
  if (n > 0) {
    const int64_t dim = c10::maybe_wrap_dim(args.GetInt("dim").value_or(0), n);
    const bool removed = InSizes(args)[dim] == 1;
    for (int64_t d = 0; d < n; ++d) {
      if (d == dim) continue;
      AddShard(rules, d, removed && d > dim ? d - 1 : d);
    }
  }
  AddPartials(rules);
  return rules.Take();
}

// squeeze.dims: each listed dim of size 1 removed; a listed dim of another
// size stays but is not sharded (a rank's shard of it may have one row,
// which the local squeeze would remove).
std::vector<Rule> SqueezeDimsRules(const OpArgs& args) {
  RuleSet rules(args);
  const int64_t n = InNdim(args);
  if (n > 0) {
    std::set<int64_t> listed;
    for (int64_t d : args.GetIntList("dim").value_or(std::vector<int64_t>{})) {
      listed.insert(c10::maybe_wrap_dim(d, n));
    }
    int64_t removed = 0;
    for (int64_t d = 0; d < n; ++d) {
      if (listed.count(d) > 0) {
        removed += InSizes(args)[d] == 1 ? 1 : 0;
        continue;
      }
      AddShard(rules, d, d - removed);
    }
  }
  AddPartials(rules);
  return rules.Take();
}

std::vector<Rule> PartialsOnly(const OpArgs& args) {
  RuleSet rules(args);
  AddPartials(rules);
  return rules.Take();
}

std::vector<Rule> FlattenRules(const OpArgs& args) {
  RuleSet rules(args);
  const int64_t n = InNdim(args);
  if (n > 0) {
    const int64_t start = c10::maybe_wrap_dim(args.GetInt("start_dim").value_or(0), n);
    const int64_t end = c10::maybe_wrap_dim(args.GetInt("end_dim").value_or(-1), n);
    const std::vector<int64_t>& sizes = InSizes(args);
    if (start <= end) {
      for (int64_t d = 0; d < n; ++d) {
        if (d < start) {
          AddShard(rules, d, d);
        } else if (d > end) {
          AddShard(rules, d, d - (end - start));
        } else {
          bool others_one = true;
          for (int64_t k = start; k <= end; ++k) others_one = others_one && (k == d || sizes[k] == 1);
          if (others_one) AddShard(rules, d, start);
        }
      }
    }
  }
  AddPartials(rules);
  return rules.Take();
}

std::vector<Rule> UnflattenRules(const OpArgs& args) {
  RuleSet rules(args);
  const int64_t n = InNdim(args);
  const std::vector<int64_t> split = args.GetIntList("sizes").value_or(std::vector<int64_t>{});
  if (n > 0 && !split.empty()) {
    const int64_t dim = c10::maybe_wrap_dim(args.GetInt("dim").value_or(0), n);
    const int64_t extra = static_cast<int64_t>(split.size()) - 1;
    for (int64_t d = 0; d < n; ++d) {
      if (d < dim) {
        AddShard(rules, d, d);
      } else if (d > dim) {
        AddShard(rules, d, d + extra);
      } else {
        // One -1 and every other size 1: the local call infers the chunk
        // length, and the output dim at the -1 is the input dim relabelled.
        int64_t inferred = -1, ones = 0;
        for (size_t j = 0; j < split.size(); ++j) {
          if (split[j] == -1) inferred = static_cast<int64_t>(j);
          if (split[j] == 1) ++ones;
        }
        if (inferred >= 0 && ones == extra) AddShard(rules, dim, dim + inferred);
      }
    }
  }
  AddPartials(rules);
  return rules.Take();
}

std::vector<Rule> DiagonalRules(const OpArgs& args) {
  RuleSet rules(args);
  const int64_t n = InNdim(args);
  const int64_t d1 = c10::maybe_wrap_dim(args.GetInt("dim1").value_or(0), n);
  const int64_t d2 = c10::maybe_wrap_dim(args.GetInt("dim2").value_or(1), n);
  for (int64_t d = 0; d < n; ++d) {
    if (d == d1 || d == d2) continue;
    AddShard(rules, d, d - (d > d1 ? 1 : 0) - (d > d2 ? 1 : 0));
  }
  AddPartials(rules);
  return rules.Take();
}

// alias, detach (and their copies): the identity.
std::vector<Rule> IdentityViewRules(const OpArgs& args) {
  return PermutationRules(args, Identity(InNdim(args)));
}

std::vector<Rule> UnfoldRules(const OpArgs& args) {
  RuleSet rules(args);
  const int64_t n = InNdim(args);
  const int64_t dim = c10::maybe_wrap_dim(args.GetInt("dimension").value_or(0), n);
  for (int64_t d = 0; d < n; ++d) {
    if (d != dim) AddShard(rules, d, d);
  }
  AddPartials(rules);
  return rules.Take();
}

// view_as_real ([*] -> [*, 2]) and view_as_complex ([*, 2] -> [*]): the
// shared dims keep their shard; RuleSet drops the Partials a complex
// tensor does not take.
std::vector<Rule> ViewAsRealRules(const OpArgs& args) {
  RuleSet rules(args);
  for (int64_t d = 0; d < InNdim(args); ++d) AddShard(rules, d, d);
  AddPartials(rules);
  return rules.Take();
}

std::vector<Rule> ViewAsComplexRules(const OpArgs& args) {
  RuleSet rules(args);
  for (int64_t d = 0; d + 1 < InNdim(args); ++d) AddShard(rules, d, d);
  AddPartials(rules);
  return rules.Take();
}

// _neg_view_copy: -self.
std::vector<Rule> NegViewCopyRules(const OpArgs& args) {
  RuleSet rules(args);
  for (int64_t d = 0; d < InNdim(args); ++d) AddShard(rules, d, d);
  rules.Add({P::Partial(ReduceOp::kSum)}, {P::Partial(ReduceOp::kSum)});
  rules.Add({P::Partial(ReduceOp::kAvg)}, {P::Partial(ReduceOp::kAvg)});
  rules.Add({P::Partial(ReduceOp::kMax)}, {P::Partial(ReduceOp::kMin)});
  rules.Add({P::Partial(ReduceOp::kMin)}, {P::Partial(ReduceOp::kMax)});
  return rules.Take();
}

template <typename F>
Strategy Wrap(F f) {
  return [f](const OpArgs& args) -> absl::StatusOr<std::vector<Rule>> { return f(args); };
}

SHRT_REGISTER_STRATEGY("aten::transpose.int",
                       Wrap([](const OpArgs& a) { return SwapRules(a, "dim0", "dim1"); }));
SHRT_REGISTER_STRATEGY("aten::swapaxes",
                       Wrap([](const OpArgs& a) { return SwapRules(a, "axis0", "axis1"); }));
SHRT_REGISTER_STRATEGY("aten::t", Wrap(TRules));
SHRT_REGISTER_STRATEGY("aten::mT", Wrap(MatrixTransposeRules));
SHRT_REGISTER_STRATEGY("aten::permute", Wrap(PermuteRules));
SHRT_REGISTER_STRATEGY("aten::movedim.int", Wrap(MovedimRules));
SHRT_REGISTER_STRATEGY("aten::movedim.intlist", Wrap(MovedimRules));
SHRT_REGISTER_STRATEGY("aten::unsqueeze", Wrap(UnsqueezeRules));
SHRT_REGISTER_STRATEGY("aten::squeeze", Wrap(PartialsOnly));
SHRT_REGISTER_STRATEGY("aten::squeeze.dim", Wrap(SqueezeDimRules));
SHRT_REGISTER_STRATEGY("aten::squeeze.dims", Wrap(SqueezeDimsRules));
SHRT_REGISTER_STRATEGY("aten::flatten.using_ints", Wrap(FlattenRules));
SHRT_REGISTER_STRATEGY("aten::unflatten.int", Wrap(UnflattenRules));
SHRT_REGISTER_STRATEGY("aten::diagonal", Wrap(DiagonalRules));
SHRT_REGISTER_STRATEGY("aten::swapdims",
                       Wrap([](const OpArgs& a) { return SwapRules(a, "dim0", "dim1"); }));
SHRT_REGISTER_STRATEGY("aten::moveaxis.int", Wrap(MovedimRules));
SHRT_REGISTER_STRATEGY("aten::moveaxis.intlist", Wrap(MovedimRules));
SHRT_REGISTER_STRATEGY("aten::mH", Wrap(MatrixTransposeRules));
SHRT_REGISTER_STRATEGY("aten::adjoint", Wrap(MatrixTransposeRules));
SHRT_REGISTER_STRATEGY("aten::alias", Wrap(IdentityViewRules));
SHRT_REGISTER_STRATEGY("aten::detach", Wrap(IdentityViewRules));
SHRT_REGISTER_STRATEGY("aten::unfold", Wrap(UnfoldRules));
SHRT_REGISTER_STRATEGY("aten::view_as_real", Wrap(ViewAsRealRules));
SHRT_REGISTER_STRATEGY("aten::view_as_complex", Wrap(ViewAsComplexRules));
// The *_copy twins: the same elements as the view, in a fresh tensor.
SHRT_REGISTER_STRATEGY("aten::transpose_copy.int",
                       Wrap([](const OpArgs& a) { return SwapRules(a, "dim0", "dim1"); }));
SHRT_REGISTER_STRATEGY("aten::t_copy", Wrap(TRules));
SHRT_REGISTER_STRATEGY("aten::permute_copy", Wrap(PermuteRules));
SHRT_REGISTER_STRATEGY("aten::unsqueeze_copy", Wrap(UnsqueezeRules));
SHRT_REGISTER_STRATEGY("aten::squeeze_copy", Wrap(PartialsOnly));
SHRT_REGISTER_STRATEGY("aten::squeeze_copy.dim", Wrap(SqueezeDimRules));
SHRT_REGISTER_STRATEGY("aten::diagonal_copy", Wrap(DiagonalRules));
SHRT_REGISTER_STRATEGY("aten::unfold_copy", Wrap(UnfoldRules));
SHRT_REGISTER_STRATEGY("aten::alias_copy", Wrap(IdentityViewRules));
SHRT_REGISTER_STRATEGY("aten::detach_copy", Wrap(IdentityViewRules));
SHRT_REGISTER_STRATEGY("aten::contiguous", Wrap(IdentityViewRules));
SHRT_REGISTER_STRATEGY("aten::_neg_view_copy", Wrap(NegViewCopyRules));
SHRT_REGISTER_STRATEGY("aten::view_as_real_copy", Wrap(ViewAsRealRules));
SHRT_REGISTER_STRATEGY("aten::view_as_complex_copy", Wrap(ViewAsComplexRules));

}  // namespace
}  // namespace shrt
