"""DTensor bug: linalg.solve_triangular(A, B) claims R, S(d) -> S(d) on
every batch dim d of B, meant for a B with more batch dims than A
(broadcast over A). When A has the batch dim too, each rank solves the
whole A against its chunk of B, and the batch sizes disagree:
  - A [5, 4, 4] Replicate, B [5, 4, 3] Shard(0) over 4 ranks: rank 0 holds
    B[0:2], solves A (5 matrices) against it, and raises
    "The size of tensor a (2) must match the size of tensor b (5)".
  - A [3, 2, 4, 4] Replicate, B [3, 2, 4, 2] Shard(1) over 2 ranks: each
    rank's B chunk [3, 1, 4, 2] broadcasts against A's 2 matrices, so each
    rank returns [3, 2, 4, 2] where its shard is [3, 1, 4, 2]: no error,
    a wrong result.

DTensor's rule (torch 2.13, torch/distributed/tensor/_ops/_math_ops.py
linalg_batch_dim_strategy, the aten.linalg_solve_triangular branch): "A
replicated, B sharded on batch dims (B may have more batch dims than A)",
[Shard(d), Replicate(), Shard(d)] for every d < B.ndim - 2, with no check
that A's dims broadcast there (A's dim aligned with d must be absent or 1).
Found by ShRT: bazel run //tools:shrt -- validate --dtensor
--op=aten::linalg_solve_triangular --world_size=4 (sample batch).

Runs on 4 simulated ranks in one process (LocalTensorMode); prints what
DTensor does and exits 1 while the bug exists, 0 once it is fixed.
"""
import sys

import torch
import torch.distributed as dist
import torch.testing._internal.distributed.fake_pg  # noqa: F401 (registers the "fake" backend)
from torch.distributed._local_tensor import LocalTensor, LocalTensorMode
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Replicate, Shard

W = 4
torch.manual_seed(0)
A = torch.randn(5, 4, 4).tril() + 4 * torch.eye(4)
B = torch.randn(5, 4, 3)
want = torch.linalg.solve_triangular(A, B, upper=False)

dist.init_process_group("fake", store=dist.HashStore(), rank=0, world_size=W)
bad = False
with LocalTensorMode(frozenset(range(W))):
    mesh = init_device_mesh("cpu", (W,))
    a = DTensor.from_local(LocalTensor({r: A.clone() for r in range(W)}), mesh, [Replicate()])
    chunks = list(torch.chunk(B, W, dim=0)) + [B.narrow(0, 0, 0)] * W
    b = DTensor.from_local(LocalTensor({r: chunks[r].clone() for r in range(W)}), mesh, [Shard(0)],
                           shape=B.shape, stride=B.stride())
    print(f"solve_triangular(A [5, 4, 4] Replicate, B [5, 4, 3] Shard(0)), B's rank-local batch sizes {[chunks[r].shape[0] for r in range(W)]}:")
    try:
        out = torch.linalg.solve_triangular(a, b, upper=False)
        got = out.full_tensor()._local_tensors[0]
        ok = torch.allclose(got, want, atol=1e-5)
        print(f"  output placements {out.placements}; {'matches' if ok else 'WRONG'}")
        bad = not ok
    except Exception as e:
        print(f"  DTensor raised: {type(e).__name__}: {str(e).splitlines()[0]}")
        bad = True
if bad:
    print("BUG: DTensor shards B's batch dim alone though A has that batch dim")
    sys.exit(1)
print("fixed: the result agrees")
