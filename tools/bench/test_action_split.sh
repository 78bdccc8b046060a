#!/bin/bash
# Where the run of built tests goes (issue 28, "the cold suite"): the same
# test binaries of this checkout, run four ways in turn each round, as many
# at a time as the machine has cores (what a cold `bazel test` does once the
# binaries are linked):
#   bazel, sandboxed    `bazel test --nocache_test_results`, each test in
#                       Bazel's linux-sandbox (the default on Linux);
#   bazel, unsandboxed  the same with --strategy=TestRunner=local;
#   direct              each binary started by xargs, no Bazel, no
#                       test-setup.sh, no sandbox: the test process alone;
#   direct, start-up    the same with a gtest filter that matches nothing
#                       (child_cpu.py START_UP_ONLY): libtorch's static
#                       initialisers, the embedded spec, gtest registration.
# The differences are the sandbox, Bazel's test wrapper and bookkeeping, and
# the checks themselves. Prints a Markdown table of wall seconds per round,
# their means, and each way's mean over the sandboxed run's.
# Usage: tools/bench/test_action_split.sh ROUNDS QUERY   (from the workspace root)
#   e.g. tools/bench/test_action_split.sh 3 'tests(//op_specs:all)'
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds="$1"
query="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
tests="$(bazel query "$query" 2>/dev/null)"
bazel build --config=ci $tests >"$tmp/log" 2>&1 ||
  { echo "test_action_split: build failed" >&2; tail -20 "$tmp/log" >&2; exit 1; }
# Each label's binary (child_cpu.binary_path), and gtest's start-up-only filter.
/usr/bin/python3 - "$tmp/binaries" $tests <<'PY'
import sys
sys.path.insert(0, "tools/bench")
from child_cpu import binary_path
with open(sys.argv[1], "w") as f:
    f.writelines(binary_path(".", t) + "\n" for t in sys.argv[2:])
PY
start_up_only="$(/usr/bin/python3 -c 'import sys; sys.path.insert(0, "tools/bench")
from child_cpu import START_UP_ONLY; print(*START_UP_ONLY)')"
jobs="$(nproc)"

timed() {  # timed LABEL COMMAND...: one table row, the command's wall seconds
  local label="$1" start end
  shift
  start=$(date +%s.%N)
  "$@" >"$tmp/log" 2>&1 || { echo "test_action_split: $label failed" >&2; tail -20 "$tmp/log" >&2; exit 1; }
  end=$(date +%s.%N)
  printf '| %s | %.1f |\n' "$label" "$(echo "$end - $start" | bc)"
}
direct() {  # direct GTEST_ARGS...: every binary, $jobs at a time, each with its own TEST_TMPDIR
  xargs -P "$jobs" -I{} bash -c 'TEST_TMPDIR="$(mktemp -d -p "$0")" "$1" "${@:2}" >/dev/null' \
    "$tmp" {} "$@" <"$tmp/binaries"
}

echo "$(wc -l <"$tmp/binaries") tests of: $query; $jobs at a time"
echo "| way | wall s |"
echo "|---|---|"
for ((i = 1; i <= rounds; i++)); do
  timed "bazel, sandboxed" bazel test --config=ci --nocache_test_results \
    --strategy=TestRunner=linux-sandbox $tests
  timed "bazel, unsandboxed" bazel test --config=ci --nocache_test_results \
    --strategy=TestRunner=local $tests
  timed "direct" direct
  timed "direct, start-up" direct "$start_up_only"
done | tee "$tmp/rows"
/usr/bin/python3 - "$tmp/rows" <<'PY'
import collections, statistics, sys
walls = collections.defaultdict(list)
for line in open(sys.argv[1]):
    way, wall = [c.strip() for c in line.strip().strip("|").split("|")]
    walls[way].append(float(wall))
base = statistics.mean(walls["bazel, sandboxed"])
print("\n| way | mean wall s | over bazel, sandboxed |\n|---|---|---|")
for way, w in walls.items():
    print(f"| {way} | {statistics.mean(w):.1f} | {statistics.mean(w) / base:.3f} |")
PY
