#!/bin/bash
# Runs every libFuzzer target of //shrt/fuzz (the tag shrt_fuzz_target), or
# the ones named, built with --config=fuzz (clang-14, coverage-guided,
# ASan + UBSan), each to RUNS executions from its committed corpus, one
# after another, and prints per target the executions, libFuzzer's final
# coverage (cov: edges, ft: features), the corpus it grew, the time and its
# findings (crash, leak, timeout or out-of-memory inputs libFuzzer saved;
# it stops at the first). Logs and findings stay in OUT_DIR/<target>/.
# Exit status 1 when a target has a finding.
#
# Usage: tools/fuzz/run_fuzzers.sh [-runs=N] [-out=DIR] [TARGET...]
#   e.g. tools/fuzz/run_fuzzers.sh -runs=1000000 spec_fuzz
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
runs=1000000
out="${TMPDIR:-/tmp}/shrt_fuzz"
targets=()
for arg in "$@"; do
  case "$arg" in
    -runs=*) runs="${arg#-runs=}" ;;
    -out=*) out="${arg#-out=}" ;;
    -*) echo "usage: $0 [-runs=N] [-out=DIR] [TARGET...]" >&2; exit 2 ;;
    *) targets+=("//shrt/fuzz:$arg") ;;
  esac
done
bazel_flags=(--config=fuzz)
if (( ${#targets[@]} == 0 )); then
  mapfile -t targets < <(bazel query 'attr(tags, "\bshrt_fuzz_target\b", //shrt/fuzz:all)' 2>/dev/null)
fi
bazel build "${bazel_flags[@]}" "${targets[@]}" || exit 2
bin="$(bazel info "${bazel_flags[@]}" bazel-bin 2>/dev/null)"
workspace="$PWD"

status=0
rows=()
for label in "${targets[@]}"; do
  name="${label##*:}"
  work="$out/$name"
  rm -rf "$work"
  mkdir -p "$work/corpus"
  start=$SECONDS
  # The working directory is the runfiles root: targets read op_specs/ there.
  (cd "$bin/shrt/fuzz/$name.runfiles/shrt" &&
    ./shrt/fuzz/"$name" -runs="$runs" -use_value_profile=1 -print_final_stats=1 \
      -timeout=30 -rss_limit_mb=3072 -artifact_prefix="$work/" \
      "$work/corpus" "$workspace/shrt/fuzz/corpus/$name") >"$work/log" 2>&1
  code=$?
  seconds=$((SECONDS - start))
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
  last=$(grep -E '^#[0-9]+.* cov: ' "$work/log" | tail -n 1)
  cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")
  ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")
  corpus=$(sed -nE 's/.* corp: ([0-9]+\/[0-9a-zA-Z]+).*/\1/p' <<<"$last")
  findings=$(cd "$work" && ls -d crash-* leak-* timeout-* oom-* slow-unit-* 2>/dev/null | tr '\n' ' ')
  if (( code != 0 )); then
    status=1
    [[ -n "$findings" ]] || findings="exit $code, see $work/log"
  fi
  rows+=("$(printf '%-14s %12s %6s %6s %12s %7s  %s' "$name" "${executions:-?}" "${cov:-?}" "${ft:-?}" "${corpus:-?}" "$seconds" "${findings:-none}")")
  echo "${rows[-1]}"
done
echo
printf '%-14s %12s %6s %6s %12s %7s  %s\n' target executions cov ft corpus seconds findings
printf '%s\n' "${rows[@]}"
exit "$status"
