#!/bin/bash
# How much of a generated test's start-up is ShRT's: the CPU time of one
# generated test started with a gtest filter that matches nothing (loading
# libtorch and its static initialisers, the embedded spec, gtest
# registration) against that of //tools/bench:libtorch_floor, a program
# that links libtorch the same way and exits at once; then of the whole
# test. The binaries are alternated back to back in one run, in this
# checkout (tools/bench/child_cpu.py). Prints each one's mean and median
# milliseconds and their ratio to the floor.
# Usage: tools/bench/startup_floor.sh [ROUNDS=40] [TARGET=//op_specs:aten_abs]
#        (from the workspace root)
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds="${1:-40}"
target="${2:-//op_specs:aten_abs}"
bazel build --config=ci "$target" //tools/bench:libtorch_floor >/dev/null 2>&1 ||
  { echo "startup_floor: bazel build of $target failed" >&2; exit 1; }

/usr/bin/python3 - "$PWD" "$target" "$rounds" <<'PY'
import statistics, sys
sys.path.insert(0, "tools/bench")
from child_cpu import START_UP_ONLY, alternate, binary_path, mean_median
tree, target, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
floor, test = binary_path(tree, "//tools/bench:libtorch_floor"), binary_path(tree, target)

runs = [("libtorch alone (//tools/bench:libtorch_floor)", [floor]),
        (f"{target}, start-up (empty filter)", [test] + START_UP_ONLY),
        (f"{target}, whole test", [test])]
times = alternate([argv for _, argv in runs], rounds)
print("| process | mean / median ms | mean / floor's mean |")
print("|---|---|---|")
for (label, _), ms in zip(runs, times):
    print(f"| {label} | {mean_median(ms)} | {statistics.mean(ms) / statistics.mean(times[0]):.2f} |")
print(f"\n{rounds} rounds, CPU time (user + system) of each child process")
PY
