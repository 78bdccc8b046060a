#!/bin/bash
# The CPU time of short `shrt` CLI runs, of a base revision and of this
# checkout, alternated back to back in one run: the base builds //tools:shrt
# in a temporary worktree of that revision (base_worktree.sh). Each round
# runs, in each tree: `shrt --version` (start-up and exit alone: what every
# run of the CLI pays, e.g. each of the malformed corpus's cases) and
# `shrt validate --op=aten::relu --world_size=2 --quiet` (a small
# validation). CPU time is user + system of the child (child_cpu.py), what
# a test that starts the CLI pays on 2 busy cores. Prints each run's mean
# and median milliseconds and this tree over the base.
# Usage: tools/bench/cli_start_ab.sh BASE_REV [ROUNDS=20]  (from the workspace root)
set -euo pipefail
cd "$(dirname "$0")/../.."
base="$1"
rounds="${2:-20}"
source tools/bench/base_worktree.sh "$base"
(cd "$worktree" && bazel build --config=ci //tools:shrt >/dev/null 2>&1)
bazel build --config=ci //tools:shrt >/dev/null 2>&1

/usr/bin/python3 - "$worktree" "$PWD" "$rounds" "$base" <<'PY'
import statistics, sys
sys.path.insert(0, "tools/bench")
from child_cpu import alternate, binary_path, mean_median
base_tree, this_tree, rounds, base = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
runs = [("shrt --version", ["--version"]),
        ("shrt validate --op=aten::relu --world_size=2 --quiet",
         ["validate", "--op=aten::relu", "--world_size=2", "--quiet"])]
print("| run | base mean / median ms | this tree mean / median ms | this / base (means) |")
print("|---|---|---|---|")
for label, args in runs:
    commands = []
    for tree in (base_tree, this_tree):
        # The CLI reads specs from the workspace it runs in (bazel run's
        # BUILD_WORKSPACE_DIRECTORY): each tree its own.
        commands.append(["env", f"BUILD_WORKSPACE_DIRECTORY={tree}",
                         binary_path(tree, "//tools:shrt")] + args)
    b, t = alternate(commands, rounds)
    print(f"| `{label}` | {mean_median(b)} | {mean_median(t)} | "
          f"{statistics.mean(t) / statistics.mean(b):.2f} |")
print(f"\n{rounds} rounds, base {base}, this tree {this_tree}")
PY
