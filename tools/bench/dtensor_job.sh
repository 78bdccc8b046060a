#!/bin/bash
# `shrt validate --dtensor --all` (DTensor's registered rules, DTENSOR.md)
# at each world size given, back to back, warm fastbuild, both cores. Keeps
# each JSON report as OUT_DIR/w<W>.json and prints a Markdown table:
# overloads validated, without a strategy, decomposed; rules correct,
# incorrect (and on how many overloads), missing; combination checks; wall
# time; peak resident memory (/usr/bin/time: the largest process, the
# parent or one of the Python processes asking DTensor).
# Usage: tools/bench/dtensor_job.sh OUT_DIR W...   (e.g. /tmp/dt 2 3 4)
source "$(dirname "$0")/lib.sh"
out="$1"; shift
mkdir -p "$out"
echo "| W | validated | no strategy | decomposed | correct | incorrect (overloads) | missing | combination checks | wall | peak memory |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for w in "$@"; do
  validate_timed --dtensor --all --world_size="$w" --quiet
  cp "$tmp/report.json" "$out/w$w.json"
  /usr/bin/python3 - "$tmp/report.json" "$(tail -1 "$tmp/mem")" "$w" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
ops = r["ops"]
n = lambda f: sum(len(o[f]) for o in ops)
bad = sum(1 for o in ops if o["incorrect"])
checks = sum(int(o["combination_checks"]) for o in ops)
print(f"| {sys.argv[3]} | {len(ops)} | {len(r['without_strategy'])} | {len(r['decomposed'])} | "
      f"{n('correct'):,} | {n('incorrect')} ({bad}) | {n('missing'):,} | {checks:,} | "
      f"{r['seconds']:.0f} s | {int(sys.argv[2]) / 1024:.0f} MiB |")
PY
done
