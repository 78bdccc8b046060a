#!/usr/bin/python3
"""Eager-PyTorch reference of ShRT's ground-truth validation, for a throughput
comparison with the C++ pipeline (shrt/engine/ground_truth.cc).

Run with Debian's interpreter (tools/setup.sh installs the pinned torch into it):

    /usr/bin/python3 tools/bench/reference.py [--world_size 4] [--repeat N] [--rules]

The structure mirrors shrt/engine/ground_truth.cc (SampleTruth, RunTuple) and shrt/engine/verdicts.cc,
shrt/engine/distribute.cc (per-rank locals), shrt/engine/output_check.cc and
shrt/engine/compare.cc (output check, tolerances) and shrt/spec/generators.cc with
op_specs/recipes/default.textproto (the default recipe), so that both sides
do the same work (DESIGN.md sections 3, 4 and 8):

- the full output is computed once per (sample, generator);
- every tuple of input placements is enumerated, except tuples an earlier
  generator made dead (some output has no surviving placement);
- a tuple with a Partial input runs 3 redraws of the parts, plus one variant
  with P(max)/P(min) inputs negated (full output cached per negation mask);
- the op runs once per rank through the c10 dispatcher (torch.ops.aten);
- every output placement not yet refuted for the tuple is checked against
  those local results;
- combination checks are counted like the C++: for every evaluated
  (sample, generator, input tuple), the number of output placement tuples.

Values are drawn with torch.Generator (vectorised), not ShRT's SplitMix64,
so they do not match the C++ bit for bit. Evidence is recorded as a short
tuple (generator, variant, output, rank, reason), without the C++'s
formatted "largest difference" text.

Complex tensors (complex64, complex128) go through their real view
(torch.view_as_real: a trailing dim of 2, real and imaginary parts), like
shrt/engine/compare.h RealView: values are drawn as the real view (shape + [2], the
real dtype), P(sum)/P(avg) parts are drawn on the real view (so each part is
complex), only P(sum) and P(avg) are candidates, reductions over ranks run
in complex128, and comparisons compare real views with the tolerance and
epsilon of the real dtype (complex64: float32's, complex128: float64's).

The pieces live beside this file, one purpose each:
reference_placements.py (placements, candidates, dtype helpers),
reference_generators.py (seeds, the default recipe),
reference_distribute.py (per-rank locals, Partial parts),
reference_output_check.py (tolerances, OutputChecker),
reference_ground_truth.py (SampleTruth, run_tuple, validate) and
reference_runtime.py (libtorch settings, c10 backtraces); this file holds
the fixed workload and the command line. tools/bench/differential.py
reuses the pieces.
"""

import argparse
import sys
import time

import torch

from reference_ground_truth import Sample, validate
from reference_runtime import disable_c10_backtraces, use_ground_truth_runtime

aten = torch.ops.aten

# ---------------------------------------------------------------------------
# The fixed workload.

def workload():
    return [
        ("aten::add.Tensor", Sample("add", aten.add.Tensor, [(8, 16), (8, 16)])),
        ("aten::mul.Tensor", Sample("mul", aten.mul.Tensor, [(8, 16), (8, 16)])),
        ("aten::sum.dim_IntList",
         Sample("sum_dim0", aten.sum.dim_IntList, [(8, 16)], args=([0], False))),
        ("aten::argmax", Sample("argmax_dim1", aten.argmax.default, [(8, 16)], args=(1, False))),
        ("aten::mm", Sample("mm", aten.mm.default, [(8, 16), (16, 12)])),
        ("aten::linalg_cross",
         Sample("cross_dim1", lambda a, b: aten.linalg_cross.default(a, b, dim=1),
                [(8, 3), (8, 3)])),
    ]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--world_size", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=1,
                    help="run the workload N times and report the fastest run")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--redraws", type=int, default=3)
    ap.add_argument("--rules", action="store_true", help="print the valid rules per op")
    ap.add_argument("--cpp_backtraces", action="store_true",
                    help="keep c10's per-exception backtraces (stock PyTorch; the C++ "
                         "pipeline turns them off)")
    a = ap.parse_args(argv)
    use_ground_truth_runtime()
    if not a.cpp_backtraces:
        disable_c10_backtraces()

    best = None  # (total seconds, [(op, checks, seconds, rules)])
    for _ in range(max(1, a.repeat)):
        results = []
        for name, sample in workload():
            start = time.perf_counter()
            checks, rules = validate(sample, a.world_size, a.seed, sample.name, a.redraws)
            results.append((name, checks, time.perf_counter() - start, rules))
        total = sum(r[2] for r in results)
        if best is not None:
            assert [r[1] for r in best[1]] == [r[1] for r in results]
        if best is None or total < best[0]:
            best = (total, results)

    total_s, results = best
    total_checks = sum(r[1] for r in results)
    for name, checks, secs, rules in results:
        print("%s: %d combination checks, %.3f seconds, %d valid rules"
              % (name, checks, secs, len(rules)))
        if a.rules:
            for rule in rules:
                print("    " + rule)
    print("reference: %d combination checks in %.3f s = %.0f checks/s"
          % (total_checks, total_s, total_checks / total_s))
    return 0


if __name__ == "__main__":
    sys.exit(main())
