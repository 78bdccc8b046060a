"""DTensor bug: x.fill_(v) on a Partial(sum) DTensor keeps Partial(sum): every
rank's part becomes v, so the DTensor's value becomes W * v instead of v
(and v ** W for Partial(product); only max/min/avg parts all equal to v
would still mean v).

DTensor's rule: aten.fill_.Scalar, P(sum) -> P(sum) and P(product) ->
P(product) (torch 2.13, torch/distributed/tensor/_ops/_tensor_ops.py:
fill_.Scalar is registered with propagate_single_input_strategy, which
keeps whatever placement the input has, Partial included).
Found by ShRT: bazel run //tools:shrt -- validate --dtensor
--op=aten::fill_.Scalar --world_size=4.

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
x = torch.arange(6, dtype=torch.float32).reshape(2, 3) + 1
want = torch.full_like(x, 2.5)  # x.fill_(2.5)

dist.init_process_group("fake", store=dist.HashStore(), rank=0, world_size=W)
results = []
with LocalTensorMode(frozenset(range(W))):
    mesh = init_device_mesh("cpu", (W,))
    for op, parts in [("sum", {r: x / W for r in range(W)}),          # parts sum to x
                      ("product", {r: x if r == 0 else torch.ones_like(x) for r in range(W)})]:  # product is x
        dx = DTensor.from_local(LocalTensor(parts), mesh, [Partial(op)], shape=x.shape, stride=x.stride())
        try:
            out = dx.fill_(2.5)
        except RuntimeError as e:  # DTensor refusing an in-place placement change is no wrong value
            results.append((op, "refused: %s" % str(e).splitlines()[0], None, None))
            continue
        results.append((op, out.placements, out.to_local()._local_tensors[0].flatten().tolist(),
                        out.full_tensor()._local_tensors[0]))

bad = False
for op, placements, local0, got in results:
    if got is None:
        print(f"Partial({op}) input, x.fill_(2.5): DTensor {placements}")
        continue
    print(f"Partial({op}) input, x.fill_(2.5): output placements {placements}, rank 0 local {local0}")
    print("  expected (full tensor):", want.flatten().tolist())
    print("  DTensor, full_tensor  :", got.flatten().tolist())
    bad |= not torch.equal(got, want)
if bad:
    print("BUG: fill_ on a Partial DTensor sets every part, not the value")
    sys.exit(1)
print("fixed: the results agree, or DTensor refuses the in-place change")
