# Sourced by the benchmark scripts that measure git revisions side by side
# (cost_of_breadth.sh, fresh_clone_job.sh): sets $repo (this checkout) and $work
# (a scratch directory removed on exit), and defines clone_revision.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# clone_revision REV: a fresh clone of this checkout at REV in $work/REV,
# made the current directory, and in the array bz a bazel command with its
# own output base ($work/ob_REV), so that its first build is really cold.
clone_revision() {
  local rev="$1"
  git clone -q "$repo" "$work/$rev" && git -C "$work/$rev" checkout -q "$rev"
  cd "$work/$rev"
  bz=(bazel --output_base="$work/ob_$rev")
}
