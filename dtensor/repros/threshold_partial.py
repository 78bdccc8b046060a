"""DTensor bug: aten.threshold keeps Partial(max) -> Partial(max) (and
Partial(min) -> Partial(min)) whatever its arguments, but threshold(x, t, v)
(x where x > t, else v) is non-decreasing only for v <= t. With t = -2 and
v = 0, a rank whose part is -3 (mapped to 0) outweighs one whose part is
-1 (kept): the max of the mapped parts is 0, the threshold of the max (-1)
is -1.

DTensor's rule (torch 2.13, torch/distributed/tensor/_ops/_pointwise_ops.py):
aten.threshold.default is in the non-decreasing list, with the comment
"Non-decreasing for v <= t (the common case, including the default v=0,
t=0)", and gets _NON_DECREASING_RULES without a check of v <= t.
Found by ShRT: bazel run //tools:shrt -- validate --dtensor
--op=aten::threshold --world_size=4 (sample uneven, threshold=-2,
value=0: "output 0 on the reduction over ranks" differs).

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
from torch.distributed.tensor.debug import CommDebugMode

W = 2
T, V = -2.0, 0.0
parts = [torch.tensor([-3.0], dtype=torch.float64), torch.tensor([-1.0], dtype=torch.float64)]
x = torch.maximum(parts[0], parts[1])  # the Partial(max) value: -1
want = torch.ops.aten.threshold.default(x, T, V)

dist.init_process_group("fake", store=dist.HashStore(), rank=0, world_size=W)
with LocalTensorMode(frozenset(range(W))):
    mesh = init_device_mesh("cpu", (W,))
    dx = DTensor.from_local(LocalTensor({r: parts[r].clone() for r in range(W)}), mesh,
                            [Partial("max")], shape=x.shape, stride=x.stride())
    with CommDebugMode() as comm:
        y = torch.ops.aten.threshold.default(dx, T, V)
    placements = y.placements
    local = [y.to_local()._local_tensors[r].item() for r in range(W)]
    got = y.full_tensor()._local_tensors[0]

print(f"x = Partial(max) of parts {[p.item() for p in parts]} (value {x.item()}); threshold={T}, value={V}")
print(f"collectives in the op: {comm.get_total_counts()} (no redistribution)")
print("output placements:", placements)
print(f"rank-local results {local}")
print(f"expected (full tensors): {want.item()}")
print(f"DTensor full_tensor()  : {got.item()}")
if not torch.equal(got, want):
    print("BUG: threshold with value > threshold is not non-decreasing; Partial(max) does not pass through")
    sys.exit(1)
print("fixed: the results agree")
