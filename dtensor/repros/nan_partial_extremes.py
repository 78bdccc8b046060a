"""DTensor bug: nan_to_num, sign, sgn, fmax and fmin (aten's and prims')
keep Partial(max)
(and Partial(min)), and bucketize keeps Partial(min), but they map nan to
a number (bucketize: to the top bucket), and a Partial(max) nan is nan on
one rank and finite on the others (the max over ranks of the parts is
nan, as torch.maximum propagates it; Partial(min) alike). Each rank then
maps its own part: the rank holding nan gives the number, the others their
finite parts, and the max (min) over ranks is the largest (smallest)
finite part's image, not the number. _foreach_sign does the same per list
position.

DTensor's rules: aten.nan_to_num.default, aten.sign.default,
aten.sgn.default, aten.fmax.default, aten.fmin.default, prims.fmax.default,
prims.fmin.default with P(max) ->
P(max) and P(min) -> P(min) (torch 2.13,
torch/distributed/tensor/_ops/_pointwise_ops.py: these ops are listed
among the monotone pointwise ops whose Partial(max/min) inputs are kept;
its comment: "nan_to_num is non-decreasing on its entire domain
(including nan/inf): it maps -inf->min, nan->0, inf->max"); aten.bucketize.Tensor
with [Partial("min"), Partial("min"), Replicate()] (_tensor_ops.py
bucketize_single_dim_strategy: "Bucketize is monotonically non-decreasing
in its input").
Found by ShRT: bazel run //tools:shrt -- validate --dtensor
--op=aten::nan_to_num --world_size=4 (generator nonfinite).

Runs on 2 simulated ranks in one process (LocalTensorMode); prints the
wrong numbers and exits 1 while the bug exists, 0 once it is fixed.
"""
import sys

import torch
import torch.distributed as dist
import torch.testing._internal.distributed.fake_pg  # noqa: F401 (registers the "fake" backend)
from torch.distributed._local_tensor import LocalTensor, LocalTensorMode
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Partial, Replicate

W = 2
nan = float("nan")
x = torch.tensor([nan, 1.0])            # the logical value
parts = {0: torch.tensor([nan, 1.0]),   # rank 0 holds the nan
         1: torch.tensor([5.0, -3.0])}  # rank 1 finite parts below or above
# Partial(max) of these parts is max(nan, 5) = nan and max(1, -3) = 1: x.
min_parts = {0: torch.tensor([nan, 1.0]), 1: torch.tensor([-5.0, 3.0])}
# Partial(min) of these is min(nan, -5) = nan and min(1, 3) = 1: x again.
other = torch.tensor([0.5, 0.5])
boundaries = torch.tensor([0.0, 2.0, 4.0])
cases = [  # (name, function, the Partial's reduce op)
    ("nan_to_num", lambda t, o: t.nan_to_num(nan=0.0), "max"),
    ("sign", lambda t, o: torch.sign(t), "max"),
    ("fmax", lambda t, o: torch.fmax(t, o), "max"),
    ("prims.fmax", lambda t, o: torch.ops.prims.fmax(t, o), "max"),
    ("bucketize", lambda t, o: torch.bucketize(t, replicated(boundaries) if isinstance(t, DTensor)
                                               else boundaries), "min"),
]


def replicated(t):
    """`t` as a Replicate DTensor (inside LocalTensorMode, on `mesh`)."""
    return DTensor.from_local(LocalTensor({r: t for r in range(W)}), mesh, [Replicate()])


dist.init_process_group("fake", store=dist.HashStore(), rank=0, world_size=W)
results = []
with LocalTensorMode(frozenset(range(W))):
    mesh = init_device_mesh("cpu", (W,))
    for name, fn, op in cases:
        dx = DTensor.from_local(LocalTensor(parts if op == "max" else min_parts), mesh,
                                [Partial(op)], shape=x.shape,
                                stride=x.stride())
        do = DTensor.from_local(LocalTensor({r: other for r in range(W)}), mesh, [Replicate()],
                                shape=other.shape, stride=other.stride())
        out = fn(dx, do)
        results.append((name, op, out.placements, out.full_tensor()._local_tensors[0],
                        fn(x, other)))

bad = False
for name, op, placements, got, want in results:
    print(f"{name} of a Partial({op}) [nan, 1]: output placements {placements}")
    print("  expected (unsharded):", want.tolist())
    print("  DTensor, full_tensor:", got.tolist())
    bad |= not torch.equal(got, want)
if bad:
    print("BUG: a Partial(max/min) nan lives on one rank; mapping it to a number lets the other ranks' parts win")
    sys.exit(1)
print("fixed: the results agree")
