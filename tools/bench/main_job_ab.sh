#!/bin/bash
# The main job (`shrt validate --all --world_size=4`, both cores, or
# another world size or mesh) with the
# engine of a base revision and of this checkout, alternated back to back
# in one run: the base runs in a temporary worktree of that revision with
# its own specs and Bazel output base. Prints a Markdown table (wall time
# from the report, CPU time of the process and its workers from
# /usr/bin/time, combination checks), the ratio of mean wall times, and
# compare_verdicts.py of the two sides' last reports (exit 1 if any verdict
# changed).
# Usage: tools/bench/main_job_ab.sh BASE_REV [RUNS=3] [VALIDATE_FLAG]
#        (from the workspace root; VALIDATE_FLAG defaults to --world_size=4,
#        e.g. --mesh=2x2 for the mesh run)
set -euo pipefail
cd "$(dirname "$0")/../.."
base="$1"
runs="${2:-3}"
flag="${3:---world_size=4}"
source tools/bench/base_worktree.sh "$base"
(cd "$worktree" && bazel build --config=ci //tools:shrt >/dev/null 2>&1)
bazel build --config=ci //tools:shrt >/dev/null 2>&1

run() {  # run TREE LABEL SIDE: one validation, one table row; its report kept as SIDE.json
  local tree="$1" label="$2"
  (cd "$tree" && BUILD_WORKSPACE_DIRECTORY="$tree" /usr/bin/time -f "%U %S" -o "$tmp/time" \
     bazel-bin/tools/shrt validate --all "$flag" --format=json >"$tmp/report.json" \
     2>/dev/null) || [[ $? == 1 ]]  # 1: incorrect rules found
  cp "$tmp/report.json" "$tmp/$3.json"
  /usr/bin/python3 - "$tmp/report.json" "$(tail -1 "$tmp/time")" "$label" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
user, sys_ = map(float, sys.argv[2].split())
checks = sum(op["combination_checks"] for op in r["ops"])
print(f"| {sys.argv[3]} | {len(r['ops'])} | {r['seconds']:.1f} | {user + sys_:.1f} | {checks:,} |")
PY
}

echo "validate --all $flag"
echo "| engine | overloads | wall s | CPU s | combination checks |"
echo "|---|---|---|---|---|"
for _ in $(seq "$runs"); do
  run "$worktree" "$base" base | tee -a "$tmp/base.rows"
  run "$PWD" "this tree" this | tee -a "$tmp/this.rows"
done
/usr/bin/python3 - "$tmp/base.rows" "$tmp/this.rows" <<'PY'
import sys
mean = lambda f: sum(float(l.split("|")[3]) for l in open(f)) / sum(1 for _ in open(f))
b, t = mean(sys.argv[1]), mean(sys.argv[2])
print(f"\nmean wall: base {b:.1f} s, this tree {t:.1f} s; ratio {t / b:.2f}")
PY
# The same verdicts, rule by rule (last run of each side); exits 1 if not.
echo
/usr/bin/python3 tools/bench/compare_verdicts.py "$tmp/base.json" "$tmp/this.json"
