#!/bin/bash
# The generated test with an expired and a stale xfail must fail, saying why
# in one line each, with a command that reproduces the incorrect rule.
set -u
out="$TEST_TMPDIR/out"
if "$1" >"$out" 2>&1; then
  echo "FAIL: the test passed despite an expired and a stale xfail"; cat "$out"; exit 1
fi
fail=0
for want in \
    "incorrect rule 'P(sum) -> P(sum)' at W=4: sample uneven, generator" \
    "| reproduce: bazel run //tools:shrt -- validate --spec=testing/xfail_demo/aten_square.textproto --world_size=4" \
    "xfail for aten::square rule 'P(sum) -> P(sum)' expired on 2026-01-01" \
    "xfail for aten::square rule 'P(product) -> P(product)' no longer fails (correct): remove the xfail" \
    "[  FAILED  ] aten_square.uneven" \
    "[  FAILED  ] aten_square.xfails"; do
  if ! grep -qF -- "$want" "$out"; then echo "FAIL: missing: $want"; fail=1; fi
done
(( fail )) && cat "$out"
exit $fail
