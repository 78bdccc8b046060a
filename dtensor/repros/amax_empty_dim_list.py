"""DTensor bug: torch.amax(x, dim=[], keepdim=True) (and torch.amin) reduce
over ALL dims -- an empty dim list means "every dim" for amax/amin -- but
DTensor treats the empty list as "no dim reduced" and keeps the input's
Shard(0), so each rank returns the max of its own chunk only.

DTensor's rule: aten.amax.default / aten.amin.default, S(0) -> S(0) for
dim=[] (torch 2.13, torch/distributed/tensor/_ops/_math_ops.py,
linear_reduction_strategy: _infer_reduction_dims([]) returns [] and
common_reduction_strategy then reduces no dim; the same file maps
dim=[] to "all dims" only for 0-d inputs).
Found by ShRT: bazel run //tools:shrt -- validate --dtensor --op=aten::amax
--world_size=4 (sample uneven_2d, [7, 5], dim=[], keepdim=True; same for
aten::amin).

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

W = 4
x = torch.arange(1, 36, dtype=torch.float32).reshape(7, 5)

dist.init_process_group("fake", store=dist.HashStore(), rank=0, world_size=W)
results = []
with LocalTensorMode(frozenset(range(W))):
    mesh = init_device_mesh("cpu", (W,))
    # x sharded on dim 0: 7 rows over 4 ranks are 2, 2, 2, 1.
    chunks = torch.chunk(x, W, dim=0)
    dx = DTensor.from_local(LocalTensor({r: chunks[r] for r in range(W)}), mesh, [Shard(0)], shape=x.shape, stride=x.stride())
    for op in (torch.amax, torch.amin):
        out = op(dx, dim=[], keepdim=True)
        locs = out.to_local()._local_tensors
        results.append((op, out.placements, out.shape, [locs[r].clone() for r in range(W)],
                        out.full_tensor()._local_tensors[0]))

bad = False
for op, placements, shape, locs, got in results:
    want = op(x, dim=[], keepdim=True)
    print(f"torch.{op.__name__}(x, dim=[], keepdim=True): output placements {placements}, global shape {list(shape)}")
    print("  expected (full tensor):", want.tolist())
    print("  DTensor rank locals   :", [t.tolist() for t in locs])
    print("  DTensor full_tensor   :", got.tolist(), "(the rank locals assembled as the placements say)")
    bad |= not torch.equal(got, want)
if bad:
    print("BUG: dim=[] is treated as no reduction instead of a reduction over all dims")
    sys.exit(1)
print("fixed: the results agree")
