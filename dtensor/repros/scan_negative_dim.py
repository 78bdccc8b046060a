"""DTensor bug: torch.cumsum / torch.cumprod / torch.logcumsumexp with a
NEGATIVE dim on a DTensor sharded on that dim keep the Shard placement, so
each rank scans only its own chunk (no carry from the previous ranks).  With
the same dim given as a positive number DTensor correctly replicates first.

DTensor's rule: aten.cumsum / aten.cumprod / aten.logcumsumexp (.default),
S(1) -> S(1) for dim=-1 of a 2-d input (torch 2.13,
torch/distributed/tensor/_ops/_math_ops.py, scan_strategy: it passes the raw
`dim` to common_reduction_strategy without normalize_dim, so -1 never matches
the sharded dim 1).
Found by ShRT: bazel run //tools:shrt -- validate --dtensor --op=aten::cumsum
--world_size=4 (sample uneven_2d, [7, 5], dim=-1; same for aten::cumprod,
aten::logcumsumexp).

Runs on 4 simulated ranks in one process (LocalTensorMode); prints the
wrong numbers and exits 1 while the bug exists, 0 once it is fixed.
"""
import sys

import torch
import torch.distributed as dist
import torch.testing._internal.distributed.fake_pg  # noqa: F401 (registers the "fake" backend)
from torch.distributed._local_tensor import LocalTensor, LocalTensorMode
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Shard

W = 4
x = torch.arange(1, 36, dtype=torch.float32).reshape(7, 5) / 10
ops = [torch.cumsum, torch.cumprod, torch.logcumsumexp]

dist.init_process_group("fake", store=dist.HashStore(), rank=0, world_size=W)
results = []
with LocalTensorMode(frozenset(range(W))):
    mesh = init_device_mesh("cpu", (W,))
    # x sharded on its last dim: 5 columns over 4 ranks are 2, 2, 1, 0.
    chunks = list(torch.chunk(x, W, dim=1)) + [x[:, :0]] * W
    dx = DTensor.from_local(LocalTensor({r: chunks[r] for r in range(W)}), mesh, [Shard(1)], shape=x.shape, stride=x.stride())
    for op in ops:
        for dim in (-1, 1):
            out = op(dx, dim)
            results.append((op.__name__, dim, out.placements, out.full_tensor()._local_tensors[0]))

bad = False
for name, dim, placements, got in results:
    want = getattr(torch, name)(x, dim)
    ok = torch.allclose(got, want)
    bad |= not ok
    print(f"torch.{name}(x, dim={dim}): output placements {placements}{'' if ok else '  <-- WRONG'}")
    print("  expected row 0:", [round(v, 4) for v in want[0].tolist()])
    print("  DTensor  row 0:", [round(v, 4) for v in got[0].tolist()])
if bad:
    print("BUG: the scan over the sharded dim, given as -1, differs from the full computation")
    sys.exit(1)
print("fixed: the results agree")
