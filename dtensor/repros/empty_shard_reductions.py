"""DTensor bug: reductions, pools and interpolations accept a Shard
placement whose chunk is empty on some rank, and then the local kernel
raises on that rank:
  * torch.max(x) (full reduction) and torch.amax(x, dim=[0, 2]) on x [6, 1, 4]
    Shard(0): 6 rows over 4 ranks are 2, 2, 2, 0; max/amax of an empty
    tensor over the empty dim raise on rank 3 (the full tensor is not empty).
  * F.max_pool2d / F.avg_pool2d on an unbatched (C, H, W) = [5, 5, 3] input
    Shard(0): 5 channels over 4 ranks are 2, 2, 1, 0; the pooling kernel
    rejects rank 3's 0-channel (0, 5, 3) input.
  * aten.upsample_nearest2d(v, [7, 5]) (F.interpolate's kernel; every
    other upsample mode alike) on v [2, 6, 4, 3] Shard(1): 6 channels over 4 ranks are
    2, 2, 2, 0; the upsample kernel rejects rank 3's 0-channel input
    ("Non-empty 4D data tensor expected").
  * torch.linalg.vector_norm(m, inf, dim=-1) and torch._foreach_norm([m],
    inf) on m [7, 5] Shard(1): 5 columns over 4 ranks are 2, 2, 1, 0; the
    inf norm of rank 3's empty chunk raises; torch._foreach_max([m]) alike.
  * the backward and inverse pools (max_pool2d_with_indices_backward,
    _adaptive_avg_pool2d_backward, max_unpool2d/3d) with their inputs
    Shard(1) on 6 channels (2, 2, 2, 0): their kernels reject rank 3's
    empty channel dim (not run here: found by ShRT with the commands
    below).
  * F.embedding(indices, weight) on a weight [5, 7] Shard(0) (row-wise, the
    indices Replicate): 5 rows over 4 ranks are 2, 2, 1, 0; rank 3 looks up
    its masked indices in a 0-row table and raises.
  * torch.gather(g, 1, index) on g [6, 5] Shard(1) with an index [6, 1]
    Replicate (one index per row, which DTensor takes to _MaskPartial):
    5 columns over 4 ranks are 2, 2, 1, 0; rank 3 gathers its masked
    indices (0) from 0 columns and raises.

DTensor's rules (torch 2.13, torch/distributed/tensor/_ops/_math_ops.py):
  aten.max.default S(0) -> P(max), aten.amax.default S(0) -> P(max):
      LINEAR_REDUCTION_OP_MAP / linear_reduction_strategy;
  aten.max_pool2d_with_indices.default, aten.avg_pool2d.default
      S(0) -> S(0): pooling_strategy (Shard(0) for unbatched inputs too,
      where dim 0 is the channel dim);
  aten.upsample_nearest2d.default S(1) -> S(1) (and the other upsample
      forwards): interp_upsample_1out_1in_strategy (Shard on dims 0 and 1);
  aten.max_unpool2d.default, aten._adaptive_avg_pool2d_backward.default
      S(1), S(1) -> S(1): interp_pool_1out_2in_strategy;
      aten.max_pool2d_with_indices_backward.default: pool_backward_strategy;
  aten._foreach_max.default S(d) -> P(max): the foreach reduction's
      per-position rule;
  aten.gather.default S(1), _MaskPartial -> _MaskPartial: _tensor_ops.py
      gather_strategy (an index of size 1 on the gathered dim), the local
      masking in placement_types.py _MaskPartial._partition_value.
Found by ShRT: bazel run //tools:shrt -- validate --dtensor --op=aten::max
--world_size=4 (sample size1_3d, [6, 1, 4]; also --op=aten::amax, dim=[0, 2];
--op=aten::max_pool2d_with_indices and aten::avg_pool2d, sample unbatched;
--op=aten::linalg_vector_norm, sample uneven_2d; --op=aten::embedding,
sample scalar_index_float64; --op=aten::gather --world_size=3, sample
index_size1: 4 columns over 3 ranks are 2, 2, 0).

Runs on 4 simulated ranks in one process (LocalTensorMode); prints the
errors and exits 1 while the bug exists, 0 once it is fixed.
"""
import sys

