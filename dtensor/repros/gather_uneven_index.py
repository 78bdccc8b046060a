"""DTensor bug: torch.gather(x, -1, index) with x and index both Shard(0)
keeps Shard(0) although index has fewer rows than x: the ranks' row chunks
of x (6 rows: 2, 2, 2, 0 at W=4) and of index (4 rows: 1, 1, 1, 1) do not
correspond, so ranks gather from the wrong rows of x, and rank 3 (no rows of
x, one row of index) raises.  (With x [7, 5] no rank raises, and ranks 1-3
silently return x's rows 2, 4, 6 instead of 1, 2, 3.)

DTensor's rule: aten.gather.default, S(0), S(0) -> S(0) for dim=-1 (torch
2.13, torch/distributed/tensor/_ops/_tensor_ops.py, gather_strategy: it
offers [Shard(d), Shard(d), Shard(d)] for every d != dim whenever self and
index have the same ndim, without requiring equal sizes on dim d).
Found by ShRT: bazel run //tools:shrt -- validate --dtensor --op=aten::gather
--world_size=4 (sample smaller_index: self [6, 5], index [4, 5], dim=-1).

Runs on 4 simulated ranks in one process (LocalTensorMode); prints the
error and exits 1 while the bug exists, 0 once it is fixed.
"""
import sys

import torch
import torch.distributed as dist
import torch.testing._internal.distributed.fake_pg  # noqa: F401 (registers the "fake" backend)
from torch.distributed._local_tensor import LocalTensor, LocalTensorMode
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Shard
from torch.distributed.tensor.debug import CommDebugMode

W = 4
x = torch.arange(30, dtype=torch.float32).reshape(6, 5)
index = torch.tensor([[4, 3, 2, 1, 0]] * 4)  # [4, 5]
want = torch.gather(x, -1, index)

dist.init_process_group("fake", store=dist.HashStore(), rank=0, world_size=W)
with LocalTensorMode(frozenset(range(W))):
    mesh = init_device_mesh("cpu", (W,))
    def shard0(t):
        chunks = list(torch.chunk(t, W, dim=0)) + [t[:0]] * W
        return DTensor.from_local(LocalTensor({r: chunks[r] for r in range(W)}), mesh, [Shard(0)], shape=t.shape, stride=t.stride())
    dx, didx = shard0(x), shard0(index)
    print("x [6, 5] and index [4, 5], both Shard(0); rank-local rows:",
          [dx.to_local()._local_tensors[r].shape[0] for r in range(W)], "and",
          [didx.to_local()._local_tensors[r].shape[0] for r in range(W)])
    print("expected torch.gather(x, -1, index):", want.tolist())
    try:
        with CommDebugMode() as comm:  # counts the collectives of any redistribution
            out = torch.gather(dx, -1, didx)
        got = out.full_tensor()._local_tensors[0]
    except Exception as e:
        print(f"DTensor raised: {type(e).__name__}: {str(e).splitlines()[0]}")
        print(f"collectives before the error: {comm.get_total_counts()} (DTensor kept Shard(0) on both inputs)")
        print("BUG: DTensor gathers rank-local chunks of x and index that do not correspond")
        sys.exit(1)
print("output placements:", out.placements)
print("DTensor, full_tensor:", got.tolist())
if not torch.equal(got, want):
    print("BUG: DTensor gathers rank-local chunks of x and index that do not correspond")
    sys.exit(1)
print("fixed: the results agree")
