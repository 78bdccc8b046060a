#!/bin/bash
# The generated test with an unexplained and a stale missing-rule
# explanation must fail, saying why in one line each; at a world size
# outside the spec's (SHRT_WORLD_SIZES, the nightly tier) it only reports.
set -u
out="$TEST_TMPDIR/out"
# The spec's world sizes and one mesh, whatever tier runs this (.bazelrc
# sets SHRT_WORLD_SIZES and SHRT_MESHES): the expected lines and the gtest
# count below depend on them.
unset SHRT_WORLD_SIZES
export SHRT_MESHES=2x2
if "$1" >"$out" 2>&1; then
  echo "FAIL: the test passed despite an unexplained missing rule and a stale explanation"
  cat "$out"; exit 1
fi
fail=0
for want in \
    "aten::neg: missing rule 'P(avg) -> P(avg)' at W=3 is not explained: holds on sample uneven" \
    "add to testing/missing_demo/aten_neg.textproto: missing { rule: \"P(avg) -> P(avg)\" reason: \"...\" }" \
    "testing/missing_demo/aten_neg.textproto:17: field 'missing[4]': stale: 'S(0) -> P(sum)' is not missing for aten::neg" \
    "[  PASSED  ] 3 tests." \
    "[  FAILED  ] aten_neg.missing_rules"; do
  if ! grep -qF -- "$want" "$out"; then echo "FAIL: missing: $want"; fail=1; fi
done
(( fail )) && cat "$out"
if ! SHRT_WORLD_SIZES=4 "$1" >"$out" 2>&1; then
  echo "FAIL: missing rules outside the spec's world sizes failed the test"; cat "$out"; exit 1
fi
if ! grep -qF "aten::neg: missing rule 'P(avg) -> P(avg)' at W=4 (outside the spec's world sizes; not explained)" "$out"; then
  echo "FAIL: the missing rule at W=4 was not reported"; cat "$out"; fail=1
fi
exit $fail
