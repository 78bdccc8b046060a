// Per-rank local inputs for ground truth (ground_truth.h): one input's W
// locals under one placement, drawn so that every tuple of input placements
// of one case sees the same Partial parts, and built once per case.
#ifndef SHRT_ENGINE_RANK_LOCALS_H_
#define SHRT_ENGINE_RANK_LOCALS_H_

#include <cstdint>
#include <tuple>
#include <vector>

#include "ATen/core/Tensor.h"
#include "absl/container/flat_hash_map.h"
#include "shrt/engine/distribute.h"
#include "shrt/vocab/placement.h"

namespace shrt {

// One input's per-rank locals under one placement, in the input's layout,
// with the largest |part| of a Partial placement (0 otherwise).
struct Locals {
  std::vector<at::Tensor> ranks;
  double scale = 0;
};

// The locals of input `i` (full tensor `full`, layout `layout`) under
// placement `p`, drawn with a seed that depends on the case, the input, the
// placement and the redraw, never on the rest of the tuple, so that every
// tuple of one case sees the same parts and they can be built once
// (LocalsCache) or per tuple (the reference path) with identical results.
Locals MakeLocals(const at::Tensor& full, const Placement& p, Layout layout, int w,
                  uint64_t case_seed, size_t i, int candidate, int redraw);

// Locals built once per case and shared by the tuples that use them. Keyed
// by (input, candidate index, redraw, negated). Sharing is safe because the
// operator does not write its inputs; callers copy them for one that does.
class LocalsCache {
 public:
  // MakeLocals(full, p, layout, w, case_seed, i, candidate, redraw), made
  // on the first request for (i, candidate, redraw, negated).
  const Locals& Get(const at::Tensor& full, const Placement& p, Layout layout, int w,
                    uint64_t case_seed, size_t i, int candidate, int redraw, bool negated);

 private:
  absl::flat_hash_map<std::tuple<size_t, int, int, bool>, Locals> cache_;
};

}  // namespace shrt

#endif  // SHRT_ENGINE_RANK_LOCALS_H_
