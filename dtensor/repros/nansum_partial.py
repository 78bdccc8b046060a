"""DTensor bug: nansum of a Partial(sum) keeps Partial(sum), but a nan
value is nan on one rank only (parts of nan: nan on one rank, finite on
the others, which sum to nan). nansum drops the nan on its rank, while the
other ranks still add their finite parts of that element, so the result
counts parts of an element that nansum of the value ignores.

DTensor's rule: aten.nansum.default, P(sum) -> P(sum) (torch 2.13,
torch/distributed/tensor/_ops/_math_ops.py: nansum is mapped to the linear
reduction "sum" in its reduction table, and a linear reduction keeps
Partial(sum)). Found by ShRT: bazel run //tools:shrt -- validate --dtensor
--op=aten::nansum --world_size=4 (generator nonfinite).

Runs on 2 simulated ranks in one process (LocalTensorMode); prints the
wrong numbers and exits 1 while the bug exists, 0 once it is fixed.
"""
import sys

import torch
import torch.distributed as dist
import torch.testing._internal.distributed.fake_pg  # noqa: F401 (registers the "fake" backend)
from torch.distributed._local_tensor import LocalTensor, LocalTensorMode
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Partial

W = 2
nan = float("nan")
parts = {0: torch.tensor([nan, 1.0]),  # rank 0 holds the nan
         1: torch.tensor([2.0, 3.0])}
x = parts[0] + parts[1]                # the logical value: [nan, 4]
want = torch.nansum(x)                 # 4: nansum ignores the nan element

dist.init_process_group("fake", store=dist.HashStore(), rank=0, world_size=W)
with LocalTensorMode(frozenset(range(W))):
    mesh = init_device_mesh("cpu", (W,))
    dx = DTensor.from_local(LocalTensor(parts), mesh, [Partial("sum")], shape=x.shape,
                            stride=x.stride())
    out = torch.nansum(dx)
    placements = out.placements
    got = out.full_tensor()._local_tensors[0]

print(f"nansum of a Partial(sum) [nan, 4]: output placements {placements}")
print("  expected (unsharded):", want.item())
print("  DTensor, full_tensor:", got.item())
if not torch.equal(got, want):
    print("BUG: nansum drops the nan on one rank while the others still add their parts of it")
    sys.exit(1)
print("fixed: the results agree")
