#!/bin/bash
# The HTML report of the main job: `shrt validate --all --html` (warm
# fastbuild, both cores), then the page's size and the time headless
# Chromium takes to load it and run its script (--dump-dom), and the size
# of the rendered DOM. Prints a Markdown table row.
# Usage: tools/bench/html_report.sh   (from the workspace root)
source "$(dirname "$0")/lib.sh"
validate_timed --all --html="$tmp/report.html"
start=$(date +%s.%N)
/usr/bin/chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$tmp/profile" --virtual-time-budget=5000 --dump-dom \
  "file://$tmp/report.html" > "$tmp/dom.html" 2>/dev/null
end=$(date +%s.%N)
/usr/bin/python3 tools/html_report_check.py "$tmp/dom.html" "$tmp/report.json" | tail -1
echo "| overloads | page | rendered DOM | load and render (headless Chromium) |"
echo "|---|---|---|---|"
/usr/bin/python3 -c '
import json, os, sys
ops = len(json.load(open(sys.argv[1]))["ops"])
mib = lambda p: os.path.getsize(p) / 2**20
print(f"| {ops:,} | {mib(sys.argv[2]):.1f} MiB | {mib(sys.argv[3]):.1f} MiB | {float(sys.argv[4]):.1f} s |")
' "$tmp/report.json" "$tmp/report.html" "$tmp/dom.html" "$(/usr/bin/python3 -c "print($end - $start)")"
