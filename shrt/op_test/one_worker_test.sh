#!/bin/bash
# A generated test binary forks one crash-isolated worker for all of its
# validations (op_test.h): not one per sample and world size. Counts the
# processes a generated test creates (strace, which tools/setup.sh
# installs): a whole run of aten::abs (its spec, op_specs/unary/
# aten_abs.textproto, has 6 samples at W = 3 and 4, and the mesh is 2x2: 13
# validations) forks once, one gtest selected by --gtest_filter forks
# once, and a filter that selects nothing forks none. A worker per
# validation forked 13 times. The test.xml entry of each gtest that
# reports validations carries validation_seconds.
# Args: the generated test of aten::abs.
set -u
source tools/expect.sh
test_binary="$1"
unset SHRT_WORLD_SIZES SHRT_MESHES  # the spec's world sizes and 2x2, whatever the tier

# forks FILTER: the processes the test creates (clone, fork, vfork without
# CLONE_THREAD) with --gtest_filter=FILTER.
forks() {
  strace -f -qq -e trace=clone,clone3,fork,vfork -o "$TEST_TMPDIR/strace" \
    "$test_binary" --gtest_filter="$1" --gtest_output="xml:$TEST_TMPDIR/test.xml" \
    >"$TEST_TMPDIR/out" 2>&1 || { echo "FAIL: $test_binary --gtest_filter=$1 failed"; cat "$TEST_TMPDIR/out"; fail=1; }
  grep -E '(clone|clone3|fork|vfork)\(' "$TEST_TMPDIR/strace" | grep -v CLONE_THREAD |
    grep -cvE '= -1|<unfinished' || true
}
check "the whole test forks one worker" [ "$(forks '*')" = 1 ]
check "every sample ran at W = 3 and 4" \
  [ "$(grep -c ' sample .* at W=[34]: ' "$TEST_TMPDIR/out")" = 12 ]
check "the mesh check ran" grep -q 'aten::abs on mesh 2x2: ' "$TEST_TMPDIR/out"
check "each sample's and the mesh's gtest records validation_seconds" \
  [ "$(grep -c '<property name="validation_seconds" value="[0-9.e-]*"/>' "$TEST_TMPDIR/test.xml")" = 7 ]
check "one gtest forks one worker" [ "$(forks 'aten_abs.mesh_2x2')" = 1 ]
check "a filter that selects nothing forks none" [ "$(forks '-*')" = 0 ]
exit $fail
