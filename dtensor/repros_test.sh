#!/bin/bash
# Every repro under dtensor/repros/ still shows its bug: each exits 1 while
# the bug exists on the installed torch. One that exits 0 is fixed upstream
# (remove its entries from known.textproto, its script, fix and report); any
# other status is a broken script. Prints each repro's status and time.
fail=0
for repro in dtensor/repros/*.py; do
  start=$SECONDS
  /usr/bin/python3 "$repro" >"$TEST_TMPDIR/repro.out" 2>&1
  status=$?
  echo "$repro: exit $status in $((SECONDS - start)) s"
  if [[ $status -ne 1 ]]; then
    echo "FAIL: $repro exited $status (0: the bug is fixed; remove its entries, script, fix and report)"
    tail -5 "$TEST_TMPDIR/repro.out"
    fail=1
  fi
done
exit $fail
