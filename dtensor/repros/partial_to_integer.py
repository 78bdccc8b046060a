"""DTensor bug: casting a float Partial(sum) DTensor to an integer dtype keeps
Partial(sum), but the cast then truncates each rank's part, and truncation
does not distribute over the parts' sum: trunc(a) + trunc(b) != trunc(a + b).
The same holds for an integer avg_pool2d of Partial(sum) parts (floor of each
part's window mean).

DTensor's rules (torch 2.13, torch/distributed/tensor/_ops/):
  aten.to.dtype  P(sum) -> P(sum)          _pointwise_ops.py, the
      all_partial_preserving_unary_ops / _ALL_PARTIAL_PRESERVING_RULES;
      (aten.to.dtype is CompositeImplicit: it reaches DTensor, instead of
      _to_copy whose rule is dtype-aware, under torch.inference_mode())
  aten.copy_, aten.copy.out, prims.copy_to  P(sum), P(sum) -> P(sum)
      _pointwise_ops.py, the
      all_partial_preserving_binary_ops / _ALL_PARTIAL_BINARY_PRESERVING_RULES
      (int64 self, float src)
  aten.avg_pool2d P(sum) -> P(sum)         _math_ops.py, pooling_strategy
      (Partial for AVG_POOL_OPS also for integer inputs)
Found by ShRT: bazel run //tools:shrt -- validate --dtensor --op=aten::to.dtype
(and --op=aten::copy_, aten::copy.out or prims::copy_to, sample
f32_into_int64;
--op=aten::avg_pool2d, sample
int64) --world_size=4.

Runs on 4 simulated ranks in one process (LocalTensorMode); prints the
wrong numbers and exits 1 while the bug exists, 0 once it is fixed.
"""
import sys

import torch
import torch.distributed as dist
import torch.nn.functional as F
import torch.testing._internal.distributed.fake_pg  # noqa: F401 (registers the "fake" backend)
from torch.distributed._local_tensor import LocalTensor, LocalTensorMode
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Partial

W = 4
x = torch.tensor([[0.6, 1.2, 2.0], [3.4, 5.0, 7.8]])  # float32
xi = torch.ones(1, 1, 2, 2, dtype=torch.int64)  # int64, one 2x2 window
want = {"to": x.to(torch.int64), "copy_": x.to(torch.int64), "copy.out": x.to(torch.int64),
        "prims.copy_to": x.to(torch.int64),
        "avg_pool2d": F.avg_pool2d(xi, 2)}

dist.init_process_group("fake", store=dist.HashStore(), rank=0, world_size=W)
got, placements = {}, {}
with LocalTensorMode(frozenset(range(W))):
    mesh = init_device_mesh("cpu", (W,))
    def partial(parts, t):  # a valid Partial(sum) DTensor whose parts sum to t
        return DTensor.from_local(LocalTensor(parts), mesh, [Partial("sum")], shape=t.shape, stride=t.stride())
    dx = partial({r: x / W for r in range(W)}, x)
    with torch.inference_mode():
        outs = {"to": dx.to(torch.int64)}
    def attempt(name, call):  # an in-place or out= call; DTensor refusing it is no wrong value
        try:
            outs[name] = call()
        except RuntimeError as e:
            refused[name] = str(e).splitlines()[0]
    refused = {}
    zeros = lambda: partial({r: torch.zeros(x.shape, dtype=torch.int64) for r in range(W)}, x)
    attempt("copy_", lambda: zeros().copy_(dx))
    attempt("copy.out", lambda: torch.ops.aten.copy.out(zeros(), dx, out=zeros()))
    attempt("prims.copy_to", lambda: torch.ops.prims.copy_to(zeros(), dx))
    # xi as W one-hot parts: rank r holds the window's element r.
    dxi = partial({r: torch.eye(4, dtype=torch.int64)[r].reshape(1, 1, 2, 2) for r in range(W)}, xi)
    outs["avg_pool2d"] = F.avg_pool2d(dxi, 2)
    for k, out in outs.items():
        placements[k], got[k] = out.placements, out.full_tensor()._local_tensors[0]

bad = False
for k in want:
    if k in refused:
        print(f"{k}: DTensor refuses: {refused[k]}")
        continue
    print(f"{k}: output placements {placements[k]}")
    print("  expected (full tensor):", want[k].flatten().tolist())
    print("  DTensor, full_tensor  :", got[k].flatten().tolist())
    bad |= not torch.equal(got[k], want[k])
if bad:
    print("BUG: the Partial(sum) result differs from the full computation")
    sys.exit(1)
print("fixed: the results agree, or DTensor refuses the in-place or out= change")
