#!/usr/bin/python3
"""Differential check of ShRT's ground truth against an independent eager
PyTorch implementation (DESIGN.md sections 2-4).

For each overload and world size W, both sides must find the same set of
valid rules on every expanded sample:

- the C++ side is `shrt discover --op=X --world_size=W --format=json` (each
  sample's `valid` list);
- the Python side re-implements DESIGN.md section 3 here, on the exact full
  input tensors and call arguments the C++ engine generates (exported by
  //tools/bench:export_cases), with the placements, candidate placements,
  per-rank locals, reductions and tolerances of the eager reference
  (tools/bench/reference_*.py), and its own Partial draws (torch.Generator,
  seeded differently from the C++'s SplitMix64): different draws, same
  semantics.

The Python judgement (DESIGN.md section 3, with its three refinements):
- a case is (sample, generator g, input placements); every input tuple runs
  once per rank, plus 3 redraws of the parts when an input is Partial and one
  variant with the P(max)/P(min) inputs negated; an exception on any rank
  refutes the tuple for every output placement;
- R: every local equals the full output; S(d): rank r's local equals chunk
  r (torch.chunk layout, empty chunks included); P(op): every local has the
  full shape and the reduction over ranks equals the full output;
- (a) the tolerance is torch.testing's default for the least precise
  floating dtype among the call's inputs and outputs (exact for integer and
  bool outputs; a spec's `tolerance` overrides it);
- (b) elements whose full output is non-finite carry no evidence for or
  against a Partial output; R and S outputs must match them position by
  position (NaN where NaN, infinities exactly);
- (c) when a floating output of a low-precision computation (least precise
  floating dtype not float64) fails the plain check, it is re-judged against
  a float64 reference call (floating inputs cast to float64) with the
  allowance atol + rtol*|ref| + slack (shrt/engine/output_check.h,
  CheckAgainstReference), where own = max |full - ref| (the unsharded
  call's own rounding), m = max |ref|, growth = max(1, W * largest |part| /
  largest |full input| of the Partial inputs) (1 without Partial inputs, W
  when the full inputs are all zero), and
      base  = F * max(own, eps * m) * growth
      R, S:  slack = min(F * eps * m + base, MAX_RELATIVE_ROUNDING * m)
      P(op): slack[i] = min(F * eps * s[i] + base,
                            MAX_RELATIVE_ROUNDING * (|ref[i]| + s[i]))
             with s[i] = sum_r |local_r[i]| + W * largest |part| for sum
             (the sum divided by W, plus W * largest |part|, for avg),
             W * |ref[i]| for product, 0 for max and min (exact);
             a non-finite s[i] counts as 0
  with F = ROUNDING_FACTOR (8) and eps the unit roundoff of that dtype. The
  plain check of a P(sum)/P(avg)/P(product) output keeps the eager
  reference's rounding slack of the reduction over ranks (4 * eps * (sum_r
  |local_r| + W * largest |part|), 4 * W * eps * |reduced|;
  reference_output_check.py), eps of the computation's dtype.
- complex tensors (complex64, complex128) are judged through their real
  views (torch.view_as_real: a trailing dim of 2, real and imaginary parts;
  shrt/engine/compare.h RealView): only P(sum) and P(avg) are candidates, their
  parts are drawn on the real view (complex parts), the reduction over
  ranks runs in complex128, comparisons compare the real views (an
  element's slack allowed for both parts; the sum of |parts| of the plain
  check takes each part's modulus, the re-judgement works on the real
  views element by element), the tolerance and eps of complex64 are
  float32's and of complex128 float64's, the float64 reference call widens
  complex64 to complex128, and largest |part| / |full input| are over the
  real views;
- a rule is valid when it holds in every case of the sample, at least one
  of them is informative (full output neither all-zero nor all-NaN), it is
  neither all-Replicate nor degenerate (all-R inputs, R/P(avg|max|min)
  outputs), and in-place outputs keep their input's placement.

The Python side lives beside this file, one purpose each:
differential_export.py (reading the export, calling the overload),
differential_output_check.py (the output check with the refinements, its
self-test) and differential_ground_truth.py (one sample's valid rules), on
the eager reference's modules (reference_*.py). This file runs the C++
side, compares the two, applies the explanations and holds the command
line.

Usage (from the workspace root, binaries built with
`bazel build --config=ci //tools/bench:export_cases //tools:shrt`):

    /usr/bin/python3 tools/bench/differential.py --ops=tools/bench/differential_ops.txt \\
        [--world_sizes=2,3,4] [--op=aten::mm ...] [--jobs=2]

Prints one line per (overload, W): agree, or disagree with the symmetric
difference per sample; then
`differential: N overloads x K world sizes, A agreements, D disagreements`.
Exit status 1 on a disagreement that tools/bench/differential_explained.txt
does not explain, or on a stale explanation; 2 on a usage error.
"""

