"""DTensor bug: aten.nll_loss2d_forward with reduction='mean' (1) and a class
weight (and/or ignored targets) accepts self sharded on a spatial dim and
labels the loss Partial(avg). But each rank's loss is its own weighted mean
sum_i(w[t_i] * l_i) / sum_i(w[t_i]) over its pixels, and the plain average of
those means is the global weighted mean only when every rank's total weight
sum_i(w[t_i]) is the same; with a weight or ignore_index it is not. The rule
only checks that the target is evenly shardable (here it is: W=3 over 3 ranks).
total_weight, labelled Partial(sum), comes out right.

DTensor's rule (torch 2.13,
torch/distributed/tensor/_ops/_math_ops.py, nll_loss_forward_strategy,
registered for aten.nll_loss_forward.default and aten.nll_loss2d_forward.default):
  self S(3), target S(2), weight R -> output P(avg), total_weight P(sum)
  for reduction MEAN (map_placements_after_reduction(..., "avg")), gated
  only on is_tensor_evenly_shardable(target), never on weight/ignore_index.
Found by ShRT: bazel run //tools:shrt -- validate --dtensor
--op=aten::nll_loss2d_forward --world_size=3 (sample
weight_ignore_size1_float64, reduction=1: "output 0 on the reduction over
ranks" differs).

Runs on 3 simulated ranks in one process (LocalTensorMode); prints the
wrong numbers and exits 1 while the bug exists, 0 once it is fixed.
"""
import sys

import torch
import torch.distributed as dist
import torch.testing._internal.distributed.fake_pg  # noqa: F401 (registers the "fake" backend)
from torch.distributed._local_tensor import LocalTensor, LocalTensorMode
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Replicate, Shard
from torch.distributed.tensor.debug import CommDebugMode

W = 3
N, C, H, Wd = 5, 4, 1, 3  # op_specs sample weight_ignore_size1_float64
MEAN, ignore_index = 1, 1
x = torch.log_softmax(torch.arange(N * C * H * Wd, dtype=torch.float64).reshape(N, C, H, Wd).sin(), dim=1)
weight = torch.tensor([0.5, 1.0, 2.0, 4.0], dtype=torch.float64)
# Column w (rank w's shard) gets different classes: rank 0 mostly class 0
# (weight 0.5), rank 1 mostly ignore_index 1, rank 2 mostly class 3 (weight 4).
target = torch.tensor([[0, 1, 3], [0, 1, 3], [0, 1, 3], [2, 0, 3], [0, 1, 2]], dtype=torch.int64).reshape(N, H, Wd)
want_loss, want_tw = torch.ops.aten.nll_loss2d_forward.default(x, target, weight, MEAN, ignore_index)


def shard(t, dim):
    """t as a DTensor placed Shard(dim): rank r holds torch.chunk(t, W, dim)[r]."""
    chunks = list(torch.chunk(t, W, dim=dim)) + [t.narrow(dim, 0, 0)] * W
    return DTensor.from_local(LocalTensor({r: chunks[r].clone() for r in range(W)}), mesh, [Shard(dim)],
                              shape=t.shape, stride=t.stride())


dist.init_process_group("fake", store=dist.HashStore(), rank=0, world_size=W)
with LocalTensorMode(frozenset(range(W))):
    mesh = init_device_mesh("cpu", (W,))
    dx, dt = shard(x, 3), shard(target, 2)
    dw = DTensor.from_local(LocalTensor({r: weight.clone() for r in range(W)}), mesh, [Replicate()],
                            shape=weight.shape, stride=weight.stride())
    with CommDebugMode() as comm:
        loss, tw = torch.ops.aten.nll_loss2d_forward.default(dx, dt, dw, MEAN, ignore_index)
    placements = (loss.placements, tw.placements)
    local_losses = [loss.to_local()._local_tensors[r].item() for r in range(W)]
    local_tws = [tw.to_local()._local_tensors[r].item() for r in range(W)]
    got_loss = loss.full_tensor()._local_tensors[0]
    got_tw = tw.full_tensor()._local_tensors[0]

print(f"self {list(x.shape)} float64 Shard(3), target {list(target.shape)} Shard(2), weight {weight.tolist()} "
      f"Replicate(); reduction=1 (mean), ignore_index={ignore_index}")
print(f"target columns (one per rank): {[target[..., r].flatten().tolist() for r in range(W)]}")
print(f"collectives in the op: {comm.get_total_counts()} (no redistribution)")
print("output placements (loss, total_weight):", placements)
print(f"rank-local losses {local_losses}, rank-local total weights {local_tws}")
print(f"expected (full tensors): loss {want_loss.item():.10f}, total_weight {want_tw.item()}")
print(f"DTensor full_tensor()  : loss {got_loss.item():.10f}, total_weight {got_tw.item()}")
if not (torch.allclose(got_loss, want_loss) and torch.allclose(got_tw, want_tw)):
    print("BUG: Partial(avg) averages the ranks' weighted means; the ranks' total weights differ")
    sys.exit(1)
print("fixed: the results agree")
