"""DTensor bug: the inf-norm of a Partial("max") tensor (and the -inf-norm
of a Partial("min") one) is labelled Partial("max") (Partial("min")), as if
the norm were the max (min) itself. It is the max of |x|, and |x| is not
monotone: a rank's part may lie far below the value (a Partial("max") part
only has to be <= it), and its large |part| then wins the max over ranks.

DTensor's rule: aten.linalg_vector_norm.default, aten.norm.Scalar (and
aten._foreach_norm.Scalar per tensor) P(max) -> P(max) for ord=inf,
P(min) -> P(min) for ord=-inf (torch 2.13,
torch/distributed/tensor/_ops/_math_ops.py: vector_norm_strategy maps
ord=inf to the reduction op "max" (_get_norm_reduction_op) and calls
common_reduction_strategy with the default reduction_linear=True, which
passes a Partial input through when its reduce op equals the reduction's).
Found by ShRT: bazel run //tools:shrt -- validate --dtensor
--op=aten::linalg_vector_norm --world_size=4 (sample uneven_2d, [7, 5],
dim=[0], ord=inf; also --op=aten::norm.Scalar and
--op=aten::_foreach_norm.Scalar, sample inf_ords).

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
x = torch.tensor([-3.0, -2.0, -6.0, 1.0])
# Partial("max") parts: rank 0 holds x, the others x - 10 (each <= x, so the
# max over ranks is x). Partial("min") parts: rank 0 holds x, the others
# x + 2.5 (each >= x).
cases = [("max", float("inf"), [x] + [x - 10] * (W - 1)),
         ("min", float("-inf"), [x] + [x + 2.5] * (W - 1))]

dist.init_process_group("fake", store=dist.HashStore(), rank=0, world_size=W)
bad = False
with LocalTensorMode(frozenset(range(W))):
    mesh = init_device_mesh("cpu", (W,))
    for op, ord, parts in cases:
        dx = DTensor.from_local(LocalTensor({r: parts[r] for r in range(W)}), mesh, [Partial(op)],
                                shape=x.shape, stride=x.stride())
        assert torch.equal(dx.full_tensor()._local_tensors[0], x)
        for name, fn in (("torch.linalg.vector_norm", lambda t: torch.linalg.vector_norm(t, ord=ord)),
                         ("torch.norm", lambda t: torch.norm(t, p=ord)),
                         ("torch._foreach_norm", lambda t: torch._foreach_norm([t], ord)[0])):
            out = fn(dx)
            got = out.full_tensor()._local_tensors[0]
            want = fn(x)
            print(f"{name}(x, {ord}) of x = {x.tolist()} held as Partial({op!r}): "
                  f"output placements {out.placements}")
            print(f"  expected {want.item()}, DTensor gives {got.item()}")
            bad |= not torch.allclose(got, want)
if bad:
    print("BUG: the +-inf norm of a Partial(max/min) input is labelled Partial(max/min)")
    sys.exit(1)
print("fixed: the results agree")
