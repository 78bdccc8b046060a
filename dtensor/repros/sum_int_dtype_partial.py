"""DTensor bug: torch.sum(x, dim, dtype=torch.int64) of a float DTensor that
is Partial(sum) stays Partial(sum), but the cast to int64 happens on each
rank's part, and truncation does not distribute over the parts' sum:
trunc(a) + trunc(b) != trunc(a + b).

DTensor's rule: aten.sum.dim_IntList, P(sum) -> P(sum) (torch 2.13,
torch/distributed/tensor/_ops/_math_ops.py, the linear-reduction strategy)
also when `dtype` is an integer type and the input a floating one.
Found by ShRT: bazel run //tools:shrt -- validate --dtensor
--op=aten::sum.dim_IntList --world_size=4 (sample float_to_int64).

Runs on 4 simulated ranks in one process (LocalTensorMode); prints the
wrong numbers and exits 1 while the bug exists, 0 once it is fixed.
"""
import sys

import torch
import torch.distributed as dist
import torch.testing._internal.distributed.fake_pg  # noqa: F401 (registers the "fake" backend)
from torch.distributed._local_tensor import LocalTensor, LocalTensorMode
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Partial

W = 4
x = torch.arange(20, dtype=torch.float32).reshape(5, 4) / 4 + 0.3
want = torch.sum(x, dim=0, dtype=torch.int64)

# One process plays every rank: the "fake" backend, values from LocalTensorMode.
dist.init_process_group("fake", store=dist.HashStore(), rank=0, world_size=W)
with LocalTensorMode(frozenset(range(W))):
    mesh = init_device_mesh("cpu", (W,))
    # x as the sum of W equal parts: a valid Partial(sum) DTensor.
    parts = LocalTensor({r: x / W for r in range(W)})
    dx = DTensor.from_local(parts, mesh, [Partial("sum")], shape=x.shape, stride=x.stride())
    out = torch.sum(dx, dim=0, dtype=torch.int64)
    placements = out.placements
    got = out.full_tensor()._local_tensors[0]

print("output placements:", placements)
print("torch.sum(x, 0, dtype=int64)          :", want.tolist())
print("DTensor Partial(sum) input, full_tensor:", got.tolist())
if not torch.equal(got, want):
    print("BUG: the Partial(sum) result differs from the full computation")
    sys.exit(1)
print("fixed: the results agree")
