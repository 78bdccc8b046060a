// Per-rank local tensors from a full tensor, exactly as DESIGN.md §3 says,
// and the reductions that turn Partial locals back into a full value.
//
// Every local tensor is contiguous and never aliases the full tensor: R and
// S locals are fresh tensors, and the W Partial parts are the rows of one
// fresh (W, ...) tensor (one allocation and one conversion for all ranks).
// A caller that lets an operator write its inputs (in-place, out=, which
// may resize) must copy Partial locals first (ground_truth.cc does so for
// every local of such an overload).
#ifndef SHRT_ENGINE_DISTRIBUTE_H_
#define SHRT_ENGINE_DISTRIBUTE_H_

#include <cstdint>
#include <vector>

#include "ATen/core/Tensor.h"
#include "shrt/ops/candidates.h"
#include "shrt/spec/spec.pb.h"
#include "shrt/vocab/placement.h"

namespace shrt {

// The W local tensors of `full` under placement `p` (which must apply),
// each in its own contiguous buffer at storage offset 0, as a rank's local
// tensor is: ops whose result depends on the storage (libtorch 2.13's
// as_strided_scatter on a self at storage offset != 0 leaves src unwritten)
// see the same layout on every rank and in the unsharded call.
//   R      W copies of `full`.
//   S(d)   torch.chunk layout along d (mesh.h ChunkOf); ranks past the end
//          get an empty tensor (size 0 on d).
//   _S(d, sf) the pieces of mesh.h StridedChunkOf, concatenated along d.
//   P(sum) parts that sum to `full`: every element gets independent noise of
//          mixed sign and magnitude up to 2 * (max|ordinary full| + 1) on
//          all ranks but one, chosen per element, which holds the
//          remainder; never a uniform split. Non-finite values and those
//          beyond a quarter of the dtype's range are not ordinary: their
//          noise takes their sign, so inf (or nan) is on the holder and
//          every other part is finite, and no part of a finite value
//          overflows. Integers get integer parts, exact in int64 for any
//          value (two's-complement sums wrap back to `full`).
//   P(avg) P(sum) parts of W * full; where W * full overflows the dtype
//          (floating) or is past 2^50 (integers, reduced in float64), every
//          part is `full`.
//   P(max) every part <= full; a rank chosen per element holds `full`, the
//          others `full - gap` with gaps of 0.5 .. 2 times the value range of
//          the ordinary finite values plus 1, each part kept finite (clamped
//          to the dtype's range). +inf and nan are held by one rank, the
//          others finite values on both sides of the largest finite value
//          (above it on even ranks, below on odd ones);
//          every part of -inf is -inf.
//   P(min) the mirror image of P(max).
//   P(product) parts whose product is `full`: factors of mixed sign and
//          magnitude 0.5 .. 2 (+-1 for integers) on all ranks but one, chosen
//          per element, which holds full / (product of the others): inf,
//          nan and signed zeros on the holder; factors of +-1 where the
//          holder's part would overflow or vanish.
//   The reductions these parts meet in DTensor are those of its
//   Partial._reduce_value (placement_types.py: funcol.all_reduce with the
//   placement's op), which LocalTensorMode computes with add, mul,
//   torch.maximum and torch.minimum (nan-propagating) and sum / W for avg
//   (torch/distributed/_local_tensor/_c10d.py _local_reduce).
//   _NormP(p) (real floating only, candidates.h PlacementApplies) parts
//          full * u_r ** (1 / p), u_r in [0.05, 1] drawn per element and
//          normalised to sum 1: sum_r part_r ** p = full ** p. They reduce
//          back to `full` where full >= 0 (a norm's value), and for odd
//          integer p everywhere; a negative value under an even or
//          fractional p has no _NormP representation in DTensor either.
//   _MaskP(op, n) (an index input) rank r holds full - begin_r, 0 where
//          MaskOf(full, p, W, r) is set: DTensor's _MaskPartial.
//          _partition_value, the same on every redraw.
// `seed` selects the draw; callers redraw with other seeds. If
// `max_abs_part` is given, it is raised to the largest finite |value| of the
// Partial parts built (the scale output_check.h's rounding slack needs);
// R and S leave it alone.
std::vector<at::Tensor> Distribute(const at::Tensor& full, const Placement& p, int world_size,
                                   uint64_t seed, double* max_abs_part = nullptr);

// Rank `rank`'s mask of index tensor `index` under _MaskP(op, n) `p`
// (placement.h): a Bool tensor of index's shape, set where the index lies
// outside [begin, end), the rank's torch.chunk range of n (mesh.h ChunkOf;
// DTensor's Shard.local_shard_size_and_offset, placement_types.py).
at::Tensor MaskOf(const at::Tensor& index, const Placement& p, int world_size, int rank);

// `local` with what `mask` sets zeroed, as DTensor's MaskBuffer.apply_mask
// (torch/distributed/tensor/_ops/_mask_buffer.py): elementwise when both
// have the same dims (gather), whole trailing rows when `local` has more
// (embedding's [*index.shape, D] output). A new tensor.
at::Tensor ApplyMask(const at::Tensor& local, const at::Tensor& mask);

// `t` with the memory layout `layout` (spec.proto Layout): the same values,
// contiguous, with the last two dims transposed in memory, or strided by 2
// along the last dim. 0-d and 1-d tensors keep their contiguous layout for
// TRANSPOSED, 0-d ones for STRIDED. The result may share `t`'s buffer: it
// is `t` itself for CONTIGUOUS and wherever the layout changes nothing,
// and a view of it for TRANSPOSED when `t` is laid out so already.
at::Tensor WithLayout(const at::Tensor& t, Layout layout);

// `t` with the memory layout `layout` (WithLayout) in a buffer of its own,
// never sharing `t`'s: what a call of an overload that writes its inputs
// gets, so that the tensor it came from (a cached local, a full input)
// stays intact.
at::Tensor PrivateWithLayout(const at::Tensor& t, Layout layout);

// The elementwise reduction of same-shape `locals` for Partial placement
// `p`, in float64 for floating dtypes (so the reduction adds no rounding
// of its own) and in the dtype itself for integers (wrapping, matching how
// integer parts were built); P(avg) of integers is computed in float64.
// P(avg) is the sum over W, or, where that sum overflows, the sum of each
// part over W (a mean of values near float64's largest one).
// A _MaskP(op, n) is reduced by op: the caller masks the locals first
// (ApplyMask), as ground truth does. _NormP(p) is
// (sum_r local_r ** p) ** (1 / p), as DTensor's
// _NormPartial._reduce_value computes it (torch/distributed/tensor/_ops/
// _math_ops.py): x ** p, an all-reduce sum, then ** (1 / p).
at::Tensor ReducePartial(const std::vector<at::Tensor>& locals, const Placement& p);

}  // namespace shrt

#endif  // SHRT_ENGINE_DISTRIBUTE_H_
