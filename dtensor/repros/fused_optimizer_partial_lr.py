"""DTensor bug: the fused optimizers' `tensor_lr` overloads
(`_fused_adam(_).tensor_lr`, `_fused_adamw(_).tensor_lr`) accept a
Partial `lr` and run the kernel on each rank's part of it, so every rank
steps its parameters with a different, wrong learning rate, and the result
is labelled Replicate (or Shard) as if the whole lr had been used.

`lr` is a keyword-only tensor beside the lists. DTensor expands the
registration per list element (each element's rules take lr as an input),
but when it decides whether the inputs must be redistributed it compares
only the positional arguments with the selected strategies (torch 2.13,
torch/distributed/tensor/_sharding_prop.py,
`propagate_op_sharding_non_cached`, the TupleStrategy branch, which loops
over `op_schema.args_schema` and keeps `kwargs_schema` as it is): lr is
never compared and never redistributed, whatever its placement. Found by
ShRT: bazel run //tools:shrt -- validate --dtensor
--op=aten::_fused_adam_.tensor_lr --world_size=4.

Runs on 2 real ranks (two processes, the gloo backend on loopback: the
simulated ranks of LocalTensorMode do not unwrap a keyword-only tensor for
the kernel); prints the wrong numbers and exits 1 while the bug exists, 0
once it is fixed.
"""
import socket
import sys

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Partial, Replicate, distribute_tensor

W = 2
param, grad = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([0.5, -1.0, 2.0])
exp_avg, exp_avg_sq, step = torch.zeros(3), torch.zeros(3), torch.tensor(1.0)
lr_parts = [torch.tensor(0.25), torch.tensor(0.75)]  # lr = 1.0, Partial(sum)
hyper = dict(beta1=0.9, beta2=0.999, weight_decay=0.0, eps=1e-8, amsgrad=False, maximize=False)


def rank_main(rank, port, results):
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=W)
    mesh = init_device_mesh("cpu", (W,))
    p, g, m, v, s = (distribute_tensor(t.clone(), mesh, [Replicate()])
                     for t in (param, grad, exp_avg, exp_avg_sq, step))
    lr = DTensor.from_local(lr_parts[rank], mesh, [Partial("sum")])
    torch._fused_adam_([p], [g], [m], [v], [], [s], lr=lr, **hyper)
    results.put((rank, str(p.placements), p.to_local().tolist()))
    dist.destroy_process_group()


if __name__ == "__main__":
    want = param.clone()
    torch._fused_adam_([want], [grad], [exp_avg.clone()], [exp_avg_sq.clone()], [],
                       [step.clone()], lr=sum(lr_parts), **hyper)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    ctx = mp.get_context("spawn")
    results = ctx.Queue()
    procs = [ctx.Process(target=rank_main, args=(r, port, results)) for r in range(W)]
    for proc in procs:
        proc.start()
    got = dict((r, (placements, local)) for r, placements, local in
               (results.get(timeout=120) for _ in range(W)))
    for proc in procs:
        proc.join()
    print("_fused_adam_.tensor_lr, lists R, lr P(sum) (parts 0.25 and 0.75, lr = 1.0)")
    print("  expected (unsharded):          ", want.tolist())
    for r in range(W):
        print(f"  DTensor {got[r][0]}, rank {r}:", got[r][1])
    if not all(torch.allclose(torch.tensor(got[r][1]), want) for r in range(W)):
        print("BUG: each rank stepped with its own part of the Partial lr; "
              "the keyword-only lr is never redistributed")
        sys.exit(1)
    print("fixed: the results agree")
