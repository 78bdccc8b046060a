#!/bin/bash
# The cost of N-D meshes: `shrt validate --all` on the 1-D mesh of W = 4
# and on the 2x2 mesh (and any meshes given as arguments), back to back in
# one run (warm fastbuild, both cores). Prints a Markdown table: overloads,
# rules judged, incorrect (composition failures among them), missing (on a
# mesh: filtered out by the expansion although they hold), checks, the
# report's wall time, its ratio to the W = 4 run, and peak resident memory
# (/usr/bin/time).
# Usage: tools/bench/mesh_job.sh [MESH...]   (from the workspace root)
source "$(dirname "$0")/lib.sh"
meshes=("${@:-2x2}")

# run LABEL BASE_SECONDS FLAGS...: one validation, one table row; prints
# the report's seconds on fd 3.
run() {
  local label="$1" base="$2"; shift 2
  validate_timed --all "$@"
  /usr/bin/python3 - "$tmp/report.json" "$(tail -1 "$tmp/mem")" "$label" "$base" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
ops = r["ops"]
judged = sum(len(o["correct"]) + len(o["incorrect"]) + len(o["missing"]) + len(o["unverified"]) for o in ops)
incorrect = sum(len(o["incorrect"]) for o in ops)
composition = sum(1 for o in ops for i in o["incorrect"] if i.get("category") == "composition failure")
missing = sum(len(o["missing"]) for o in ops)
checks = sum(o["combination_checks"] for o in ops)
sampled = sum(1 for o in ops if any("the expansion has" in n for n in o["notes"]))
base = float(sys.argv[4]) if sys.argv[4] != "-" else r["seconds"]
print(f"| {sys.argv[3]} | {len(ops)} | {judged:,} | {incorrect} ({composition}) | {missing:,} | "
      f"{sampled} | {checks:,} | {r['seconds']:.1f} s | {r['seconds'] / base:.2f}x | "
      f"{int(sys.argv[2]) / 1024:.0f} MiB |")
print(r["seconds"], file=open(sys.argv[1] + ".seconds", "w"))
PY
}

echo "| run | overloads | rules judged | incorrect (composition) | missing | overloads sampled | checks | wall time | vs W = 4 | peak memory |"
echo "|---|---|---|---|---|---|---|---|---|---|"
run "W = 4 (1-D)" - --world_size=4
base="$(cat "$tmp/report.json.seconds")"
for m in "${meshes[@]}"; do run "mesh $m" "$base" --mesh="$m"; done
