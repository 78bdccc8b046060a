#!/bin/bash
# The main job's time (`shrt validate --all`, warm fastbuild, both cores) on
# the current specs: at W = 2, 4 and 8, and at W = 4 for the first N
# overloads of the report (N = 50, 150, all), back to back in one run.
# Prints a Markdown table: combination checks, the report's wall time, and
# peak resident memory (/usr/bin/time).
# Usage: tools/bench/main_job.sh   (from the workspace root)
source "$(dirname "$0")/lib.sh"

# run LABEL FLAGS...: one validation, one table row.
run() {
  local label="$1"; shift
  validate_timed "$@"
  /usr/bin/python3 - "$tmp/report.json" "$(tail -1 "$tmp/mem")" "$label" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
checks = sum(op["combination_checks"] for op in r["ops"])
print(f"| {sys.argv[3]} | {len(r['ops'])} | {checks:,} | {r['seconds']:.2f} s | {int(sys.argv[2]) / 1024:.0f} MiB |")
PY
}

echo "| run | overloads | combination checks | wall time | peak memory |"
echo "|---|---|---|---|---|"
for w in 2 4 8; do run "--all, W = $w" --all --world_size="$w"; done
ops="$(/usr/bin/python3 -c 'import json,sys; print("\n".join(o["op"] for o in json.load(open(sys.argv[1]))["ops"]))' "$tmp/report.json")"
for n in 50 150; do
  run "first $n, W = 4" --op="$(head -n "$n" <<<"$ops" | paste -sd,)" --world_size=4
done
