// The caches of one case of the N-D engine (nd_truth.cc): rank calls by
// what their locals held, expected output pieces, and output checks by
// what they compared. Engine-internal: each lives for one case (one
// generator's full call) of one sample, and the three share one budget of
// kept elements (NdCallMemo::elements).
#ifndef SHRT_ENGINE_ND_CASE_CACHES_H_
#define SHRT_ENGINE_ND_CASE_CACHES_H_

#include <algorithm>
#include <cstdint>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ATen/core/Tensor.h"
#include "absl/container/node_hash_map.h"
#include "absl/hash/hash.h"
#include "shrt/engine/full_case.h"
#include "shrt/engine/output_check.h"
#include "shrt/engine/tensor_bytes.h"
#include "shrt/spec/rng.h"
#include "shrt/vocab/limits.h"
#include "shrt/vocab/placement.h"

namespace shrt {

// One tensor's placements, one per mesh dim.
using NdPlacements = std::vector<Placement>;

// The tensor_bytes.h BytesKey of each output of a call (NdCheckCache).
using BytesKeys = std::vector<std::optional<uint64_t>>;

// The outputs of one case's successful rank calls by what their locals
// held (NdLocals keys mixed over the inputs, with each input's negation):
// a call whose every input holds what an earlier call's held is not made
// again, in its own tuple or in another. On 2x2, ranks that differ only on
// a Replicate mesh dim make one call, and [S(0), R] makes the calls of
// [R, S(0)] on other ranks. An overload that writes its inputs (add_) is
// memoised too: its calls write private copies of the locals (nd_truth.cc
// RankCallInputs), so the same locals give the same writes and returns. When
// each rank's call takes its local output shape (spec.proto
// local_shape_arg), the key names that shape too. The outputs are read,
// never written.
// At most kMaxMemoElements elements are kept (8 x kMaxSampleElements,
// limits.h: 64 MiB of float64), these outputs, the case's expected pieces
// (NdExpectedCache) and kept checks' rank outputs (NdCheckCache) together;
// past it, calls are made. Each call's outputs come with their BytesKeys.
struct NdCallMemo {
  std::unordered_map<uint64_t, std::pair<Tensors, BytesKeys>> outputs;
  int64_t elements = 0;
};
inline constexpr int64_t kMaxMemoElements = 8 * kMaxSampleElements;

// One case's expected output pieces (nd_layout.h CheckNdOutput's
// `expected`) by the run's negated inputs, the output and its N-D
// placements: every tuple of input placements is checked against the same
// pieces of the same full output. The pieces share the call memo's budget:
// an entry is made while what it may hold (at most one full output per
// rank) fits in kMaxMemoElements with the memo's outputs and the other
// entries; past it, pieces are cut per check.
struct NdExpectedCache {
  absl::node_hash_map<std::tuple<std::vector<bool>, size_t, NdPlacements>, std::vector<at::Tensor>>
      pieces;

  // The entry for `key`, made if it fits in `memo`'s budget (and charged
  // to it); nullptr when it does not.
  std::vector<at::Tensor>* Find(std::tuple<std::vector<bool>, size_t, NdPlacements> key,
                                const at::Tensor& full, int ranks, NdCallMemo& memo) {
    auto it = pieces.find(key);
    if (it != pieces.end()) return &it->second;
    const int64_t most = full.numel() * ranks;
    if (memo.elements + most > kMaxMemoElements) return nullptr;
    memo.elements += most;
    return &pieces[std::move(key)];
  }
};

// One case's output checks by what they compared: the run's negated
// inputs, the output, its N-D placements, the rank outputs (tensor_bytes.h:
// the same bytes, the same check) and, when the check read them
// (output_check.h ReadsInputScales: a P(sum) or P(avg) output's rounding
// slack, a re-judged check's allowance), the tolerance's input scales.
// Where an output ignores an input (new_full's `self`, expand_as's
// `other`) or the call memo shared the ranks' calls, many tuples give the
// same rank outputs, and each such check is made once; a check that read
// no input scale is made once for every input scale, so the placements
// of an ignored input (whose Partial parts change the scales only) share
// it too. An entry keeps its rank outputs to confirm a hit byte for byte;
// they share the call memo's budget (an entry is kept while they fit),
// and rank outputs BytesKey cannot read are checked every time.
class NdCheckCache {
 public:
  // The check of output k's rank outputs `outs` (with their BytesKeys)
  // against N-D placements `out` in the run with `negated` inputs and
  // tolerance `context`: a kept one, or `check()`.
  template <typename Check>
  OutputCheck Get(const std::vector<bool>& negated, size_t k, const NdPlacements& out,
                  const CheckContext& context, const Tensors& outs, const BytesKeys& keys,
                  const Check& check, NdCallMemo& memo) {
    uint64_t key = MixSeed({k, absl::HashOf(out), negated.size()});
    for (bool b : negated) key = MixSeed({key, b});
    int64_t elements = 0;
    for (size_t r = 0; r < outs.size(); ++r) {
      if (!keys[r].has_value()) return check();
      key = MixSeed({key, *keys[r]});
      if (outs[r].defined()) elements += outs[r].numel();
    }
    std::vector<Entry>& same_key = entries_[key];
    for (const Entry& e : same_key) {
      if (e.k == k &&
          (!e.reads_scales || (e.input_scale == context.input_scale &&
                               e.full_input_scale == context.full_input_scale)) &&
          e.out == out && e.negated == negated && Same(e.outs, outs)) {
        return e.check;
      }
    }
    OutputCheck made = check();
    if (memo.elements + elements <= kMaxMemoElements) {
      memo.elements += elements;
      const bool reads_scales = std::any_of(
          out.begin(), out.end(), [&](const Placement& p) { return ReadsInputScales(made, p); });
      same_key.push_back({negated, k, out, reads_scales, context.input_scale,
                          context.full_input_scale, outs, made});
    }
    return made;
  }

 private:
  struct Entry {
    std::vector<bool> negated;
    size_t k;
    NdPlacements out;
    bool reads_scales;  // the check depends on the two scales below
    double input_scale;
    double full_input_scale;
    Tensors outs;
    OutputCheck check;
  };
  static bool Same(const Tensors& a, const Tensors& b) {
    if (a.size() != b.size()) return false;
    for (size_t r = 0; r < a.size(); ++r) {
      if (!SameBytes(a[r], b[r])) return false;
    }
    return true;
  }
  std::unordered_map<uint64_t, std::vector<Entry>> entries_;
};

}  // namespace shrt

#endif  // SHRT_ENGINE_ND_CASE_CACHES_H_
