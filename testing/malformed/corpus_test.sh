#!/bin/bash
# Runs the malformed-input corpus (README.md beside this file): every
# directory in testing/malformed/cases/ is one case, run in a scratch copy
# of itself beside op_specs/recipes/ (a spec tree with the checked-in
# recipes and no spec). Its `cmd` must exit with `status` (2 when there is
# no such file) and print exactly `stderr` (and `stdout`, when that file
# exists). Prints one line per case and the corpus size and pass count.
# Cases run $CORPUS_JOBS at a time (default 2): each starts the CLI, which
# costs about half a second of libtorch loading.
#
#   corpus_test.sh SHRT           check every case (the sh_test)
#   corpus_test.sh SHRT --write   from the workspace root: write each case's
#                                 stderr (and stdout) files from what SHRT
#                                 prints, for a new case or a changed message
set -u
shrt="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
mode="${2:-check}"
root="$PWD"
cases="testing/malformed/cases"
scratch="${TEST_TMPDIR:-$(mktemp -d)}/malformed"
rm -rf "$scratch" && mkdir -p "$scratch"

# Runs case directory $1 and writes its verdict to $scratch/<name>.result:
# "ok", or what differs.
run_case() {
  local dir="$1" name="${1##*/}"
  local work="$scratch/$name"
  mkdir -p "$work/op_specs"
  cp -RL "$dir/." "$work/"
  ln -s "$root/op_specs/recipes" "$work/op_specs/recipes"
  # `shrt` in a cmd is the binary under test, stopped after 60 s: a hang
  # fails its case instead of the whole test.
  (
    cd "$work" || exit 99
    shrt() { timeout 60 "$shrt" "$@"; }
    . ./cmd
  ) >"$scratch/$name.stdout" 2>"$scratch/$name.stderr" </dev/null
  local got=$? want=2
  [[ -f "$dir/status" ]] && want="$(<"$dir/status")"
  if [[ "$mode" == "--write" ]]; then
    cp "$scratch/$name.stderr" "$dir/stderr"
    [[ -f "$dir/stdout" ]] && cp "$scratch/$name.stdout" "$dir/stdout"
    [[ "$got" == "$want" ]] && echo "wrote" || echo "wrote, but exit $got, want $want"
    return
  fi
  local failures=()
  [[ "$got" == "$want" ]] || failures+=("exit $got, want $want")
  for stream in stderr stdout; do
    [[ "$stream" == stdout && ! -f "$dir/stdout" ]] && continue
    if ! diff -u "$dir/$stream" "$scratch/$name.$stream" >"$scratch/$name.$stream.diff"; then
      failures+=("$stream differs:"$'\n'"$(cat "$scratch/$name.$stream.diff")")
    fi
  done
  if ((${#failures[@]} == 0)); then
    echo "ok"
  else
    printf '%s\n' "${failures[@]}"
    echo "command: $(tr '\n' ';' <"$dir/cmd")"
  fi
}

names=()
for dir in "$cases"/*/; do
  dir="${dir%/}"
  names+=("${dir##*/}")
  while (($(jobs -rp | wc -l) >= ${CORPUS_JOBS:-2})); do wait -n; done
  run_case "$dir" >"$scratch/${dir##*/}.result" &
done
wait
passed=0
for name in "${names[@]}"; do
  result="$(<"$scratch/$name.result")"
  if [[ "$mode" == "--write" ]]; then
    echo "$name: $result"
  elif [[ "$result" == ok ]]; then
    passed=$((passed + 1))
    echo "ok   $name"
  else
    echo "FAIL $name: $result"
  fi
done
if [[ "$mode" == "--write" ]]; then
  echo "malformed corpus: wrote the expected output of ${#names[@]} cases"
  exit 0
fi
echo "malformed corpus: $passed of ${#names[@]} cases pass"
[[ "${#names[@]}" -gt 0 && "$passed" == "${#names[@]}" ]]
