"""DTensor bug: an operator sharded through its decomposition (no rule of
its own) gets the rules of its decomposition traced on a one-rank mesh,
where every Shard is even, so a sub-operator's evenness condition never
fires. aten.mse_loss (reduction='mean') with both inputs Shard(0) over 4
ranks is labelled Partial(avg), but rows [7, 5] shard 2, 2, 2, 1: the plain
average of the ranks' means weights the last rank's row twice, and on a
[3, 5] input rank 3 holds no row and its mean is nan.

DTensor's path (torch 2.13, torch/distributed/tensor/_decompositions.py,
DecompShardingStrategy.propagate_strategy): for each candidate input
placement it traces the decomposition (torch/_decomp/decompositions.py
mse_loss: (self - target) ** 2, then mean) on meta tensors with a fake
one-rank DeviceMesh (_get_fake_mesh), "false positives are caught on
expansion to the real, multi-dim device mesh". There, aten.mean's rule
(_ops/_math_ops.py common_reduction_strategy with reduction_op "avg")
allows S(0) -> P(avg) only where the reduced dim is evenly sharded
(is_tensor_evenly_shardable_on_dim), which always holds on one rank; the
expansion (_ops/utils.py expand_to_full_mesh_op_strategy) re-checks only
is_tensor_shardable (at least one row per rank), not evenness.
Found by ShRT: bazel run //tools:shrt -- validate --dtensor
--op=aten::mse_loss --world_size=4 (sample uneven_2d, reduction=1: "output
0 on the reduction over ranks" differs). The same path gives the other
mean-reducing losses (binary_cross_entropy, huber_loss, smooth_l1_loss,
...) the same rule.

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
from torch.distributed.tensor.debug import CommDebugMode

W = 4
MEAN = 1
x = torch.arange(35, dtype=torch.float64).reshape(7, 5)  # op_specs sample uneven_2d
target = torch.zeros(7, 5, dtype=torch.float64)
want = torch.ops.aten.mse_loss.default(x, target, MEAN)


def shard(t, dim):
    """t as a DTensor placed Shard(dim): rank r holds torch.chunk(t, W, dim)[r]."""
    chunks = list(torch.chunk(t, W, dim=dim)) + [t.narrow(dim, 0, 0)] * W
    return DTensor.from_local(LocalTensor({r: chunks[r].clone() for r in range(W)}), mesh, [Shard(dim)],
                              shape=t.shape, stride=t.stride())


dist.init_process_group("fake", store=dist.HashStore(), rank=0, world_size=W)
with LocalTensorMode(frozenset(range(W))):
    mesh = init_device_mesh("cpu", (W,))
    dx, dtarget = shard(x, 0), shard(target, 0)
    with CommDebugMode() as comm:
        loss = torch.ops.aten.mse_loss.default(dx, dtarget, MEAN)
    placements = loss.placements
    local = [loss.to_local()._local_tensors[r].item() for r in range(W)]
    got = loss.full_tensor()._local_tensors[0]

print(f"self, target {list(x.shape)} float64 Shard(0) over {W} ranks (rows 2, 2, 2, 1); reduction=1 (mean)")
print(f"collectives in the op: {comm.get_total_counts()} (no redistribution)")
print("output placements:", placements)
print(f"rank-local means {local}")
print(f"expected (full tensors): {want.item()}")
print(f"DTensor full_tensor()  : {got.item()}")
if not torch.allclose(got, want):
    print("BUG: Partial(avg) averages the ranks' means of unequal row counts")
    sys.exit(1)
print("fixed: the results agree")
