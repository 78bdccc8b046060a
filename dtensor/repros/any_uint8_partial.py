"""DTensor bug: torch.any on a uint8 tensor returns uint8 0/1 (not bool).  On
a DTensor sharded on the reduced dim, DTensor computes each rank's any and
labels the result Partial(sum); summing the ranks' 0/1 values gives 2, 3,
... wherever more than one shard holds a non-zero element, instead of 1.
(For bool outputs the sum saturates to True, which hides the problem.)

DTensor's rule: aten.any.default and aten.any.dim, S(0) -> P(sum) (torch
2.13, torch/distributed/tensor/_ops/_math_ops.py: LINEAR_REDUCTION_OP_MAP
maps aten.any.* to "sum", used by linear_reduction_strategy).
Found by ShRT: bazel run //tools:shrt -- validate --dtensor --op=aten::any
--world_size=4 (sample uint8_2d, [5, 3]; same for aten::any.dim).

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
x = torch.zeros(5, 3, dtype=torch.uint8)
x[0, 1] = 7  # row 0 -> rank 0 (5 rows over 4 ranks are 2, 2, 1, 0)
x[2, 1] = 3  # row 2 -> rank 1
wants = {"torch.any(x)": torch.any(x), "torch.any(x, dim=0)": torch.any(x, dim=0)}

dist.init_process_group("fake", store=dist.HashStore(), rank=0, world_size=W)
results = {}
with LocalTensorMode(frozenset(range(W))):
    mesh = init_device_mesh("cpu", (W,))
    chunks = list(torch.chunk(x, W, dim=0)) + [x[:0]] * W
    dx = DTensor.from_local(LocalTensor({r: chunks[r] for r in range(W)}), mesh, [Shard(0)], shape=x.shape, stride=x.stride())
    for name, out in (("torch.any(x)", torch.any(dx)), ("torch.any(x, dim=0)", torch.any(dx, dim=0))):
        results[name] = (out.placements, out.full_tensor()._local_tensors[0])

bad = False
for name, want in wants.items():
    placements, got = results[name]
    print(f"{name} on uint8 Shard(0): output placements {placements}")
    print(f"  expected ({want.dtype}):", want.tolist())
    print(f"  DTensor, full_tensor ({got.dtype}):", got.tolist())
    bad |= not torch.equal(got, want)
if bad:
    print("BUG: the Partial(sum) of the ranks' any() results is not any()")
    sys.exit(1)
print("fixed: the results agree")
