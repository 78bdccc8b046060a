"""DTensor bug: embedding_dense_backward with scale_grad_by_freq=True keeps
the batch-dim rule grad_output S(i), indices S(i) -> weight grad P(sum),
but the kernel divides each row's gradient by how often its index occurs
in the indices it is given. Sharded on the batch dim, each rank counts the
occurrences in its own chunk only, so a row whose index occurs on several
ranks is divided by the local counts and the sum over ranks is too large.

DTensor's rule: aten.embedding_dense_backward.default, [Partial(), Shard(i),
Shard(i)] for every dim i of indices (torch 2.13,
torch/distributed/tensor/_ops/_embedding_ops.py,
embedding_dense_backward_strategy), whatever scale_grad_by_freq is. Found
by ShRT: bazel run //tools:shrt -- validate --dtensor
--op=aten::embedding_dense_backward --world_size=3 (sample
uneven_2d_indices[scale_grad_by_freq=True]).

Runs on 2 simulated ranks in one process (LocalTensorMode); prints the
wrong numbers and exits 1 while the bug exists, 0 once it is fixed.
"""
import sys

import torch
import torch.distributed as dist
import torch.testing._internal.distributed.fake_pg  # noqa: F401 (registers the "fake" backend)
from torch.distributed._local_tensor import LocalTensorMode
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import Shard, distribute_tensor

W = 2
num_weights = 3
grad_output = torch.ones(4, 2)          # four lookups of a 2-wide embedding
indices = torch.tensor([0, 0, 0, 1])    # row 0 looked up three times: rank 0 sees two, rank 1 one
want = torch.ops.aten.embedding_dense_backward(grad_output, indices, num_weights, -1, True)

dist.init_process_group("fake", store=dist.HashStore(), rank=0, world_size=W)
with LocalTensorMode(frozenset(range(W))):
    mesh = init_device_mesh("cpu", (W,))
    dg = distribute_tensor(grad_output, mesh, [Shard(0)])
    di = distribute_tensor(indices, mesh, [Shard(0)])
    out = torch.ops.aten.embedding_dense_backward(dg, di, num_weights, -1, True)
    placements = out.placements
    got = out.full_tensor()._local_tensors[0]

print(f"embedding_dense_backward(scale_grad_by_freq=True), grad_output and indices S(0): "
      f"output placements {placements}")
print("  expected (unsharded):", want.tolist())
print("  DTensor, full_tensor:", got.tolist())
if not torch.equal(got, want):
    print("BUG: each rank scales by its own index counts, so the sum over ranks is not the gradient")
    sys.exit(1)
print("fixed: the results agree")
