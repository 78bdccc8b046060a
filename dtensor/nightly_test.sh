#!/bin/bash
# The nightly check of DTensor's own rules (DTENSOR.md): `shrt validate
# --dtensor --all` at W = 2, 3 and 4 on the installed torch, then the
# incorrect rules against dtensor/known.textproto. Fails on an incorrect
# DTensor rule the list does not hold (a torch upgrade's new bug) and on an
# entry no run finds (a fixed bug: remove it). Exit status 2 of a run (a
# usage or input error) fails too. About 12 minutes on 2 cores. The
# repros, fixes and reports have tests of their own (dtensor/BUILD.bazel).
# Usage: nightly_test.sh SHRT CHECK_KNOWN
shrt="$1"
check_known="$2"
reports=()
for w in 2 3 4; do
  "$shrt" validate --dtensor --all --world_size="$w" --quiet --format=json \
    >"$TEST_TMPDIR/w$w.json" 2>"$TEST_TMPDIR/w$w.err"
  status=$?
  if [[ $status -ne 0 && $status -ne 1 ]]; then
    echo "FAIL: validate --dtensor --all --world_size=$w exited $status"
    cat "$TEST_TMPDIR/w$w.err"
    exit 1
  fi
  reports+=("$TEST_TMPDIR/w$w.json")
done
"$check_known" dtensor/known.textproto "${reports[@]}"
