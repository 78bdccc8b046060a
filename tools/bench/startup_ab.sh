#!/bin/bash
# The CPU time of generated test processes, of a base revision and of this
# checkout, alternated back to back in one run: the base builds in a
# temporary worktree of that revision (base_worktree.sh). Each round runs
# each side's test binary twice: with a gtest filter that matches nothing
# (start-up alone: loading libtorch and its static initialisers, the spec,
# gtest registration) and whole. CPU time is user + system of the child
# (getrusage), which is what a cold `bazel test` on 2 busy cores pays.
# Prints, per target, each side's mean and median milliseconds and this
# tree over the base; with several targets, also their sum per round.
# Usage: tools/bench/startup_ab.sh BASE_REV [ROUNDS=40] [TARGET...]
#        (from the workspace root; TARGET defaults to //op_specs:aten_abs)
set -euo pipefail
cd "$(dirname "$0")/../.."
base="$1"
rounds="${2:-40}"
targets=("${@:3}")
(( ${#targets[@]} )) || targets=(//op_specs:aten_abs)
source tools/bench/base_worktree.sh "$base"
(cd "$worktree" && bazel build --config=ci "${targets[@]}" >/dev/null 2>&1)
bazel build --config=ci "${targets[@]}" >/dev/null 2>&1

/usr/bin/python3 - "$worktree" "$PWD" "$rounds" "$base" "${targets[@]}" <<'PY'
import statistics, sys
sys.path.insert(0, "tools/bench")
from child_cpu import START_UP_ONLY, alternate, binary_path, mean_median
base_tree, this_tree, base = sys.argv[1], sys.argv[2], sys.argv[4]
rounds, targets = int(sys.argv[3]), sys.argv[5:]

print("| target | run | base mean / median ms | this tree mean / median ms | this / base (means) |")
print("|---|---|---|---|---|")
for label, args in (("start-up (empty filter)", START_UP_ONLY), ("whole test", [])):
    commands = [[binary_path(tree, t)] + args for t in targets for tree in (base_tree, this_tree)]
    times = alternate(commands, rounds)
    rows = [(t, times[2 * i], times[2 * i + 1]) for i, t in enumerate(targets)]
    if len(targets) > 1:
        rows.append(("all of them, summed", [sum(r) for r in zip(*times[0::2])],
                     [sum(r) for r in zip(*times[1::2])]))
    for target, b, t in rows:
        print(f"| {target} | {label} | {mean_median(b)} | {mean_median(t)} | "
              f"{statistics.mean(t) / statistics.mean(b):.2f} |")
print(f"\n{rounds} rounds, base {base}, this tree {this_tree}")
PY
