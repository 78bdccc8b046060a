#!/bin/bash
# The links of the generated tests with gold and with lld, alternated in one
# run on this checkout's output base: each round builds //op_specs:all with
# `--linkopt=-fuse-ld=LINKER` last on the command line (gcc takes the last
# -fuse-ld), which re-runs every link of the tree (a linkopt is no compile
# action's input, so nothing else runs), and reads the link actions' time
# from the round's profile (analyze_profile.py). Prints a Markdown table
# (wall seconds of the build, link actions, their summed seconds) and the
# lld / gold ratios of the means.
# Usage: tools/bench/link_ab.sh [ROUNDS]   (default 2; from anywhere)
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds="${1:-2}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
bazel build //op_specs:all >/dev/null 2>&1  # compiled once, outside the rounds

round() {  # round LINKER: one build that relinks everything, one table row
  local ld="$1" start end links seconds
  start=$(date +%s.%N)
  bazel build --noslim_profile --profile="$tmp/$ld.json.gz" //op_specs:all \
    --linkopt=-fuse-ld="$ld" >"$tmp/log" 2>&1 ||
    { echo "link_ab: build with $ld failed" >&2; tail -20 "$tmp/log" >&2; exit 1; }
  end=$(date +%s.%N)
  read -r links seconds < <(/usr/bin/python3 tools/bench/analyze_profile.py "$tmp/$ld.json.gz" \
    --sum='^Linking ')
  printf '| %s | %.1f | %s | %s |\n' "$ld" "$(echo "$end - $start" | bc)" "$links" "$seconds"
}

echo "| linker | wall s | link actions | link action s |"
echo "|---|---|---|---|"
for ((i = 1; i <= rounds; i++)); do
  round gold
  round lld
done | tee "$tmp/rows"
/usr/bin/python3 - "$tmp/rows" <<'PY'
import collections, sys
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    rows[cells[0]].append((float(cells[1]), float(cells[3])))
mean = lambda xs: sum(xs) / len(xs)
wall = {k: mean([w for w, _ in v]) for k, v in rows.items()}
link = {k: mean([s for _, s in v]) for k, v in rows.items()}
print(f"\nlld / gold: wall {wall['lld'] / wall['gold']:.2f}x, link action time "
      f"{link['lld'] / link['gold']:.2f}x (means of {len(rows['lld'])} rounds)")
PY
