"""DTensor bug: an overload without a rule of its own, sharded through its
decomposition, is run on the local tensors with its arguments as given:
sizes and lengths that are the global ones, and other tensors whose sizes
are local. The decomposition path derives the rule from the decomposition
traced on the global shapes (where aten.narrow is a slice of the global
length, aten.view_as a view to the other tensor's global size), and for
those sub-operators DTensor would rewrite the sizes for the local call
(their registered rules' use_val_from_redistribute_schema), but the
overload itself gets no rewrite. Shown in inference mode, where DTensor
sees these CompositeImplicitAutograd overloads (outside it they decompose
before DTensor's dispatch, and the sub-operators' rules apply):
  - narrow(x, 0, 0, 7) of a Shard(0) [7, 5] over 4 ranks: claimed
    Shard(0) -> Shard(0), but rank 0 (2 rows) raises "start (0) + length
    (7) exceeds dimension size (2)";
  - x.view_as(y) with x Replicate [5, 1, 6] and y Shard(0) [5, 1, 6]:
    claimed R, S(0) -> R, but each rank views its 30 elements as y's local
    [2, 1, 6] and raises.
The same holds for unflatten.int, expand_as and reshape_as.

DTensor's path (torch 2.13, torch/distributed/tensor/_sharding_prop.py,
ShardingPropagator.propagate_op_sharding_non_cached: no registered
strategy, DecompShardingStrategy.propagate_strategy in _decompositions.py;
then _dispatch.py OpDispatcher runs the op on the local tensors).
Found by ShRT: bazel run //tools:shrt -- validate --dtensor
--op=aten::narrow,aten::view_as --world_size=4.

Runs on 4 simulated ranks in one process (LocalTensorMode); prints what
DTensor does and exits 1 while the bug exists, 0 once it is fixed.
"""
import sys

import torch
import torch.distributed as dist
import torch.testing._internal.distributed.fake_pg  # noqa: F401 (registers the "fake" backend)
from torch.distributed._local_tensor import LocalTensor, LocalTensorMode
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Replicate, Shard

W = 4


def place(t, placement):
    """t as a DTensor placed `placement` (Shard: torch.chunk's chunks)."""
    if isinstance(placement, Shard):
        chunks = list(torch.chunk(t, W, dim=placement.dim)) + [t.narrow(placement.dim, 0, 0)] * W
        local = {r: chunks[r].clone() for r in range(W)}
    else:
        local = {r: t.clone() for r in range(W)}
    return DTensor.from_local(LocalTensor(local), mesh, [placement], shape=t.shape, stride=t.stride())


x = torch.arange(35.0).reshape(7, 5)
a = torch.arange(30.0).reshape(5, 1, 6)
cases = [
    ("narrow(x, 0, 0, 7), x Shard(0) [7, 5]", lambda: torch.narrow(place(x, Shard(0)), 0, 0, 7),
     torch.narrow(x, 0, 0, 7)),
    ("a.view_as(b), a Replicate, b Shard(0), both [5, 1, 6]",
     lambda: place(a, Replicate()).view_as(place(a + 1, Shard(0))), a.view_as(a)),
]
dist.init_process_group("fake", store=dist.HashStore(), rank=0, world_size=W)
failed = False
with LocalTensorMode(frozenset(range(W))):
    mesh = init_device_mesh("cpu", (W,))
    for text, call, want in cases:
        try:
            with torch.inference_mode():
                got = call()
            full = got.full_tensor()._local_tensors[0]
            ok = full.shape == want.shape and torch.equal(full, want)
            print(f"{text}: placements {got.placements}, {'agrees' if ok else 'WRONG: ' + str(full.shape)}")
        except Exception as e:  # noqa: BLE001 (the bug: a rank's local call raises)
            ok = False
            print(f"{text}: raised {type(e).__name__}: {str(e).splitlines()[0]}")
        failed = failed or not ok
if failed:
    print("BUG: the overload ran on local tensors with global sizes (or another tensor's local size)")
    sys.exit(1)
print("fixed: the results agree")
