# Sourced by the benchmark scripts that time `shrt validate` (main_job.sh,
# mesh_job.sh): moves to the workspace root, builds //tools:shrt (warm
# fastbuild), makes a scratch directory $tmp removed on exit, and defines
# validate_timed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
bazel build //tools:shrt >/dev/null 2>&1
export BUILD_WORKSPACE_DIRECTORY="$PWD"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# validate_timed FLAGS...: `shrt validate --format=json FLAGS...` into
# $tmp/report.json, its peak resident memory (KiB, /usr/bin/time) into
# $tmp/mem; exit 1 (incorrect rules found) is a result, not a failure.
validate_timed() {
  /usr/bin/time -f "%M" -o "$tmp/mem" bazel-bin/tools/shrt validate --format=json "$@" \
    > "$tmp/report.json" 2>/dev/null || [[ $? == 1 ]]
}
