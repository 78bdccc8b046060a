#include "shrt/engine/rank_locals.h"

#include "shrt/spec/rng.h"

namespace shrt {

Locals MakeLocals(const at::Tensor& full, const Placement& p, Layout layout, int w,
                  uint64_t case_seed, size_t i, int candidate, int redraw) {
  Locals out;
  if (p.is_replicate()) {
    // Distribute's W copies are not needed: nobody writes these locals
    // (RunTuple copies them for an overload that writes its inputs), and
    // `full` is already in the input's layout.
    out.ranks.assign(w, full);
    return out;
  }
  const uint64_t seed = MixSeed({case_seed, static_cast<uint64_t>(candidate),
                                 static_cast<uint64_t>(redraw), i});
  out.ranks = Distribute(full, p, w, seed, &out.scale);
  for (at::Tensor& t : out.ranks) t = WithLayout(t, layout);
  return out;
}

const Locals& LocalsCache::Get(const at::Tensor& full, const Placement& p, Layout layout, int w,
                               uint64_t case_seed, size_t i, int candidate, int redraw,
                               bool negated) {
  auto key = std::make_tuple(i, candidate, redraw, negated);
  auto it = cache_.find(key);
  if (it == cache_.end()) {
    it = cache_.emplace(key, MakeLocals(full, p, layout, w, case_seed, i, candidate, redraw))
             .first;
  }
  return it->second;
}

}  // namespace shrt
