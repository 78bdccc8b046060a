#!/bin/bash
# Each planted strategy passes its 1-D sample test at W = 2 and fails its
# 2x2 mesh test with a composition failure and the evidence that shows it.
set -u
fail=0
check() {  # check BINARY NAME WANT...
  local bin="$1" name="$2"; shift 2
  local out="$TEST_TMPDIR/$name.out"
  if SHRT_WORLD_SIZES=2 SHRT_MESHES=2x2 "$bin" --gtest_filter=-*.missing_rules >"$out" 2>&1; then
    echo "FAIL: $name passed on the 2x2 mesh despite a composition failure"; cat "$out"; fail=1; return
  fi
  for want in "$@"; do
    if ! grep -qF -- "$want" "$out"; then echo "FAIL: $name: missing: $want"; fail=1; fi
  done
  (( fail )) && cat "$out"
  # Shown in the test log: the evidence a user reads.
  grep -F "composition failure" "$out" | head -3
}
check "$1" mean \
  "[       OK ] aten_mean_dim.six_rows" \
  "aten::mean.dim: composition failure on mesh 2x2: '[S(0), S(0)] -> [P(avg), P(avg)]'" \
  "on the reduction over ranks: max |difference| 0.75 (over ranks (0, 0), (0, 1), (1, 0), (1, 1)" \
  "each single-dim rule holds alone (S(0) -> P(avg) on mesh dim 0; S(0) -> P(avg) on mesh dim 1)" \
  "[  FAILED  ] aten_mean_dim.mesh_2x2"
check "$2" view \
  "[       OK ] aten_view.flatten_rows" \
  "aten::view: composition failure on mesh 2x2: '[S(0), S(0)] -> [S(0), S(0)]'" \
  "rank (0, 0) raised: shape '[6]' is invalid for input of size 8" \
  "[  FAILED  ] aten_view.mesh_2x2"
exit $fail
