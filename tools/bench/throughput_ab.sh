#!/bin/bash
# The throughput benchmark (//tools/bench:throughput_bench, -c opt: the
# fixed workload's validation pass against its op-call floor) of a base
# revision and of this checkout, alternated back to back in one run: the
# base builds and runs in a temporary worktree of that revision
# (base_worktree.sh). Prints a Markdown table (combination checks/s, the
# floor in ms per pass, the pass over the floor: BM_Validate's x_floor,
# the ratio compare.sh reports) and each side's means.
# Usage: tools/bench/throughput_ab.sh BASE_REV [RUNS=3]   (from the workspace root)
set -euo pipefail
cd "$(dirname "$0")/../.."
base="$1"
runs="${2:-3}"
source tools/bench/base_worktree.sh "$base"
bench=bazel-out/k8-opt/bin/tools/bench/throughput_bench
(cd "$worktree" && bazel build -c opt //tools/bench:throughput_bench >/dev/null 2>&1)
bazel build -c opt //tools/bench:throughput_bench >/dev/null 2>&1

run() {  # run TREE LABEL SIDE: one BM_Validate, one table row, kept in SIDE.rows
  (cd "$1" && "$bench" --benchmark_filter=BM_Validate --benchmark_format=json \
     2>/dev/null) >"$tmp/run.json"
  /usr/bin/python3 - "$tmp/run.json" "$2" <<'PY' | tee -a "$tmp/$3.rows"
import json, sys
v = json.load(open(sys.argv[1]))["benchmarks"][0]
print(f"| {sys.argv[2]} | {v['checks']:,.0f} | {v['floor_ms']:.2f} | {v['x_floor']:.2f} |")
PY
}

echo "| engine | combination checks/s | floor ms per pass | pass / floor |"
echo "|---|---|---|---|"
for _ in $(seq "$runs"); do
  run "$worktree" "$base" base
  run "$PWD" "this tree" this
done
/usr/bin/python3 - "$tmp/base.rows" "$tmp/this.rows" <<'PY'
import sys
def mean(path, col):
    rows = [l.split("|") for l in open(path)]
    return sum(float(r[col].replace(",", "")) for r in rows) / len(rows)
b, t = sys.argv[1], sys.argv[2]
print(f"\nmean checks/s: base {mean(b, 2):,.0f}, this tree {mean(t, 2):,.0f} "
      f"({mean(t, 2) / mean(b, 2):.2f}x); mean pass / floor: base {mean(b, 4):.2f}, "
      f"this tree {mean(t, 4):.2f}")
PY
