#!/bin/bash
# A DTensor rule planted wrong is reported incorrect with evidence, and its
# correct siblings correct: custom operators (planted_ops.cc, loaded with
# --load into ShRT and into the process that asks DTensor) whose DTensor
# strategies planted_rules.py registers with register_single_dim_strategy.
# Usage: planted_test.sh SHRT LIBRARY
source tools/expect.sh
shrt="$1"
lib="$2"
dir=testing/dtensor_planted

expect 1 "the planted wrong rule fails the run" -- "$shrt" validate --dtensor --quiet \
  --load="$lib" --dtensor_rules="$dir/planted_rules.py" \
  --spec="$dir/shrt_planted_cumsum0.textproto,$dir/shrt_planted_twice.textproto" \
  --spec_dir="$dir" --recipe_dir=op_specs/recipes --world_size=4 --format=json
check "verdicts of the planted rules" /usr/bin/python3 - "$TEST_TMPDIR/out" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
assert report["strategy_source"].startswith("DTensor, torch "), report["strategy_source"]
ops = {op["op"]: op for op in report["ops"]}
cumsum0, twice = ops["shrt_planted::cumsum0"], ops["shrt_planted::twice"]
incorrect = {r["rule"]: r["evidence"] for r in cumsum0["incorrect"]}
assert list(incorrect) == ["S(0) -> S(0)"], incorrect
assert "max |difference|" in incorrect["S(0) -> S(0)"], incorrect
assert cumsum0["correct"] == ["S(1) -> S(1)"], cumsum0["correct"]
assert twice["incorrect"] == [] and twice["correct"] == ["S(0) -> S(0)"], twice
assert "--dtensor " in cumsum0["repro"], cumsum0["repro"]
# The repro loads the same rules: without them, DTensor has none for the op.
assert "--dtensor_rules=" in cumsum0["repro"] and "planted_rules.py" in cumsum0["repro"], cumsum0["repro"]
print("incorrect:", incorrect)
PY

# A rule that holds on finite inputs only, and one that holds for one order
# of two scalar arguments only: each refuted with evidence naming the
# generator or the swept values; their siblings correct.
expect 1 "the planted finite-only and one-order rules fail the run" -- "$shrt" validate --dtensor \
  --quiet --load="$lib" --dtensor_rules="$dir/planted_rules.py" \
  --spec="$dir/shrt_planted_posinf_to.textproto,$dir/shrt_planted_scaled_gap.textproto" \
  --spec_dir="$dir" --recipe_dir=op_specs/recipes --world_size=4 --format=json
check "verdicts of the planted special-value and scalar-order rules" /usr/bin/python3 - "$TEST_TMPDIR/out" <<'PY'
import json, sys
ops = {op["op"]: op for op in json.load(open(sys.argv[1]))["ops"]}
posinf, gap = ops["shrt_planted::posinf_to"], ops["shrt_planted::scaled_gap"]
incorrect = {r["rule"]: r["evidence"] for r in posinf["incorrect"]}
assert list(incorrect) == ["P(max) -> P(max)"], incorrect
assert "generator nonfinite" in incorrect["P(max) -> P(max)"], incorrect
assert "P(min) -> P(min)" in posinf["correct"] and "S(0) -> S(0)" in posinf["correct"], posinf["correct"]
incorrect = {r["rule"]: r["evidence"] for r in gap["incorrect"]}
assert list(incorrect) == ["P(max) -> P(max)"], incorrect
assert "lo=2, hi=-1" in incorrect["P(max) -> P(max)"], incorrect
assert "P(sum) -> P(sum)" in gap["correct"] and "S(0) -> S(0)" in gap["correct"], gap["correct"]
print("incorrect:", incorrect)
PY

expect 2 "a rules file that raises is a usage error naming it" -- "$shrt" validate --dtensor \
  --quiet --load="$lib" --dtensor_rules=/nonexistent/rules.py \
  --spec="$dir/shrt_planted_twice.textproto" --spec_dir="$dir" --recipe_dir=op_specs/recipes
check "the error names the rules file" grep -q "^shrt validate: --dtensor: /nonexistent/rules.py: FileNotFoundError: " "$TEST_TMPDIR/err"
check "the error is one line" test "$(wc -l <"$TEST_TMPDIR/err")" -eq 1

expect 2 "--dtensor_rules needs --dtensor" -- "$shrt" validate --quiet \
  --dtensor_rules="$dir/planted_rules.py" --spec="$dir/shrt_planted_twice.textproto" \
  --spec_dir="$dir" --load="$lib" --recipe_dir=op_specs/recipes
exit $fail
