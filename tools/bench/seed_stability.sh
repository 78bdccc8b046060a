#!/bin/bash
# How far verdicts depend on the draws: runs `shrt validate --all
# --format=json` of this checkout twice at each world size (or mesh, e.g.
# 2x2), with --seed=0 and --seed=1, and compares the two reports rule by
# rule (compare_verdicts.py). Ground truth refutes a rule by execution, so a
# rule that only one seed refutes held by the luck of the other's draws; a
# verdict should not be that. Prints the differences and exits 1 when any.
# Usage: tools/bench/seed_stability.sh [W | MESH ...]   (default W: 3)
set -euo pipefail
cd "$(dirname "$0")/../.."
sizes=("${@:-3}")
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
bazel build --config=ci //tools:shrt >/dev/null 2>&1

# report W SEED OUT: every overload at world size W (or on mesh W), seeded.
report() {
  local where="--world_size=$1"
  [[ $1 == *x* ]] && where="--mesh=$1"
  BUILD_WORKSPACE_DIRECTORY="$PWD" bazel-bin/tools/shrt validate --all --format=json \
    "$where" --seed="$2" > "$3" 2>/dev/null || [[ $? == 1 ]]  # 1: incorrect rules found
}

status=0
for w in "${sizes[@]}"; do
  report "$w" 0 "$tmp/seed0_$w.json"
  report "$w" 1 "$tmp/seed1_$w.json"
  echo "$([[ $w == *x* ]] && echo mesh || echo W =) $w: --seed=0 vs. --seed=1"
  /usr/bin/python3 tools/bench/compare_verdicts.py "$tmp/seed0_$w.json" "$tmp/seed1_$w.json" ||
    status=1
done
exit "$status"
