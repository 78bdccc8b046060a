#include "shrt/engine/cases.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "shrt/ops/candidates.h"

namespace shrt {

TupleSpace::TupleSpace(std::vector<std::vector<Placement>> candidates)
    : candidates_(std::move(candidates)) {
  for (const auto& c : candidates_) size_ *= static_cast<int64_t>(c.size());
}

std::vector<int> TupleSpace::Indices(int64_t t) const {
  std::vector<int> out(candidates_.size(), 0);
  for (int64_t i = static_cast<int64_t>(candidates_.size()) - 1; i >= 0; --i) {
    const int64_t n = static_cast<int64_t>(candidates_[i].size());
    out[i] = static_cast<int>(t % n);
    t /= n;
  }
  return out;
}

std::vector<Placement> TupleSpace::Placements(int64_t t) const {
  const std::vector<int> idx = Indices(t);
  std::vector<Placement> out;
  out.reserve(idx.size());
  for (size_t i = 0; i < idx.size(); ++i) out.push_back(candidates_[i][idx[i]]);
  return out;
}

int64_t TupleSpace::Find(const std::vector<Placement>& placements) const {
  if (placements.size() != candidates_.size()) return -1;
  int64_t t = 0;
  for (size_t i = 0; i < placements.size(); ++i) {
    const auto& c = candidates_[i];
    const auto it = std::find(c.begin(), c.end(), placements[i]);
    if (it == c.end()) return -1;
    t = t * static_cast<int64_t>(c.size()) + (it - c.begin());
  }
  return t;
}

std::vector<Placement> InputCandidates(int64_t ndim, c10::ScalarType dtype, bool index_only) {
  std::vector<Placement> out = CandidatePlacements(ndim, dtype);
  if (index_only) {
    out.erase(std::remove_if(out.begin(), out.end(),
                             [](const Placement& p) { return p.is_partial(); }),
              out.end());
  }
  return out;
}

namespace {

bool IsExtreme(const Placement& p) {
  return p.is_partial() && (p.reduce_op() == ReduceOp::kMax || p.reduce_op() == ReduceOp::kMin);
}

}  // namespace

std::vector<PartialVariant> PartialVariants(const std::vector<Placement>& placements,
                                            const std::vector<c10::ScalarType>& dtypes,
                                            const std::vector<int64_t>& numels, int redraws) {
  const std::vector<bool> none(placements.size(), false);
  if (std::none_of(placements.begin(), placements.end(),
                   [](const Placement& p) { return p.is_partial(); })) {
    return {{0, none, ""}};
  }
  int64_t most = 1;
  for (size_t i = 0; i < placements.size() && i < numels.size(); ++i) {
    if (placements[i].is_partial()) most = std::max(most, numels[i]);
  }
  if (most < kMinPartialDraws) {
    redraws = std::max<int>(redraws, static_cast<int>((kMinPartialDraws + most - 1) / most));
  }
  std::vector<PartialVariant> out;
  for (int v = 0; v < redraws; ++v) out.push_back({v, none, absl::StrCat("redraw ", v)});
  std::vector<bool> negated(placements.size(), false);
  bool any = false;
  for (size_t i = 0; i < placements.size() && i < dtypes.size(); ++i) {
    negated[i] = IsExtreme(placements[i]) && dtypes[i] != at::kBool && dtypes[i] != at::kByte;
    any = any || negated[i];
  }
  if (any) out.push_back({0, std::move(negated), "negated inputs, redraw 0"});
  return out;
}

}  // namespace shrt
