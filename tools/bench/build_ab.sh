#!/bin/bash
# Cold build of the same targets in a base revision and in this checkout,
# alternated back to back in one run: the base builds in a temporary
# worktree with its own Bazel output base; each build starts from
# `bazel clean` (external repositories stay) and builds the targets that a
# `bazel query` expression names in that tree, so the two sides may name
# them differently (e.g. 'kind(genrule, //op_specs:*)'). Prints a Markdown
# table (wall seconds of the build command, actions executed) and the ratio
# of mean wall times.
# Usage: tools/bench/build_ab.sh BASE_REV RUNS QUERY  (from the workspace root)
set -euo pipefail
cd "$(dirname "$0")/../.."
base="$1"
runs="$2"
query="$3"
source tools/bench/base_worktree.sh "$base"

run() {  # run TREE LABEL: one cold build, one table row
  local tree="$1" label="$2" targets start end
  cd "$tree"
  targets="$(bazel query "$query" 2>/dev/null)"
  bazel clean >/dev/null 2>&1
  start=$(date +%s.%N)
  bazel build --config=ci $targets >"$tmp/log" 2>&1 ||
    { echo "build_ab: build failed in $tree" >&2; tail -20 "$tmp/log" >&2; exit 1; }
  end=$(date +%s.%N)
  cd - >/dev/null
  printf '| %s | %d | %.1f | %s |\n' "$label" "$(wc -w <<<"$targets")" "$(echo "$end - $start" | bc)" \
    "$(grep -o '[0-9,]* total actions' "$tmp/log" | tail -1 | cut -d' ' -f1)"
}

echo "cold build of: $query"
echo "| tree | targets | wall s | actions |"
echo "|---|---|---|---|"
for ((i = 1; i <= runs; i++)); do
  run "$worktree" "base $base"
  run "$PWD" "this checkout"
done | tee "$tmp/rows"
/usr/bin/python3 - "$tmp/rows" <<'PY'
import sys
rows = [line.split("|") for line in open(sys.argv[1])]
mean = lambda side: [float(r[3]) for r in rows if r[1].strip().startswith(side)]
b, h = mean("base"), mean("this")
print(f"\nmean wall: base {sum(b)/len(b):.1f} s, this checkout {sum(h)/len(h):.1f} s, "
      f"ratio {sum(h)/len(h) / (sum(b)/len(b)):.3f}")
PY
