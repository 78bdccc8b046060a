#!/bin/bash
# A DTensor rule planted wrong is reported incorrect with evidence, and its
# correct siblings correct: custom operators (planted_ops.cc, loaded with
# --load into ShRT and into the process that asks DTensor) whose DTensor
# strategies planted_rules.py registers with register_single_dim_strategy.
# Also: a DTensor rule planted wrong in a copy of torch's own sources
# (wrong_neg.patch, through tools/dtensor/torch_overlay.py and PYTHONPATH)
# or in a --dtensor_rules module that replaces DTensor's registration
# (override_neg.py) is reported incorrect, the report says whose rules were
# judged, and tools/dtensor/verify_fixes.py refuses the patch as a fix; and
# the rules `discover --format=python` writes round-trip through --dtensor_rules.
# Usage: planted_test.sh SHRT LIBRARY VERIFY_FIXES
source tools/expect.sh
shrt="$1"
lib="$2"
verify_fixes="$3"
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
# A rule planted wrong in DTensor's own sources, on a patched copy of torch.
overlay="$TEST_TMPDIR/overlay"
/usr/bin/python3 -c "import sys; sys.path.insert(0, 'tools/dtensor'); import torch_overlay; \
torch_overlay.make(['$dir/wrong_neg.patch'], '$overlay')" || { echo "FAIL: the overlay"; fail=1; }
expect 0 "aten::neg on the installed torch" -- "$shrt" validate --dtensor --quiet --op=aten::neg \
  --world_size=2 --format=json
cp "$TEST_TMPDIR/out" "$TEST_TMPDIR/stock.json"
expect 1 "aten::neg on the patched copy" -- env PYTHONPATH="$overlay" "$shrt" validate --dtensor \
  --quiet --op=aten::neg --world_size=2 --format=json
check "the patched copy's planted rules incorrect, the installed torch's not" /usr/bin/python3 - \
  "$TEST_TMPDIR/stock.json" "$TEST_TMPDIR/out" "$overlay" <<'PY'
import json, sys
stock, patched = (json.load(open(p)) for p in sys.argv[1:3])
assert stock["ops"][0]["incorrect"] == [], stock["ops"][0]["incorrect"]
assert "P(max) -> P(min)" in stock["ops"][0]["correct"], stock["ops"][0]["correct"]
assert stock["strategy_source"].startswith("DTensor, torch ") and " from " not in stock["strategy_source"]
incorrect = {r["rule"] for r in patched["ops"][0]["incorrect"]}
assert incorrect == {"P(max) -> P(max)", "P(min) -> P(min)"}, incorrect
assert patched["strategy_source"].endswith(" from %s/torch/distributed/tensor" % sys.argv[3]), patched["strategy_source"]
PY
expect 1 "verify_fixes refuses the planted wrong fix" -- "$verify_fixes" --shrt="$shrt" \
  --known="$dir/known.textproto" --fixes="$dir" --repros="$dir" --world_sizes=2 --meshes= wrong_neg
check "it names the rule made incorrect" grep -q "FAIL wrong_neg: --world_size=2: newly incorrect: aten::neg: P(max) -> P(max)" "$TEST_TMPDIR/out"
check "it names the correct rule lost" grep -q "FAIL wrong_neg: --world_size=2: correct rule lost: aten::neg: P(max) -> P(min) (missing)" "$TEST_TMPDIR/out"

# The same rules from a --dtensor_rules module that replaces DTensor's own.
expect 1 "aten::neg with its registration replaced" -- "$shrt" validate --dtensor --quiet \
  --op=aten::neg --dtensor_rules="$dir/override_neg.py" --world_size=2 --format=json
check "the report says whose rules, and the planted rule is incorrect" /usr/bin/python3 - "$TEST_TMPDIR/out" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
assert report["strategy_source"].endswith(", overridden by override_neg.py for aten::neg"), report["strategy_source"]
assert "P(max) -> P(max)" in {r["rule"] for r in report["ops"][0]["incorrect"]}, report["ops"][0]["incorrect"]
PY
# The rules discover finds, written as a DTensor strategy, replace DTensor's
# own (cumsum's, whose negative-dim rule is wrong) and are all correct.
expect 0 "discover writes cumsum's rules as a DTensor strategy" -- "$shrt" discover \
  --op=aten::cumsum --format=python
cp "$TEST_TMPDIR/out" "$TEST_TMPDIR/cumsum_strategy.py"
expect 0 "the discovered strategy round-trips" -- "$shrt" validate --dtensor --quiet \
  --op=aten::cumsum --dtensor_rules="$TEST_TMPDIR/cumsum_strategy.py" --world_size=4 --format=json
check "it replaced DTensor's, and no rule of it is incorrect" /usr/bin/python3 - "$TEST_TMPDIR/out" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
assert report["strategy_source"].endswith(", overridden by cumsum_strategy.py for aten::cumsum"), report["strategy_source"]
op = report["ops"][0]
assert op["incorrect"] == [] and "S(0) -> S(0)" in op["correct"], op
PY
exit $fail
