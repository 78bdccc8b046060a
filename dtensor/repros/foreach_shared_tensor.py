"""DTensor bug: a `_foreach_*.Tensor` op takes one tensor that every list
position shares (`_foreach_mul.Tensor(Tensor[] self, Tensor other)`, the
optimizers' tensor step sizes), but DTensor picks that tensor's placement
per position. Position 0 may keep `other` Partial(sum) (R * P(sum) ->
P(sum) holds), position 1 may ask for it Replicate (P(sum) * R -> P(sum)),
and the dispatcher hands every position the same local `other`: position 1
then multiplies a Partial(sum) part by a Partial(sum) part, and the sum over
ranks of a_r * b_r is not (sum a_r) * (sum b_r).

DTensor's code: torch 2.13,
torch/distributed/tensor/_ops/single_dim_strategy.py,
`expanded_foreach_strategy`
builds one child strategy per list index with `_translate_list_op_schema`,
which indexes the TupleStrategy arguments and passes every other argument,
the shared OpStrategy among them, to each child whole; each child then
chooses its own input placement for it. Found by ShRT: bazel run
//tools:shrt -- validate --dtensor --op=aten::_foreach_mul.Tensor
--world_size=2 (sample two_uneven, list element 1).

Runs on 2 simulated ranks in one process (LocalTensorMode); prints the
wrong numbers and exits 1 while the bug exists, 0 once it is fixed.
"""
import sys

import torch
import torch.distributed as dist
import torch.testing._internal.distributed.fake_pg  # noqa: F401 (registers the "fake" backend)
from torch.distributed._local_tensor import LocalTensor, LocalTensorMode
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Partial, Replicate, distribute_tensor

W = 2
a = torch.tensor([1.0, 2.0])                                      # position 0, replicated
b_parts = {0: torch.tensor([1.0, 1.0]), 1: torch.tensor([2.0, 3.0])}  # position 1, Partial(sum)
o_parts = {0: torch.tensor(2.0), 1: torch.tensor(3.0)}            # the shared 0-d tensor, Partial(sum)
b = b_parts[0] + b_parts[1]
o = o_parts[0] + o_parts[1]
want = torch._foreach_mul([a, b], o)

dist.init_process_group("fake", store=dist.HashStore(), rank=0, world_size=W)
with LocalTensorMode(frozenset(range(W))):
    mesh = init_device_mesh("cpu", (W,))
    da = distribute_tensor(a, mesh, [Replicate()])
    db = DTensor.from_local(LocalTensor(b_parts), mesh, [Partial("sum")], shape=b.shape,
                            stride=b.stride())
    do = DTensor.from_local(LocalTensor(o_parts), mesh, [Partial("sum")], shape=o.shape,
                            stride=o.stride())
    outs = torch._foreach_mul([da, db], do)
    placements = [out.placements for out in outs]
    got = [out.full_tensor()._local_tensors[0] for out in outs]

print(f"_foreach_mul.Tensor([R, P(sum)], other P(sum)): output placements {placements}")
print("  expected (unsharded):", [t.tolist() for t in want])
print("  DTensor, full_tensor:", [t.tolist() for t in got])
if not all(torch.equal(g, w) for g, w in zip(got, want)):
    print("BUG: position 1 multiplies the parts of two Partial(sum) tensors; "
          "the shared tensor's placement was chosen per position")
    sys.exit(1)
print("fixed: the results agree")
