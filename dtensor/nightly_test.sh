#!/bin/bash
# The nightly check of DTensor's own rules (DTENSOR.md): `shrt validate
# --dtensor --all` at W = 2, 3 and 4 on the installed torch, then the
# incorrect rules against dtensor/known.textproto. Fails on an incorrect
# DTensor rule the list does not hold (a torch upgrade's new bug) and on an
# entry no run finds (a fixed bug: remove it). Exit status 2 of a run (a
# usage or input error) fails too; so does a repro under dtensor/repros/
# that no longer exits 1. About 15 minutes on 2 cores.
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
"$check_known" dtensor/known.textproto "${reports[@]}" || exit 1
# Every repro still shows its bug (exit 1); one that exits 0 is fixed.
fail=0
for repro in dtensor/repros/*.py; do
  /usr/bin/python3 "$repro" >"$TEST_TMPDIR/repro.out" 2>&1
  status=$?
  if [[ $status -ne 1 ]]; then
    echo "FAIL: $repro exited $status (0: the bug is fixed; remove its entries and the script)"
    tail -5 "$TEST_TMPDIR/repro.out"
    fail=1
  fi
done
exit $fail
