#!/bin/bash
# A short fuzz run of one libFuzzer target (fuzz.bzl): replays every input
# of its committed corpus (seeds, and the regression input of each past
# finding), then mutates them for RUNS executions with a fixed seed. Fails
# when libFuzzer reports a crash, a broken property, a sanitizer report, a
# leak or a slow input (it exits non-zero and saves the input to the test's
# undeclared outputs), and when the corpus did not load.
# Usage: short_fuzz_test.sh TARGET CORPUS_DIR RUNS
set -uo pipefail
target="$1" corpus="$2" runs="$3"
[[ -d "$corpus" ]] && compgen -G "$corpus/*" >/dev/null || { echo "FAIL: empty corpus $corpus"; exit 1; }
# libFuzzer writes new inputs into its first corpus directory: a scratch
# one, never the committed corpus (a runfiles symlink into the source tree).
scratch="$TEST_TMPDIR/corpus"
mkdir -p "$scratch"
artifacts="${TEST_UNDECLARED_OUTPUTS_DIR:-$TEST_TMPDIR}/"
"$target" -seed=1 -runs="$runs" -max_total_time=60 -timeout=10 -rss_limit_mb=3072 \
  -use_value_profile=1 -print_final_stats=1 -artifact_prefix="$artifacts" \
  "$scratch" "$corpus" 2>"$TEST_TMPDIR/log"
status=$?
tail -n 40 "$TEST_TMPDIR/log"
if (( status != 0 )); then
  echo "FAIL: $target exited $status on $corpus (the input is in the test's outputs: bazel-testlogs/.../test.outputs/)"
  exit 1
fi
# The corpus must have run: libFuzzer prints "#N INITED" after loading it.
grep -qE '^#[0-9]+[[:space:]]+INITED' "$TEST_TMPDIR/log" || { echo "FAIL: the corpus was not loaded"; exit 1; }
echo "PASS: $(grep -E '^stat::number_of_executed_units' "$TEST_TMPDIR/log")"
