"""DTensor bug: `_foreach_addcdiv_.Tensor` and `_foreach_addcmul_.Tensor` are
registered with DTensor but raise on every DTensor input, whatever the
placements: "Expected scalars to be on CPU, got meta instead."

These overloads take the per-position values from a 1-d tensor `scalars`,
which ATen's kernel reads on the host (ATen/native/ForeachUtils.h,
`convert_tensor_to_scalar_list`, requires scalars.device() == CPU). DTensor
computes the output metadata by running the op under FakeTensorMode
(torch 2.13, torch/distributed/tensor/_sharding_prop.py,
`_propagate_tensor_meta_non_cached`), and FakeTensor's `_foreach_*` rule
(torch/_subclasses/fake_impls.py, `foreach_run_and_map_input_device`) runs
the meta kernel with every tensor on the meta device, `scalars` included, so
the kernel's check fails before any rule is consulted: plain FakeTensorMode
raises the same. Found by ShRT: bazel run //tools:shrt -- validate --dtensor
--op=aten::_foreach_addcdiv_.Tensor --world_size=4 (DTensor raises on every
input tuple asked).

Runs on 4 simulated ranks in one process (LocalTensorMode); prints what
raises and exits 1 while the bug exists, 0 once it is fixed.
"""
import sys

import torch
import torch.distributed as dist
import torch.testing._internal.distributed.fake_pg  # noqa: F401 (registers the "fake" backend)
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.distributed._local_tensor import LocalTensorMode
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import Replicate, Shard, distribute_tensor

W = 4
torch.manual_seed(0)
x, t1, t2 = torch.randn(8, 3), torch.randn(8, 3), torch.rand(8, 3) + 1
scalars = torch.tensor([0.5])
ops = {"_foreach_addcdiv_": torch._foreach_addcdiv_, "_foreach_addcmul_": torch._foreach_addcmul_}


def attempt(label, fn):
    try:
        fn()
    except RuntimeError as e:
        print(f"{label}: raises: {str(e).splitlines()[0]}")
        return False
    print(f"{label}: runs")
    return True


ok = True
for name, op in ops.items():
    want = x.clone()
    op([want], [t1], [t2], scalars)
    print(f"{name} on plain tensors: {want[0].tolist()} (first row)")
    with FakeTensorMode():
        fx, f1, f2, fs = (torch.empty(t.shape) for t in (x, t1, t2, scalars))
        ok &= attempt(f"{name} under FakeTensorMode", lambda: op([fx], [f1], [f2], fs))

dist.init_process_group("fake", store=dist.HashStore(), rank=0, world_size=W)
with LocalTensorMode(frozenset(range(W))):
    mesh = init_device_mesh("cpu", (W,))
    d1, d2 = (distribute_tensor(t, mesh, [Shard(0)]) for t in (t1, t2))
    ds = distribute_tensor(scalars, mesh, [Replicate()])
    for name, op in ops.items():
        dx = distribute_tensor(x.clone(), mesh, [Shard(0)])
        ok &= attempt(f"{name} on DTensors, every tensor S(0), scalars R",
                      lambda: op([dx], [d1], [d2], ds))

if not ok:
    print("BUG: DTensor registers these overloads, but its sharding propagation raises on every input")
    sys.exit(1)
print("fixed: the overloads run on DTensors")
