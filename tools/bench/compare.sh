#!/bin/bash
# Runs the C++ engine (Google Benchmark, -c opt) and the Python eager
# reference (tools/bench/reference.py, the pinned torch of /usr/bin/python3)
# on the same fixed workload, back to back, and prints both throughputs, the C++
# engine's ratio to its floor, and the C++/Python ratio.
# Usage: tools/bench/compare.sh   (from the workspace root)
set -euo pipefail
cd "$(dirname "$0")/../.."
json="$(mktemp)"
bazel run -c opt //tools/bench:throughput_bench -- --benchmark_format=json \
  --benchmark_out="$json" --benchmark_out_format=json >/dev/null 2>&1
ref="$(/usr/bin/python3 tools/bench/reference.py --world_size 4 | tail -1)"
stock="$(/usr/bin/python3 tools/bench/reference.py --world_size 4 --cpp_backtraces | tail -1)"
/usr/bin/python3 - "$json" "$ref" "$stock" <<'PY'
import json, re, sys
bench = {b["name"].split("/")[0]: b for b in json.load(open(sys.argv[1]))["benchmarks"]}
v = bench["BM_Validate"]
cpp = v["checks"]
rate = lambda line: float(re.search(r"= ([0-9.]+) checks/s", line).group(1))
py, stock = rate(sys.argv[2]), rate(sys.argv[3])
floor_s = v["floor_ms"] / 1e3
checks = int(re.search(r"reference: ([0-9]+) combination checks", sys.argv[2]).group(1))
print(f"C++ engine:       {cpp:,.0f} combination checks/s ({v['x_floor']:.1f}x its floor of "
      f"{v['floor_ms']:.1f} ms per pass)")
print(f"Python reference: {py:,.0f} combination checks/s ({checks / py / floor_s:.1f}x the same floor)")
print(f"  stock PyTorch (c10 backtraces on): {stock:,.0f} combination checks/s")
print(f"C++ / Python:     {cpp / py:.1f}x (vs stock: {cpp / stock:.1f}x)")
PY
