#include "shrt/strategies/indexing_rules.h"

#include <vector>

#include "c10/core/WrapDimMinimal.h"
#include "shrt/strategies/partial_algebra.h"

namespace shrt {
namespace indexing_internal {

using P = Placement;

std::optional<DimIndexArgs> ReadDimIndexArgs(const OpArgs& args, bool has_source) {
  const std::vector<TensorMeta>& in = args.inputs();
  if (in.size() != (has_source ? 3u : 2u)) return std::nullopt;
  const int64_t dim = c10::maybe_wrap_dim(args.GetInt("dim").value_or(0), in[0].ndim());
  return DimIndexArgs{in[0], in[1], has_source ? &in[2] : nullptr, dim};
}

void AddOffDimShards(RuleSet& rules, const DimIndexArgs& in) {
  if (in.self.ndim() != in.source->ndim()) return;
  for (int64_t d = 0; d < in.self.ndim(); ++d) {
    if (d != in.dim) rules.Add({P::Shard(d), P::Replicate(), P::Shard(d)}, {P::Shard(d)});
  }
}

int64_t SizeAt(const TensorMeta& m, int64_t d) { return d >= 0 && d < m.ndim() ? m.sizes[d] : -1; }

void AddFillPartials(RuleSet& rules, std::optional<double> value) {
  for (ReduceOp op : kAllReduceOps) {
    if (ConstantKeeps(value, op)) rules.Add({P::Partial(op), P::Replicate()}, {P::Partial(op)});
  }
}

void AddWithMid(RuleSet& rules, P a, int n_mid, P b, P out) {
  std::vector<P> in{a};
  for (int i = 0; i < n_mid; ++i) in.push_back(P::Replicate());
  in.push_back(b);
  rules.Add(in, {out});
}

void AddCopyPartials(RuleSet& rules, int n_mid, c10::ScalarType from, c10::ScalarType to) {
  const P r = P::Replicate();
  for (ReduceOp op : kAllReduceOps) {
    if (ConversionKeeps(from, to, op)) AddWithMid(rules, P::Partial(op), n_mid, P::Partial(op), P::Partial(op));
  }
  for (ReduceOp op : kIdempotentReduceOps) {
    AddWithMid(rules, P::Partial(op), n_mid, r, P::Partial(op));
    if (ConversionKeeps(from, to, op)) AddWithMid(rules, r, n_mid, P::Partial(op), P::Partial(op));
  }
}

}  // namespace indexing_internal
}  // namespace shrt
