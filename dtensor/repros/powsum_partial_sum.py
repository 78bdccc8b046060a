"""DTensor bug: linalg__powsum and _foreach_powsum keep a Partial(sum) input
as a Partial(sum) output, but sum(|x|^ord) is not linear in x: the sum over
ranks of each part's powsum is not the powsum of the parts' sum
(|a|^2 + |b|^2 != |a + b|^2).

DTensor's rules (torch 2.13, torch/distributed/tensor/_ops/_math_ops.py):
powsum_strategy (aten.linalg__powsum.default) and foreach_powsum_strategy
(aten._foreach_powsum.Scalar) call common_reduction_strategy with
reduction_linear=True and reduction_op="sum", which keeps an input
Partial("sum") whose reduce op matches ("when the partial reduction op
matches the global reduction op, we can delay redistribution"). That is
right for the Shard of a reduced dim (each rank's powsum of its chunk adds
up), not for a Partial input. (linalg_vector_norm goes through the same
function with reduction_op from _get_norm_reduction_op, a norm Partial
that never equals "sum", so its Partial inputs are redistributed.)
Found by ShRT: bazel run //tools:shrt -- validate --dtensor
--op=aten::linalg__powsum --world_size=4 (and --op=aten::_foreach_powsum.Scalar).

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
x = torch.tensor([1.0, 2.0, 3.0])
parts = {0: torch.tensor([0.5, 1.0, 1.5]), 1: torch.tensor([0.5, 1.0, 1.5])}  # sum to x
aten = torch.ops.aten
want = {"linalg__powsum": aten.linalg__powsum(x, 2), "_foreach_powsum": aten._foreach_powsum([x], 2)[0]}

dist.init_process_group("fake", store=dist.HashStore(), rank=0, world_size=W)
got, placements = {}, {}
with LocalTensorMode(frozenset(range(W))):
    mesh = init_device_mesh("cpu", (W,))
    dx = DTensor.from_local(LocalTensor(parts), mesh, [Partial("sum")], shape=x.shape, stride=x.stride())
    outs = {"linalg__powsum": aten.linalg__powsum(dx, 2), "_foreach_powsum": aten._foreach_powsum([dx], 2)[0]}
    for k, out in outs.items():
        placements[k], got[k] = out.placements, out.full_tensor()._local_tensors[0]

bad = False
for k in want:
    print(f"{k}(x, 2) of a Partial(sum) x = {x.tolist()}: output placements {placements[k]}")
    print("  expected (unsharded):", want[k].item())
    print("  DTensor, full_tensor:", got[k].item())
    bad |= not torch.allclose(got[k], want[k])
if bad:
    print("BUG: sum(|x|^ord) of a Partial(sum) is not the sum of the parts' powsums")
    sys.exit(1)
print("fixed: the results agree")
