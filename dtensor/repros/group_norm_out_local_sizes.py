"""DTensor bug: aten.native_group_norm.out accepts the input sharded on the
batch dim, Shard(0) -> Shard(0) for out0/out1/out2, but runs the local kernel
with the global N (and C, HxW) scalar args, so the kernel's check
X.numel() == N * C * HxW fails on every rank. The functional
aten.native_group_norm.default with the same rule works, because DTensor
rewrites N/C/HxW to each rank's local sizes for it, and only for it.

DTensor's rule (torch 2.13, torch/distributed/tensor/_ops/_math_ops.py):
  aten.native_group_norm.default input S(0) -> outputs S(0), S(0), S(0):
      group_norm_strategy, with _adjust_group_norm_scalars registered in
      sharding_propagator.op_to_scalar_shape_adjuster for the .default
      overload only (applied in _sharding_prop.py, propagate_op_sharding_
      non_cached, which sets use_val_from_redistribute_schema);
  aten.native_group_norm.out gets the same strategy from
      _ops/autogen.py, auto_register_op_variants / _make_out_variant_strategy_fn,
      but no scalar shape adjuster, so N, C, HxW stay global.
Found by ShRT: bazel run //tools:shrt -- validate --dtensor
--op=aten::native_group_norm.out --world_size=2 (sample no_affine_3d,
generator arange: "rank 0 raised: Expected X.numel() == N * C * HxW to be
true, but got false.").

Runs on 2 simulated ranks in one process (LocalTensorMode); prints the
error and exits 1 while the bug exists, 0 once it is fixed.
"""
import sys

import torch
import torch.distributed as dist
import torch.testing._internal.distributed.fake_pg  # noqa: F401 (registers the "fake" backend)
from torch.distributed._local_tensor import LocalTensor, LocalTensorMode
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Shard
from torch.distributed.tensor.debug import CommDebugMode

W = 2
N, C, HxW, group, eps = 3, 4, 5, 2, 1e-5  # op_specs sample no_affine_3d
x = torch.arange(N * C * HxW, dtype=torch.float32).reshape(N, C, HxW)
wants = torch.ops.aten.native_group_norm.default(x, None, None, N, C, HxW, group, eps)  # (out, mean, rstd)


def shard0(t):
    """t as a DTensor placed Shard(0): rank r holds torch.chunk(t, W)[r]."""
    chunks = list(torch.chunk(t, W, dim=0)) + [t[:0]] * W
    return DTensor.from_local(LocalTensor({r: chunks[r].clone() for r in range(W)}), mesh, [Shard(0)], shape=t.shape, stride=t.stride())


def check(name, outs):
    gots = [o.full_tensor()._local_tensors[0] for o in outs]
    ok = all(torch.allclose(g, w, atol=1e-5) for g, w in zip(gots, wants))
    print(f"  output placements {[o.placements for o in outs]}; {'matches' if ok else 'WRONG'}: "
          f"expected out[0,0] {wants[0][0, 0].tolist()}, got {gots[0][0, 0].tolist()}")
    return ok


dist.init_process_group("fake", store=dist.HashStore(), rank=0, world_size=W)
bad = False
with LocalTensorMode(frozenset(range(W))):
    mesh = init_device_mesh("cpu", (W,))
    dx = shard0(x)
    print(f"input x {list(x.shape)} Shard(0), rank-local shapes {[list(c.shape) for c in torch.chunk(x, W)]}; "
          f"N={N}, C={C}, HxW={HxW}, group={group}, eps={eps}")

    print("functional aten.native_group_norm.default(dx, None, None, N, C, HxW, group, eps):")
    with CommDebugMode() as comm:
        outs = torch.ops.aten.native_group_norm.default(dx, None, None, N, C, HxW, group, eps)
    print(f"  collectives: {comm.get_total_counts()}")
    check("default", outs)  # contrast only; the bug is in .out

    print("aten.native_group_norm.out(dx, None, None, N, C, HxW, group, eps, out0=, out1=, out2=), out tensors Shard(0):")
    o0, o1, o2 = (shard0(torch.zeros_like(w)) for w in wants)
    try:
        with CommDebugMode() as comm:  # counts the collectives of any redistribution
            outs = torch.ops.aten.native_group_norm.out(dx, None, None, N, C, HxW, group, eps, out0=o0, out1=o1, out2=o2)
        bad |= not check("out", outs)
    except Exception as e:  # the local kernel rejects the global N on each rank
        print(f"  DTensor raised: {type(e).__name__}: {str(e).splitlines()[0]}")
        print(f"  collectives before the error: {comm.get_total_counts()} (no redistribution: DTensor kept Shard(0) "
              f"and passed the global N={N} to each rank's kernel)")
        bad = True
if bad:
    print("BUG: native_group_norm.out runs on the Shard(0) chunks with the global N/C/HxW scalar args")
    sys.exit(1)
print("fixed: the results agree")
