"""DTensor bug: torch.logsumexp(x, dim, keepdim=True) on a DTensor sharded on
a dim AFTER the reduced one labels the output as if keepdim were False: the
shard dim is shifted down by one (S(1) -> S(0), S(2) -> S(1)), while the
local results still have the kept size-1 dim.  The output DTensor's layout
does not match its rank-local data (rank 0's chunk has the wrong shape).

DTensor's rule: aten.logsumexp.default, S(1) -> S(0) for dim=[0],
keepdim=True (torch 2.13, torch/distributed/tensor/_ops/_math_ops.py,
logsumexp_strategy: it reads keepdim only from op_schema.kwargs_schema,
but the dispatcher passes keepdim positionally, so keep_dim is False).
Found by ShRT: bazel run //tools:shrt -- validate --dtensor
--op=aten::logsumexp --world_size=4 (sample uneven_2d, [7, 5], dim=[0],
keepdim=True; sample size1_3d, [6, 1, 4], dim=[1], keepdim=True: S(2) -> S(1)).

Runs on 4 simulated ranks in one process (LocalTensorMode); prints the
wrong shapes and exits 1 while the bug exists, 0 once it is fixed.
"""
import sys

import torch
import torch.distributed as dist
import torch.testing._internal.distributed.fake_pg  # noqa: F401 (registers the "fake" backend)
from torch.distributed._local_tensor import LocalTensor, LocalTensorMode
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Shard

W = 4
cases = [  # (x, shard dim, reduced dims)
    (torch.arange(35, dtype=torch.float32).reshape(7, 5) / 10, 1, [0]),
    (torch.arange(24, dtype=torch.float32).reshape(6, 1, 4) / 10, 2, [1]),
]
wants = [torch.logsumexp(x, dim=dims, keepdim=True) for x, _, dims in cases]

dist.init_process_group("fake", store=dist.HashStore(), rank=0, world_size=W)
bad = False
with LocalTensorMode(frozenset(range(W))):
    mesh = init_device_mesh("cpu", (W,))
    for (x, sd, dims), want in zip(cases, wants):
        chunks = list(torch.chunk(x, W, dim=sd)) + [x.narrow(sd, 0, 0)] * W
        dx = DTensor.from_local(LocalTensor({r: chunks[r] for r in range(W)}), mesh, [Shard(sd)], shape=x.shape, stride=x.stride())
        out = torch.logsumexp(dx, dim=dims, keepdim=True)
        # What out's placement says rank 0 holds, vs what it really holds.
        (p,) = out.placements
        want_r0 = torch.chunk(want, W, dim=p.dim)[0] if isinstance(p, Shard) else want
        got_r0 = out.to_local()._local_tensors[0]
        print(f"x {list(x.shape)} Shard({sd}), torch.logsumexp(x, dim={dims}, keepdim=True) -> {list(want.shape)}")
        print(f"  output placements {out.placements}: rank 0 should hold shape {list(want_r0.shape)}, holds {list(got_r0.shape)}")
        bad |= got_r0.shape != want_r0.shape
        try:
            full = out.full_tensor()._local_tensors[0]
            print(f"  expected full shape {list(want.shape)}, DTensor full_tensor shape {list(full.shape)}")
            bad |= full.shape != want.shape or not torch.allclose(full, want)
        except RuntimeError as e:
            print(f"  out.full_tensor() raised: {str(e).splitlines()[0]}")
            bad = True
if bad:
    print("BUG: the output placement does not describe the rank-local results")
    sys.exit(1)
print("fixed: the results agree")
