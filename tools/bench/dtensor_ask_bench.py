"""Asking DTensor about one sample (tools/dtensor/runtime_claims.py), with
and without reusing the output metadata across placements
(dtensor_private.tensor_meta_memo), alternated in one run.

Usage: bazel run //tools/bench:dtensor_ask_bench [-- ROUNDS]
After one warm-up round, prints per sample and round: input tuples, ms per
tuple memoized and not, and the ratio; then the totals. Run it on an idle
machine; BENCHMARKS.md records a run.
"""
import sys
import time

import torch

import dtensor_private as dt
import runtime_claims

aten = torch.ops.aten


def meta(shape, dtype=torch.float32):
    t = torch.empty(shape, dtype=dtype)
    return dt.TensorMeta(t.shape, t.stride(), t.dtype)


# Registered rules of several families, each sample as ShRT's specs give it.
SAMPLES = [
    ("aten::add.Tensor", aten.add.Tensor, {"self": meta((7, 5, 3)), "other": meta((5, 3))}),
    ("aten::mm", aten.mm.default, {"self": meta((7, 5)), "mat2": meta((5, 3))}),
    ("aten::sum.dim_IntList", aten.sum.dim_IntList,
     {"self": meta((6, 1, 4)), "dim": [0, 2], "keepdim": False}),
    ("aten::cat", aten.cat.default, {"tensors": [meta((3, 4)), meta((5, 4))], "dim": 0}),
    ("aten::_softmax", aten._softmax.default,
     {"self": meta((4, 6)), "dim": 1, "half_to_float": False}),
]


def main(argv):
    rounds = int(argv[0]) if argv else 3
    for _, op, args in SAMPLES:  # warm-up: first calls compile and cache
        for memoize in (True, False):
            runtime_claims.sample_claims(op, args, 4, memoize=memoize)
    totals = {True: [0.0, 0], False: [0.0, 0]}
    print("%-24s %6s %10s %10s %6s" % ("sample", "tuples", "memo ms", "plain ms", "ratio"))
    for r in range(rounds):
        for name, op, args in SAMPLES:
            per = {}
            order = (True, False) if r % 2 == 0 else (False, True)
            for memoize in order:
                start = time.perf_counter()
                claims = runtime_claims.sample_claims(op, args, 4, memoize=memoize)
                seconds = time.perf_counter() - start
                per[memoize] = seconds / claims.tuples * 1e3
                totals[memoize][0] += seconds
                totals[memoize][1] += claims.tuples
            print("%-24s %6d %10.3f %10.3f %6.2fx" % (name, claims.tuples, per[True], per[False],
                                                      per[False] / per[True]))
    memo = totals[True][0] / totals[True][1] * 1e3
    plain = totals[False][0] / totals[False][1] * 1e3
    print("total: %.3f ms per tuple memoized, %.3f not: %.2fx (torch %s)"
          % (memo, plain, plain / memo, torch.__version__))


if __name__ == "__main__":
    main(sys.argv[1:])