import torch
import torch.distributed as dist
import torch.nn.functional as F
import torch.testing._internal.distributed.fake_pg  # noqa: F401 (registers the "fake" backend)
from torch.distributed._local_tensor import LocalTensor, LocalTensorMode
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Replicate, Shard
from torch.distributed.tensor.debug import CommDebugMode

W = 4
x = torch.arange(24, dtype=torch.float32).reshape(6, 1, 4)
img = torch.arange(75, dtype=torch.float32).reshape(5, 5, 3)  # unbatched (C, H, W)
m = torch.arange(35, dtype=torch.float32).reshape(7, 5)
weight = torch.arange(35, dtype=torch.float32).reshape(5, 7)
indices = torch.tensor([4, 0, 2])
g = torch.arange(30, dtype=torch.float32).reshape(6, 5)
g_index = torch.tensor([[4], [0], [2], [3], [1], [4]])
v = torch.arange(144, dtype=torch.float32).reshape(2, 6, 4, 3)


def replicated(t):
    """`t` as a Replicate DTensor (inside LocalTensorMode, on `mesh`)."""
    return DTensor.from_local(LocalTensor({r: t for r in range(W)}), mesh, [Replicate()])


def full(t):
    """A DTensor's or a plain tensor's full value."""
    return t.full_tensor()._local_tensors[0] if isinstance(t, DTensor) else t


cases = [  # (name, full input, the dim it is sharded on, function)
    ("torch.max(x)", x, 0, lambda t: torch.max(t)),
    ("torch.amax(x, dim=[0, 2])", x, 0, lambda t: torch.amax(t, dim=[0, 2])),
    ("F.max_pool2d(img, (2, 3), padding=1)", img, 0, lambda t: F.max_pool2d(t, (2, 3), padding=1)),
    ("F.avg_pool2d(img, (2, 3), padding=1)", img, 0, lambda t: F.avg_pool2d(t, (2, 3), padding=1)),
    ("aten.upsample_nearest2d(v, [7, 5])", v, 1, lambda t: torch.ops.aten.upsample_nearest2d(t, [7, 5])),
    ("torch.linalg.vector_norm(m, inf, dim=-1)", m, 1,
     lambda t: torch.linalg.vector_norm(t, float("inf"), dim=-1)),
    ("torch._foreach_norm([m], inf)", m, 1, lambda t: torch._foreach_norm([t], float("inf"))[0]),
    ("torch._foreach_max([m])", m, 1, lambda t: torch._foreach_max([t])[0]),
    ("F.embedding(indices, weight)", weight, 0,
     lambda t: F.embedding(replicated(indices) if isinstance(t, DTensor) else indices, t)),
    ("torch.gather(g, 1, g_index)", g, 1,
     lambda t: torch.gather(t, 1, replicated(g_index) if isinstance(t, DTensor) else g_index)),
]
wants = [fn(t) for _, t, _, fn in cases]

dist.init_process_group("fake", store=dist.HashStore(), rank=0, world_size=W)
bad = False
with LocalTensorMode(frozenset(range(W))):
    mesh = init_device_mesh("cpu", (W,))
    for (name, t, d, fn), want in zip(cases, wants):
        chunks = list(torch.chunk(t, W, dim=d)) + [t.narrow(d, 0, 0)] * W
        dt = DTensor.from_local(LocalTensor({r: chunks[r] for r in range(W)}), mesh, [Shard(d)], shape=t.shape, stride=t.stride())
        print(f"{name}, input Shard({d}), rank-local dim-{d} sizes {[chunks[r].shape[d] for r in range(W)]}:")
        try:
            with CommDebugMode() as comm:  # counts the collectives of any redistribution
                out = fn(dt)
            got = full(out)
        except Exception as e:  # raised on the rank whose shard is empty
            print(f"  DTensor raised: {type(e).__name__}: {str(e).splitlines()[0]}")
            print(f"  collectives before the error: {comm.get_total_counts()} (no redistribution: DTensor kept Shard({d}) and ran the op on each rank's chunk)")
            bad = True
            continue
        ok = torch.allclose(got, want)
        print(f"  output placements {out.placements}; {'matches' if ok else 'WRONG'}: expected {want.flatten()[:4].tolist()}, got {got.flatten()[:4].tolist()}")
        bad |= not ok
if bad:
    print("BUG: DTensor keeps a Shard placement whose empty chunk the local kernel rejects")
    sys.exit(1)
print("fixed: the results agree")
