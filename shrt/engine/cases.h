// Case enumeration (DESIGN.md §3): the placements each tensor of a sample
// can take, the tuples of input placements, and the variants one tuple with
// Partial inputs runs in (independent redraws of the parts, and inputs
// negated for P(max)/P(min)). Bookkeeping only: nothing here runs an
// operator (ground_truth.h does).
#ifndef SHRT_ENGINE_CASES_H_
#define SHRT_ENGINE_CASES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "c10/core/ScalarType.h"
#include "shrt/vocab/placement.h"

namespace shrt {

// The placement tuples over a list of slots (a sample's inputs, or its
// outputs), each slot with its candidate placements, numbered
// 0 .. size() - 1 in mixed radix with the last slot varying fastest: with
// candidates in canonical order, tuple order is rule order.
class TupleSpace {
 public:
  explicit TupleSpace(std::vector<std::vector<Placement>> candidates);

  // Number of tuples (1 for no slots, 0 if some slot has no candidate).
  int64_t size() const { return size_; }
  const std::vector<std::vector<Placement>>& candidates() const { return candidates_; }
  // The candidate index of each slot in tuple `t`.
  std::vector<int> Indices(int64_t t) const;
  // The placements of tuple `t`.
  std::vector<Placement> Placements(int64_t t) const;
  // The number of the tuple `placements`, or -1 if their count differs
  // from the slots' or some placement is not a candidate of its slot.
  int64_t Find(const std::vector<Placement>& placements) const;

 private:
  std::vector<std::vector<Placement>> candidates_;
  int64_t size_ = 1;
};

// The placements enumerated for one input: CandidatePlacements(ndim,
// dtype) (candidates.h), without Partial ones for an index input (its
// recipe draws indices, recipes.h IsIndexRecipe): a part of an index is
// not an index, and some kernels (embedding_dense_backward with
// scale_grad_by_freq) write out of bounds on one instead of raising.
std::vector<Placement> InputCandidates(int64_t ndim, c10::ScalarType dtype, bool index_only);

// One run of a tuple of input placements.
struct PartialVariant {
  // Which independent draw of the Partial parts (0 .. redraws - 1).
  int redraw = 0;
  // Per input: negated before it is distributed (P(max)/P(min) inputs of
  // the negation variant), so that a rule that holds only for values of one
  // sign is refuted.
  std::vector<bool> negated;
  // For evidence: "" (no Partial input), "redraw 1", "negated inputs, redraw 0".
  std::string label;
};

// Independent part draws a tuple's Partial inputs get at least, counted in
// elements: when the largest Partial input has n elements, the tuple runs
// ceil(kMinPartialDraws / n) redraws if that exceeds the requested ones.
// Only 0-d and tiny inputs are affected: each draw gives them only a few
// chances to refute a rule that holds by luck (e.g. round(a) + round(x - a)
// = round(x) for most a).
inline constexpr int kMinPartialDraws = 12;

// The runs of one tuple (DESIGN.md §3: "a rule involving a Partial input is
// only valid if it holds for several independent redraws of the parts, and
// for negated inputs when P(max)/P(min) is involved"): one run when no input
// is Partial; else max(redraws, ceil(kMinPartialDraws / n)) runs, n the
// most elements of a Partial input (`numels`, one per input; an empty
// input counts as 1), plus one with the P(max)/P(min) inputs negated when
// some of them has a dtype with negatives (not bool or uint8).
std::vector<PartialVariant> PartialVariants(const std::vector<Placement>& placements,
                                            const std::vector<c10::ScalarType>& dtypes,
                                            const std::vector<int64_t>& numels, int redraws);

}  // namespace shrt

#endif  // SHRT_ENGINE_CASES_H_
