#!/bin/bash
# Verdicts must not change across a refactoring: runs `shrt validate --all
# --format=json` at each world size (or mesh, e.g. 2x2) on BASE (a git revision, built in a
# temporary worktree with its own Bazel output base) and on this checkout,
# and compares the correct / incorrect / missing / unverified sets per
# overload (compare_verdicts.py). Exit 0 when identical, 1 otherwise.
# Usage: tools/bench/compare_verdicts.sh BASE [W | MESH ...]   (default W: 3 4)
set -euo pipefail
cd "$(dirname "$0")/../.."
base="${1:?usage: compare_verdicts.sh BASE [W | MESH ...]}"
shift
sizes=("${@:-3}")
(( $# > 0 )) || sizes=(3 4)
source tools/bench/base_worktree.sh "$base"

# report DIR W OUT: one validation of every overload of DIR's spec tree at
# world size W, or on mesh W when it reads like 2x2.
report() {
  local where="--world_size=$2"
  [[ $2 == *x* ]] && where="--mesh=$2"
  (cd "$1" && bazel build --config=ci //tools:shrt >/dev/null 2>&1 &&
    BUILD_WORKSPACE_DIRECTORY="$1" bazel-bin/tools/shrt validate --all --format=json \
      "$where" > "$3" 2>/dev/null) || [[ $? == 1 ]]  # 1: incorrect rules found
}

status=0
for w in "${sizes[@]}"; do
  report "$worktree" "$w" "$tmp/before_$w.json"
  report "$PWD" "$w" "$tmp/after_$w.json"
  echo "$([[ $w == *x* ]] && echo mesh || echo W =) $w: $base vs. $(git rev-parse --short HEAD)$(git diff --quiet || echo +changes)"
  /usr/bin/python3 tools/bench/compare_verdicts.py "$tmp/before_$w.json" "$tmp/after_$w.json" || status=1
done
exit "$status"