import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from differential_export import Export  # noqa: E402  (the Python side, beside this file)
from differential_ground_truth import SampleError, evaluate  # noqa: E402
from differential_output_check import REFINEMENTS, selftest  # noqa: E402
from reference_runtime import disable_c10_backtraces, use_ground_truth_runtime  # noqa: E402


# ---------------------------------------------------------------------------
# The C++ side, the comparison, explanations.

def cpp_valid(shrt, op, w, seed):
    p = subprocess.run([shrt, "discover", "--op=" + op, "--world_size=%d" % w, "--format=json",
                        "--seed=%d" % seed], capture_output=True, text=True)
    if p.returncode != 0:
        raise SampleError("shrt discover failed (%d): %s" % (p.returncode, p.stderr.strip()[:500]))
    r = json.loads(p.stdout)
    return {s["name"]: set(s["valid"]) for s in r["samples"]}


def parse_explanations(path):
    """Entries `OVERLOAD | W | SAMPLE | SIDE | RULE | REASON` (W and SAMPLE
    may be `*`; SIDE is `cpp` (only the C++ finds the rule valid) or
    `python`); '#' starts a comment line."""
    entries = []
    if not path or not os.path.exists(path):
        return entries
    with open(path) as f:
        for n, line in enumerate(f, 1):
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            fields = [x.strip() for x in s.split("|")]
            if len(fields) != 6 or fields[3] not in ("cpp", "python") or not fields[5]:
                raise SystemExit("%s:%d: want 'OVERLOAD | W | SAMPLE | cpp|python | RULE | "
                                 "REASON'" % (path, n))
            entries.append({"op": fields[0], "w": fields[1], "sample": fields[2],
                            "side": fields[3], "rule": fields[4], "reason": fields[5],
                            "where": "%s:%d" % (path, n), "used": False})
    return entries


def explained(entries, op, w, sample, side, rule):
    hit = False
    for e in entries:
        if (e["op"] == op and e["w"] in ("*", str(w)) and e["sample"] in ("*", sample)
                and e["side"] == side and e["rule"] == rule):
            e["used"] = True
            hit = True
    return hit


def check_one(job):
    """(op, w, export dir, shrt, seed) -> (op, w, status, detail lines, diffs, seconds)."""
    op, w, directory, shrt, seed = job
    start = time.perf_counter()
    use_ground_truth_runtime()
    try:
        ex = Export(directory)
        py = evaluate(ex, w)
        cpp = cpp_valid(shrt, op, w, seed)
    except (SampleError, Exception) as e:  # noqa: BLE001
        return op, w, "error", ["%s: %s" % (type(e).__name__, e)], [], time.perf_counter() - start
    diffs = []  # (sample, side, rule)
    lines = []
    for name in sorted(set(py) | set(cpp)):
        p, c = py.get(name), cpp.get(name)
        # A sample the variant rejects (Python: None) has no valid rule; the
        # C++ lists it with an empty `valid` list.
        if name in py and p is None:
            p = set()
            lines.append("sample %s: the overload rejects the full inputs (no valid rule)" % name)
        if p is None and c is None:
            continue
        if p is None or c is None:
            side = "python" if c is None else "cpp"
            lines.append("sample %s: only the %s side judged it (the other skipped it)"
                         % (name, "Python" if c is None else "C++"))
            for rule in sorted(p if c is None else c):
                diffs.append((name, side, rule))
            if not (p or c):
                diffs.append((name, side, "<sample>"))
            continue
        for rule in sorted(c - p):
            diffs.append((name, "cpp", rule))
        for rule in sorted(p - c):
            diffs.append((name, "python", rule))
    n_rules = sum(len(v) for v in cpp.values() if v)
    return (op, w, "disagree" if diffs else "agree", lines, diffs, time.perf_counter() - start,
            len(cpp), n_rules)


