# Sourced by the scripts that compare a base revision with this checkout
# (build_ab.sh, compile_ab.sh, compare_verdicts.sh, main_job_ab.sh,
# startup_ab.sh, throughput_ab.sh) as
#   source tools/bench/base_worktree.sh BASE_REV   (from the workspace root)
# Moves to the workspace root and checks out BASE_REV, detached, in the
# worktree $worktree inside the scratch directory $tmp; on exit, stops the
# worktree's Bazel server (its own output base) and removes both.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
tmp="$(mktemp -d)"
worktree="$tmp/base"
trap '(cd "$worktree" && bazel shutdown >/dev/null 2>&1) || true;
      git worktree remove --force "$worktree" >/dev/null 2>&1; rm -rf "$tmp"' EXIT
git worktree add --detach "$worktree" "$1" >/dev/null 2>&1 ||
  { echo "$(basename "$0"): no revision $1" >&2; exit 2; }
