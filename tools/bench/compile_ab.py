"""Compile time of the same sources in two trees, alternated file by file.

Usage: compile_ab.py BASE_ROOT BASE_AQUERY HEAD_ROOT HEAD_AQUERY [--limit=N] [--seed=S]

BASE_ROOT and HEAD_ROOT are Bazel execution roots (`bazel info
execution_root`) after a build of the queried targets; BASE_AQUERY and
HEAD_AQUERY are `bazel aquery 'mnemonic("CppCompile", ...)'
--output=jsonproto` of the same targets there (tools/bench/compile_ab.sh
makes all four).

Takes every source file of this workspace compiled in both trees (the
-fPIC compile, as the tests and the CLI link it) whose compile differs: its
transitive headers (`gcc -M`) or its flags. Runs each such compile once in
the base tree and once in this one, back to back, so that a change in the
machine's speed hits both alike, and prints a Markdown table per file with
the heavy libtorch headers each side includes, then the totals and their
ratio. A source only one tree compiles (a file added or removed) is timed
once in that tree and counted in its total. --limit takes a seeded random
sample of N of the common files.
"""
import json
import random
import subprocess
import sys
import time

# Headers that cost seconds per translation unit (BENCHMARKS.md "Issue 28,
# compiles": syntax-only time of a file including only that header; "a
# compile firewall for ATen's functions").
_HEAVY = {
    "ATen/ATen.h": "ATen.h",
    "ATen/Context.h": "Context.h",  # every ATen/ops/<op>.h (shrt/spec/aten_functions.h)
    "ATen/core/dispatch/Dispatcher.h": "Dispatcher.h",
    "ATen/core/ivalue.h": "ivalue.h",
    "torch/library.h": "library.h",
}


def compiles(aquery_path):
    """{source: argv} of the workspace's own -fPIC compiles in an aquery dump."""
    out = {}
    for action in json.load(open(aquery_path)).get("actions", []):
        argv = action["arguments"]
        if "-c" not in argv or "-fPIC" not in argv:
            continue
        src = argv[argv.index("-c") + 1]
        if src.startswith(("external/", "bazel-out/")) or src in out:
            continue
        out[src] = argv
    return out


def without_outputs(argv):
    """argv with its object and dependency-file outputs dropped."""
    out, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg in ("-o", "-MF"):
            skip = True
        elif arg != "-MD":
            out.append(arg)
    return out


def headers(argv, root):
    """The set of files `gcc -M` lists for the compile."""
    r = subprocess.run(without_outputs(argv) + ["-M"], cwd=root, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"compile_ab: gcc -M of {argv[argv.index('-c') + 1]} failed in {root}:\n"
                 f"{r.stderr[-2000:]}")
    return {h.rstrip("\\") for h in r.stdout.split()[1:] if h != "\\"}


def heavy(deps):
    return " ".join(name for path, name in _HEAVY.items() if any(d.endswith(path) for d in deps)) or "-"


def timed(argv, root):
    argv = without_outputs(argv) + ["-o", "/dev/null"]
    start = time.monotonic()
    subprocess.run(argv, cwd=root, capture_output=True, check=True)
    return time.monotonic() - start


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    opts = dict(a[2:].split("=", 1) for a in argv[1:] if a.startswith("--"))
    if len(args) != 4:
        sys.exit(__doc__)
    base_root, base_q, head_root, head_q = args
    base, head = compiles(base_q), compiles(head_q)
    rows = []
    for src in sorted(set(base) & set(head)):
        b_deps = {d.replace(base_root, "") for d in headers(base[src], base_root)}
        h_deps = {d.replace(head_root, "") for d in headers(head[src], head_root)}
        flags_differ = without_outputs(base[src]) != without_outputs(head[src])
        if b_deps != h_deps or flags_differ:
            rows.append((src, heavy(b_deps), heavy(h_deps), len(b_deps), len(h_deps)))
    if "limit" in opts and int(opts["limit"]) < len(rows):
        random.seed(int(opts.get("seed", "1")))
        rows = sorted(random.sample(rows, int(opts["limit"])))
    print(f"{len(rows)} of {len(set(base) & set(head))} common sources compile differently")
    print("| source | base: heavy headers (files) | this tree | base s | this tree s |")
    print("|---|---|---|---|---|")
    total_b = total_h = 0.0
    for src, b_heavy, h_heavy, b_n, h_n in rows:
        tb, th = timed(base[src], base_root), timed(head[src], head_root)
        total_b += tb
        total_h += th
        print(f"| {src} | {b_heavy} ({b_n}) | {h_heavy} ({h_n}) | {tb:.1f} | {th:.1f} |", flush=True)
    # Sources one tree compiles and the other does not (a file added or
    # removed), timed once and counted in their tree's total.
    for name, only, root, side in (("base", set(base) - set(head), base_root, 0),
                                   ("this tree", set(head) - set(base), head_root, 1)):
        for src in sorted(only):
            argv = (base if side == 0 else head)[src]
            deps = headers(argv, root)
            t = timed(argv, root)
            cells = ["-", f"{heavy(deps)} ({len(deps)})"]
            times = ["-", f"{t:.1f}"]
            if side == 0:
                cells.reverse()
                times.reverse()
                total_b += t
            else:
                total_h += t
            print(f"| {src} (only in {name}) | {cells[0]} | {cells[1]} | {times[0]} | {times[1]} |",
                  flush=True)
            rows.append(src)
    if rows:
        print(f"\ntotal: base {total_b:.1f} s, this tree {total_h:.1f} s, "
              f"ratio {total_h / total_b:.3f}")


if __name__ == "__main__":
    main(sys.argv)
