"""Asking DTensor about one sample (tools/dtensor/runtime_claims.py) three
ways, alternated in one run: as `validate --dtensor` asks (tuples no rule
can claim left unasked, output metadata and decomposition traces
memoized), asking every tuple (memoized), and asking every tuple without
the memos (dtensor_private.tensor_meta_memo, decomposition_memo).

Usage: bazel run //tools/bench:dtensor_ask_bench [-- ROUNDS]
After one warm-up round, prints per sample and round the input tuples
considered and the ms per considered tuple of each way; then the totals and
the ratios. All three give the same claims (runtime_claims_test
UnmatchedTuplesTest). Run it on an idle machine; BENCHMARKS.md records a run.
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


# Registered rules of several families and two overloads DTensor shards
# through their decomposition, each sample as ShRT's specs give it, on a
# mesh: W = 4, or 2x2. The op strategies of sum.dim_IntList and _softmax
# are asked every tuple in every way, and so is cat (its rule inputs are
# not one placement per tensor); a foreach op is pruned per list element
# (_ElementRuleInputs), index_put's index list as tensors of their own.
SAMPLES = [
    ("aten::add.Tensor", aten.add.Tensor, {"self": meta((7, 5, 3)), "other": meta((5, 3))}, 4),
    ("aten::mm", aten.mm.default, {"self": meta((7, 5)), "mat2": meta((5, 3))}, 4),
    ("aten::sum.dim_IntList", aten.sum.dim_IntList,
     {"self": meta((6, 1, 4)), "dim": [0, 2], "keepdim": False}, 4),
    ("aten::cat", aten.cat.default, {"tensors": [meta((3, 4)), meta((5, 4))], "dim": 0}, 4),
    ("aten::_softmax", aten._softmax.default,
     {"self": meta((4, 6)), "dim": 1, "half_to_float": False}, 4),
    ("aten::where.self", aten.where.self,
     {"condition": meta((4, 6), torch.bool), "self": meta((4, 6)), "other": meta((1, 6))}, 4),
    ("aten::mm 2x2", aten.mm.default, {"self": meta((8, 6)), "mat2": meta((6, 4))}, (2, 2)),
    ("aten::_foreach_add.List", aten._foreach_add.List,
     {"self": [meta((7, 5)), meta((3,))], "other": [meta((5,)), meta(())], "alpha": -1.5}, 4),
    ("aten::index_put", aten.index_put.default,
     {"self": meta((6, 4)), "indices": [None, meta((3,), torch.int64)], "values": meta((6, 3))}, 4),
    # No registered rule: DTensor's decomposition path (DecompShardingStrategy).
    ("aten::mse_loss (decomp)", aten.mse_loss.default,
     {"self": meta((7, 5)), "target": meta((7, 5))}, 4),
    ("aten::addr (decomp)", aten.addr.default,
     {"self": meta((7, 5)), "vec1": meta((7,)), "vec2": meta((5,))}, 4),
]

# (name, memoize, prune): the shipped way first.
WAYS = [("asked", True, True), ("every", True, False), ("plain", False, False)]


def main(argv):
    rounds = int(argv[0]) if argv else 3
    for _, op, args, mesh in SAMPLES:  # warm-up: first calls compile and cache
        for _, memoize, prune in WAYS:
            runtime_claims.sample_claims(op, args, mesh, memoize=memoize, prune=prune)
    totals = {name: 0.0 for name, _, _ in WAYS}
    considered = 0
    print("%-24s %6s %9s %9s %9s %7s %7s" % ("sample", "tuples", "asked ms", "every ms",
                                            "plain ms", "every/", "plain/"))
    for r in range(rounds):
        for label, op, args, mesh in SAMPLES:
            per = {}
            order = WAYS if r % 2 == 0 else WAYS[::-1]
            for name, memoize, prune in order:
                start = time.perf_counter()
                claims = runtime_claims.sample_claims(op, args, mesh, memoize=memoize, prune=prune)
                seconds = time.perf_counter() - start
                tuples = claims.tuples + claims.unmatched
                per[name] = seconds / tuples * 1e3
                totals[name] += seconds
            considered += tuples
            print("%-24s %6d %9.3f %9.3f %9.3f %6.2fx %6.2fx"
                  % (label, tuples, per["asked"], per["every"], per["plain"],
                     per["every"] / per["asked"], per["plain"] / per["asked"]))
    ms = {name: seconds / considered * 1e3 for name, seconds in totals.items()}
    print("total ms per considered tuple: asked %.3f, every %.3f (%.2fx), plain %.3f (%.2fx); "
          "torch %s" % (ms["asked"], ms["every"], ms["every"] / ms["asked"], ms["plain"],
                        ms["plain"] / ms["asked"], torch.__version__))


if __name__ == "__main__":
    main(sys.argv[1:])
