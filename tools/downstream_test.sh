#!/bin/bash
# Builds and tests the example downstream workspace, examples/downstream/,
# which uses this checkout as the external repository @shrt and calls
# shrt_op_tests for its own custom operator (run by .ci/run). It proves that
# ShRT works from another workspace: deps.bzl, the macro's labels and the
# code generator under external/shrt/.
#
# The run is cold: its own Bazel server and output base in a temporary
# directory (removed afterwards), so it neither shares nor disturbs this
# workspace's; it compiles ShRT's engine again, as @shrt. Prints the wall
# time; exits with bazel's status.
#
#   tools/downstream_test.sh [BAZEL TEST FLAGS...]
set -uo pipefail
cd "$(dirname "$0")/../examples/downstream" || exit 1
output_base="$(mktemp -d)"
# Bazel leaves read-only files in an output base.
trap 'bazel --output_base="$output_base" shutdown >/dev/null 2>&1; chmod -R u+w "$output_base"; rm -rf "$output_base"' EXIT
start=$SECONDS
# --symlink_prefix=/: no bazel-* links into an output base that is deleted.
bazel --output_base="$output_base" test --symlink_prefix=/ "$@" //...
code=$?
echo "downstream workspace (examples/downstream): bazel test //...: exit $code in $((SECONDS - start)) s"
exit "$code"