def read_ops(path):
    ops = []
    with open(path) as f:
        for line in f:
            s = line.split("#", 1)[0].strip()
            if s:
                ops.append(s)
    return ops


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ops", help="file with one overload per line ('#' comments)")
    ap.add_argument("--op", action="append", default=[], help="an overload (repeatable)")
    ap.add_argument("--world_sizes", default="2,3,4")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--shrt", default="bazel-bin/tools/shrt", help="the shrt CLI (discover)")
    ap.add_argument("--export_cases", default="bazel-bin/tools/bench/export_cases")
    ap.add_argument("--explained", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                        "differential_explained.txt"))
    ap.add_argument("--export_dir", help="keep the export here (default: a temporary directory)")
    ap.add_argument("--without", default="",
                    help="turn off DESIGN.md section 3 refinements (a, b, c; comma-separated) "
                         "to see which one a disagreement comes from")
    a = ap.parse_args(argv)
    ops = list(a.op)
    if a.ops:
        ops += read_ops(a.ops)
    if not ops:
        ap.error("give --ops=FILE or --op=OVERLOAD")
    worlds = [int(x) for x in a.world_sizes.split(",") if x]
    for x in filter(None, a.without.split(",")):
        if x not in REFINEMENTS:
            ap.error("--without: unknown refinement %r (a, b or c)" % x)
        REFINEMENTS[x] = False
    entries = parse_explanations(a.explained)
    use_ground_truth_runtime()
    disable_c10_backtraces()
    problems = selftest()
    if problems:
        print("differential: the output check is broken: " + "; ".join(problems))
        return 1

    tmp = None
    export_dir = a.export_dir
    if export_dir is None:
        tmp = tempfile.TemporaryDirectory(prefix="shrt_differential_")
        export_dir = tmp.name
    p = subprocess.run([a.export_cases, "--op=" + ",".join(ops), "--out=" + export_dir,
                        "--seed=%d" % a.seed], capture_output=True, text=True)
    dirs = {}
    for line in p.stdout.splitlines():
        name, _, d = line.partition(" ")
        dirs[name] = d
    if p.returncode != 0:
        print(p.stderr.strip(), file=sys.stderr)
    start = time.perf_counter()
    jobs = []
    errors = []
    for op in ops:
        # export_cases prints canonical names; the list may say ".default".
        canon = op[:-len(".default")] if op.endswith(".default") else op
        if canon not in dirs:
            errors.append(op)
            continue
        for w in worlds:
            jobs.append((canon, w, dirs[canon], a.shrt, a.seed))
    results = []
    if a.jobs > 1:
        with concurrent.futures.ProcessPoolExecutor(a.jobs) as pool:
            results = list(pool.map(check_one, jobs))
    else:
        results = [check_one(j) for j in jobs]

    agree = disagree = unexplained = 0
    for op in errors:
        for w in worlds:
            print("%s W=%d: ERROR: not exported" % (op, w))
            disagree += 1
            unexplained += 1
    for r in results:
        op, w, status, lines, diffs, secs = r[:6]
        if status == "error":
            print("%s W=%d: ERROR: %s" % (op, w, "; ".join(lines)))
            disagree += 1
            unexplained += 1
            continue
        n_samples, n_rules = r[6], r[7]
        if status == "agree":
            agree += 1
            print("%s W=%d: agree (%d samples, %d valid rules, %.1f s)"
                  % (op, w, n_samples, n_rules, secs))
            continue
        disagree += 1
        open_ = [d for d in diffs if not explained(entries, op, w, *d)]
        if open_:
            unexplained += 1
        print("%s W=%d: disagree (%d differences, %d unexplained; %d samples, %.1f s)"
              % (op, w, len(diffs), len(open_), n_samples, secs))
        for line in lines:
            print("    " + line)
        for sample, side, rule in diffs:
            tag = "" if (sample, side, rule) in open_ else " [explained]"
            print("    sample %s: only %s finds valid: %s%s"
                  % (sample, "C++" if side == "cpp" else "Python", rule, tag))
    ran = {(r[0], r[1]) for r in results}
    stale = [e for e in entries if not e["used"] and any(
        e["op"] == op and e["w"] in ("*", str(w)) for op, w in ran)]
    for e in stale:
        print("stale explanation %s: %s | %s | %s | %s | %s"
              % (e["where"], e["op"], e["w"], e["sample"], e["side"], e["rule"]))
    print("differential: %d overloads x %d world sizes, %d agreements, %d disagreements"
          % (len(ops), len(worlds), agree, disagree))
    print("  (%d unexplained, %d stale explanations, %.0f s)"
          % (unexplained, len(stale), time.perf_counter() - start))
    if tmp is not None:
        tmp.cleanup()
    return 1 if unexplained or stale else 0


if __name__ == "__main__":
    sys.exit(main())
