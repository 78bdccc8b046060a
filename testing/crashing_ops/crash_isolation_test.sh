#!/bin/bash
# ShRT survives operators that crash (crashing_ops.cc), through the CLI and
# the generated tests: a crash is its overload's verdict (exit status 1),
# every other overload's verdicts are the same as in a run without it.
# Args: the `shrt` binary that links the crashing operators, then the
# generated tests of segfault, divide, check and hang.
set -u
# The specs' world sizes, whatever tier runs this (.bazelrc sets
# SHRT_WORLD_SIZES): the expected lines below name W = 2.
unset SHRT_WORLD_SIZES
shrt="$1"
shift
dir=testing/crashing_ops
specs="$dir/shrt_crashing_segfault.textproto,$dir/shrt_crashing_divide.textproto"
specs+=",$dir/shrt_crashing_check.textproto,$dir/shrt_crashing_hang.textproto"
healthy=op_specs/unary/aten_abs.textproto
out="$TEST_TMPDIR"
fail=0
expect_status() {  # want got what
  if [[ "$1" != "$2" ]]; then echo "FAIL: $3: exit status $2, want $1"; fail=1; fi
}

# 1. validate: four crashing overloads and abs (healthy) in one run, two workers.
"$shrt" validate --spec="$specs,$healthy" --world_size=2 --call_time_limit=1s --jobs=2 \
  --format=json >"$out/all.json" 2>"$out/all.err"
expect_status 1 $? "validate with crashing operators"
"$shrt" validate --spec="$healthy" --world_size=2 --format=json >"$out/healthy.json" 2>&1
expect_status 0 $? "validate abs alone"
python3 - "$out/all.json" "$out/healthy.json" <<'PY' || fail=1
import json, sys
run = {o["op"]: o for o in json.load(open(sys.argv[1]))["ops"]}
alone = {o["op"]: o for o in json.load(open(sys.argv[2]))["ops"]}
want = {"segfault": "SIGSEGV (signal 11)", "divide": "SIGFPE (signal 8)",
        "check": "SIGABRT (signal 6)", "hang": "time limit: the call ran past 1s"}
bad = False
for op, reason in want.items():
    o = run["shrt_crashing::" + op]
    crashed = o["crashed"]
    if len(crashed) != 1 or crashed[0]["inputs"] != "S(0)" or \
            not crashed[0]["evidence"].startswith("crashed: " + reason + " in sample six_rows"):
        print("FAIL: %s: crashed = %r" % (op, crashed)); bad = True
    if [i["rule"] for i in o["incorrect"]] != ["S(0) -> S(0)"]:
        print("FAIL: %s: incorrect = %r" % (op, o["incorrect"])); bad = True
    if "S(1) -> S(1)" not in o["correct"]:
        print("FAIL: %s: correct = %r" % (op, o["correct"])); bad = True
for op in ("aten::abs", "aten::abs_"):
    for key in ("correct", "incorrect", "missing", "unverified", "crashed", "error"):
        if run[op][key] != alone[op][key]:
            print("FAIL: %s %s differs beside crashing operators: %r vs %r"
                  % (op, key, run[op][key], alone[op][key])); bad = True
sys.exit(1 if bad else 0)
PY

# 2. The text report names each crash; W = 4 (no odd shard) has none.
"$shrt" validate --spec="$dir/shrt_crashing_divide.textproto" --world_size=2 >"$out/divide.txt" 2>&1
expect_status 1 $? "validate divide at W=2"
grep -qF "crashed: SIGFPE (signal 8) in sample six_rows, generator" "$out/divide.txt" ||
  { echo "FAIL: the text report does not name the crash"; cat "$out/divide.txt"; fail=1; }
grep -qF "shrt_crashing::divide (crashed)" "$out/divide.txt" ||
  { echo "FAIL: the summary does not mark the overload crashed"; fail=1; }
"$shrt" validate --spec="$specs" --world_size=4 --call_time_limit=1s >"$out/w4.txt" 2>&1
expect_status 0 $? "validate at W=4"

# 3. discover: the crash is reported, the valid rules still found.
"$shrt" discover --spec="$dir/shrt_crashing_segfault.textproto" --world_size=2 \
  >"$out/discover.txt" 2>&1
expect_status 1 $? "discover segfault"
for want in "crashed: SIGSEGV (signal 11) in sample six_rows" "S(1) -> S(1)"; do
  grep -qF -- "$want" "$out/discover.txt" || { echo "FAIL: discover: missing: $want"; fail=1; }
done

# 4. The generated tests fail, naming the crash and how to explain it.
reasons=("SIGSEGV (signal 11)" "SIGFPE (signal 8)" "SIGABRT (signal 6)"
         "time limit: the call ran past 1s")
for i in 0 1 2 3; do
  test="$1"; shift
  SHRT_CALL_TIME_LIMIT=1s "$test" >"$out/gen$i.txt" 2>&1
  expect_status 1 $? "generated test $test"
  for want in "crashed: ${reasons[$i]} in sample six_rows" \
      "at W=2: crashed: ${reasons[$i]}" "crash { inputs: \"S(0)\" reason: \"...\" }" \
      "incorrect rule 'S(0) -> S(0)' at W=2" "[  FAILED  ] "; do
    grep -qF -- "$want" "$out/gen$i.txt" ||
      { echo "FAIL: $test: missing: $want"; fail=1; }
  done
done
(( fail )) && for f in "$out"/*.err "$out"/gen0.txt; do echo "== $f"; head -40 "$f"; done
exit $fail
