"""DTensor bug: x.view(dtype) (a bit reinterpretation) keeps the input's
placement whatever it is:
  * Partial(sum) float32 viewed as int32: the bits of a sum are not the sum
    of the parts' bits, so the int32 "parts" do not add up to the result.
  * Shard(1) float64 [5, 3] viewed as int16 -> [5, 12]: each rank's chunk of
    k doubles becomes 4k int16s, so at W=4 the chunks are 4,4,4,0 columns,
    but Shard(1) of a 12-column tensor means 3,3,3,3 (ceil(n/W) * 4 !=
    ceil(4n/W)).  The output's layout does not match its local data.

DTensor's rule: aten.view.dtype, P(sum) -> P(sum) and S(1) -> S(1) (torch
2.13, torch/distributed/tensor/_ops/_tensor_ops.py: view.dtype is
registered with propagate_single_input_strategy, which keeps the input's
placements, Partial and uneven Shard included).
Found by ShRT: bazel run //tools:shrt -- validate --dtensor
--op=aten::view.dtype --world_size=4 (samples float_as_int32, [5, 3];
float64_as_int16, [5, 3]).

Runs on 4 simulated ranks in one process (LocalTensorMode); prints the
wrong numbers and exits 1 while the bug exists, 0 once it is fixed.
"""
import sys

import torch
import torch.distributed as dist
import torch.testing._internal.distributed.fake_pg  # noqa: F401 (registers the "fake" backend)
from torch.distributed._local_tensor import LocalTensor, LocalTensorMode
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Partial, Shard

W = 4
x = torch.arange(15, dtype=torch.float32).reshape(5, 3) + 0.5
y = torch.arange(15, dtype=torch.float64).reshape(5, 3) + 0.5
want_x, want_y = x.view(torch.int32), y.view(torch.int16)

dist.init_process_group("fake", store=dist.HashStore(), rank=0, world_size=W)
with LocalTensorMode(frozenset(range(W))):
    mesh = init_device_mesh("cpu", (W,))
    dx = DTensor.from_local(LocalTensor({r: x / W for r in range(W)}), mesh, [Partial("sum")], shape=x.shape, stride=x.stride())
    ox = dx.view(torch.int32)
    px, got_x = ox.placements, ox.full_tensor()._local_tensors[0]
    ychunks = list(torch.chunk(y, W, dim=1)) + [y[:, :0]] * W  # 3 columns over 4 ranks: 1, 1, 1, 0
    dy = DTensor.from_local(LocalTensor({r: ychunks[r] for r in range(W)}), mesh, [Shard(1)], shape=y.shape, stride=y.stride())
    oy = dy.view(torch.int16)
    py, oy_shape = oy.placements, list(oy.shape)
    local_shapes = [list(oy.to_local()._local_tensors[r].shape) for r in range(W)]
    try:
        got_y, full_err = oy.full_tensor()._local_tensors[0], None
    except RuntimeError as e:
        got_y, full_err = None, str(e).splitlines()[0]

print(f"float32 [5, 3] Partial(sum) .view(torch.int32): output placements {px}")
print("  expected row 0:", want_x[0].tolist())
print("  DTensor  row 0:", got_x[0].tolist())
print(f"float64 [5, 3] Shard(1) .view(torch.int16): output placements {py}, global shape {oy_shape}")
need = [list(c.shape) for c in torch.chunk(want_y, W, dim=1)]
print("  Shard(1) of the [5, 12] result would need rank-local shapes", need)
print("  DTensor's rank-local shapes                                 ", local_shapes)
if full_err:
    print("  oy.full_tensor() raised:", full_err)
if not torch.equal(got_x, want_x) or got_y is None or not torch.equal(got_y, want_y):
    print("BUG: view(dtype) keeps a placement that does not describe the result")
    sys.exit(1)
print("fixed: the results agree")
