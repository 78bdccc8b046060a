#!/bin/bash
# The CPU time of one generated test process, of a base revision and of this
# checkout, alternated back to back in one run: the base builds in a
# temporary worktree of that revision (base_worktree.sh). Each round runs
# each side's test binary twice: with a gtest filter that matches nothing
# (start-up alone: loading libtorch and its static initialisers, the spec,
# gtest registration) and whole. CPU time is user + system of the child
# (getrusage), which is what a cold `bazel test` on 2 busy cores pays.
# Prints each side's mean and median milliseconds and this tree over the base.
# Usage: tools/bench/startup_ab.sh BASE_REV [ROUNDS=40] [TARGET=//op_specs:aten_abs]
#        (from the workspace root)
set -euo pipefail
cd "$(dirname "$0")/../.."
base="$1"
rounds="${2:-40}"
target="${3:-//op_specs:aten_abs}"
source tools/bench/base_worktree.sh "$base"
(cd "$worktree" && bazel build --config=ci "$target" >/dev/null 2>&1)
bazel build --config=ci "$target" >/dev/null 2>&1

/usr/bin/python3 - "$worktree" "$PWD" "$target" "$rounds" "$base" <<'PY'
import statistics, sys
sys.path.insert(0, "tools/bench")
from child_cpu import START_UP_ONLY, alternate, binary_path, mean_median
base_tree, this_tree, target, base = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[5]
rounds = int(sys.argv[4])
base_bin, this_bin = binary_path(base_tree, target), binary_path(this_tree, target)

print("| run | base mean / median ms | this tree mean / median ms | this / base (means) |")
print("|---|---|---|---|")
for label, args in (("start-up (empty filter)", START_UP_ONLY), ("whole test", [])):
    b, t = alternate([[base_bin] + args, [this_bin] + args], rounds)
    print(f"| {label} | {mean_median(b)} | {mean_median(t)} | "
          f"{statistics.mean(t) / statistics.mean(b):.2f} |")
print(f"\n{rounds} rounds, base {base}, this tree {this_bin}")
PY
