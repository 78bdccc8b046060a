#!/bin/bash
# Faults while `shrt xfail add|remove` writes (shrt/vocab/atomic_file.h):
#   - killed with kill -9 after a random delay, for add and for remove, the
#     xfails file is byte-identical to the old or the new version every
#     time. The delays cover the command's whole run time (1.2 times the
#     median of three unbroken runs) evenly: trial i of n draws its delay
#     uniformly from the i-th of n equal slices. The write (mkstemp to
#     rename) is a few percent of a run, most of which loads libtorch, so
#     half as many trials again run on a slow disk: strace delays every
#     fsync by 500 ms (fault injection from outside; the writer has no
#     test-only hook), which widens the write to about a fifth of a run;
#   - under a file size limit (ulimit -f, as on a full disk) the command
#     exits 2 naming the file and "File too large", and the file is intact.
# Each kill is classed by what it left: the old file (killed before the
# write), the old file and a temporary file beside it (killed during the
# write: between mkstemp and the rename), or the new file (killed after the
# rename, or the command had finished). The xfails file carries a 16 MB
# comment block, so that writing and re-reading it takes measurable time.
#
# Usage: xfail_kill_test.sh SHRT [TRIALS]
#   TRIALS per action at full speed (default 50), half as many slowed.
set -u
shrt="$1"
trials="${2:-50}"
dir="$TEST_TMPDIR/kill"
rm -rf "$dir" && mkdir -p "$dir"
file="$dir/xfails.textproto"
pidfile="$dir/pid"
fail=0
add=(xfail add --file="$file" --op=aten::relu --rule="P(sum) -> P(sum)" --reason=r --issue=https://example.org/1)
remove=(xfail remove --file="$file" --op=aten::relu --rule="P(sum) -> P(sum)")
slow_disk=(strace -f -qq --seccomp-bpf -o /dev/null -e trace=fsync -e inject=fsync:delay_enter=500000)

# The old version: commented entries around a 16 MB comment block.
{
  printf '# proto-file: shrt/report/xfail.proto\n# proto-message: shrt.XfailList\n# kill test\n'
  printf 'xfail {\n  op: "aten::neg"  # inside\n  rule: "P(sum) -> P(sum)"\n  reason: "r"\n'
  printf '  issue: "https://example.org/2"\n  added: "2026-01-01"\n}  # after neg\n'
  yes '# padding: a comment line of eighty bytes that every edit must keep as it is....' | head -n 200000
  printf 'xfail { op: "aten::abs" all_rules: true reason: "r" issue: "https://example.org/3" added: "2026-01-01" }\n'
  printf '# last line\n'
} > "$dir/without"
cp "$dir/without" "$file"
"$shrt" "${add[@]}" > /dev/null || { echo "FAIL: add on the unbroken file"; exit 1; }
cp "$file" "$dir/with"
"$shrt" "${remove[@]}" > /dev/null || { echo "FAIL: remove on the unbroken file"; exit 1; }
cmp -s "$file" "$dir/without" || { echo "FAIL: add then remove did not give the file back"; exit 1; }

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# run PREFIX... -- ARGS...: `PREFIX shrt ARGS` in the background, its pid
# (that of shrt itself, also under strace) in $pidfile once it runs.
run() {
  local prefix=()
  while [[ "$1" != -- ]]; do prefix+=("$1"); shift; done
  shift
  rm -f "$pidfile"
  "${prefix[@]}" /bin/bash -c 'echo $$ > "$0.tmp" && mv "$0.tmp" "$0" && exec "$@"' "$pidfile" "$shrt" "$@" \
    > /dev/null 2>&1 &
  local waited=0
  until [[ -s "$pidfile" ]]; do
    (( waited++ < 10000 )) || { echo "FAIL: shrt did not start"; exit 1; }
    sleep 0.001
  done
}

# kill_trials NAME N FROM TO PREFIX... -- ARGS...: N times, runs
# `PREFIX shrt ARGS` on a copy of FROM, kills shrt after a random delay,
# and checks the file is FROM or TO.
total=0
total_during=0
kill_trials() {
  local name="$1" n="$2" from="$3" to="$4"; shift 4
  local runs=() i
  for i in 1 2 3; do
    cp "$from" "$file"
    local start; start=$(now_ms)
    run "$@"
    wait $!
    runs+=($(( $(now_ms) - start )))
    cmp -s "$file" "$to" || { echo "FAIL: $name on the unbroken file"; fail=1; return; }
  done
  local median; median=$(printf '%s\n' "${runs[@]}" | sort -n | sed -n 2p)
  local span=$(( median * 12 / 10 + 1 ))
  local before=0 during=0 after=0
  for (( i = 0; i < n; i++ )); do
    cp "$from" "$file"
    local delay=$(( (i * span + RANDOM * span / 32768) / n ))
    run "$@"
    local job=$!
    sleep "$(printf '%d.%03d' $(( delay / 1000 )) $(( delay % 1000 )))"
    kill -9 "$(cat "$pidfile")" 2> /dev/null
    wait "$job" 2> /dev/null
    local temps; temps=$(find "$dir" -maxdepth 1 -name '.xfails.textproto.*' | wc -l)
    if cmp -s "$file" "$from"; then
      if (( temps > 0 )); then during=$(( during + 1 )); else before=$(( before + 1 )); fi
    elif cmp -s "$file" "$to"; then
      after=$(( after + 1 ))
    else
      echo "FAIL: $name killed after ${delay} ms left a file that is neither version ($(stat -c %s "$file") bytes)"
      fail=1
    fi
    find "$dir" -maxdepth 1 -name '.xfails.textproto.*' -delete
  done
  echo "$name: $n kills over 0-${span} ms: $before before the write, $during during it" \
       "(temporary file left), $after after the rename or at exit"
  total=$(( total + n ))
  total_during=$(( total_during + during ))
}
kill_trials add "$trials" "$dir/without" "$dir/with" -- "${add[@]}"
kill_trials remove "$trials" "$dir/with" "$dir/without" -- "${remove[@]}"
kill_trials "add, slow disk" $(( trials / 2 )) "$dir/without" "$dir/with" "${slow_disk[@]}" -- "${add[@]}"
kill_trials "remove, slow disk" $(( trials / 2 )) "$dir/with" "$dir/without" "${slow_disk[@]}" -- "${remove[@]}"
echo "kills during the write: $total_during of $total"

# A file size limit below the file's size: exit 2, file and directory intact.
for limit in 8 1024; do
  cp "$dir/without" "$file"
  ( ulimit -f "$limit"; "$shrt" "${add[@]}" > "$dir/out" 2> "$dir/err" )
  status=$?
  if [[ "$status" != 2 ]]; then
    echo "FAIL: add under ulimit -f $limit: exit $status, want 2"; cat "$dir/err"; fail=1
  fi
  grep -q "^shrt xfail add: $file: cannot write .*: File too large; nothing written$" "$dir/err" ||
    { echo "FAIL: ulimit -f $limit: message"; cat "$dir/err"; fail=1; }
  cmp -s "$file" "$dir/without" || { echo "FAIL: ulimit -f $limit changed the file"; fail=1; }
  [[ -z "$(find "$dir" -maxdepth 1 -name '.xfails.textproto.*')" ]] ||
    { echo "FAIL: ulimit -f $limit left a temporary file"; fail=1; }
  echo "ulimit -f $limit: $(cat "$dir/err")"
done
exit $fail
