"""DTensor bug: torch.special.xlog1py(x, y) with x Partial(sum) (or
Partial(avg)) and y Replicate keeps the Partial placement, relying on
x * log1p(y) being linear in x.  But xlog1py is defined as 0 where x == 0,
even where y == -1 (log1p(-1) = -inf).  The rank-local parts of x are not 0
there, so they give +-inf, and the parts' sum is nan instead of 0.

DTensor's rule: aten.special_xlog1py.default, P(sum), R -> P(sum) and
P(avg), R -> P(avg) (torch 2.13,
torch/distributed/tensor/_ops/_pointwise_ops.py, _XLOG1PY_RULES).
Found by ShRT: bazel run //tools:shrt -- validate --dtensor
--op=aten::special_xlog1py --world_size=4 (sample broadcast_row: self [7, 5],
other [5]).

Runs on 4 simulated ranks in one process (LocalTensorMode); prints the
wrong numbers and exits 1 while the bug exists, 0 once it is fixed.
"""
import sys

import torch
import torch.distributed as dist
import torch.testing._internal.distributed.fake_pg  # noqa: F401 (registers the "fake" backend)
from torch.distributed._local_tensor import LocalTensor, LocalTensorMode
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Partial, Replicate

W = 4
x = torch.arange(35, dtype=torch.float32).reshape(7, 5) / 10  # x[0, 0] == 0
y = torch.tensor([-1.0, 0.5, 1.0, 2.0, 3.0])                  # y[0] == -1
want = torch.special.xlog1py(x, y)
parts = {  # rank-local parts: sum (resp. mean) of the W parts is x
    "sum": {r: [x + 1, -torch.ones_like(x), torch.zeros_like(x), torch.zeros_like(x)][r] for r in range(W)},
    "avg": {r: [x + 1, x - 1, x, x][r] for r in range(W)},
}

dist.init_process_group("fake", store=dist.HashStore(), rank=0, world_size=W)
results = []
with LocalTensorMode(frozenset(range(W))):
    mesh = init_device_mesh("cpu", (W,))
    dy = DTensor.from_local(LocalTensor({r: y for r in range(W)}), mesh, [Replicate()], shape=y.shape, stride=y.stride())
    for op, p in parts.items():
        dx = DTensor.from_local(LocalTensor(p), mesh, [Partial(op)], shape=x.shape, stride=x.stride())
        out = torch.special.xlog1py(dx, dy)
        results.append((op, out.placements, out.full_tensor()._local_tensors[0]))

bad = False
for op, placements, got in results:
    print(f"x Partial({op}), y Replicate: torch.special.xlog1py(x, y) output placements {placements}")
    print("  expected row 0:", [round(v, 4) for v in want[0].tolist()])
    print("  DTensor  row 0:", [round(v, 4) for v in got[0].tolist()])
    bad |= not torch.allclose(got, want, equal_nan=True)
if bad:
    print("BUG: the Partial parts' xlog1py does not combine to xlog1py(x, y)")
    sys.exit(1)
print("fixed: the results agree")
