# Sourced by the shell tests of the `shrt` CLI (tools/shrt_cli_test.sh,
# testing/plugin/load_test.sh): `expect` and `check` record a failure in
# $fail and go on, so one run reports every broken case. A command's stdout
# and stderr are left in $TEST_TMPDIR/out and $TEST_TMPDIR/err.
fail=0

# expect STATUS DESCRIPTION -- COMMAND...: COMMAND must exit with STATUS.
expect() {
  local want="$1" what="$2"; shift 3
  "$@" >"$TEST_TMPDIR/out" 2>"$TEST_TMPDIR/err"
  local got=$?
  if [[ "$got" != "$want" ]]; then
    echo "FAIL: $what: exit $got, want $want"; cat "$TEST_TMPDIR/err"; fail=1
  else
    echo "ok: $what"
  fi
}

# check DESCRIPTION COMMAND...: COMMAND must succeed.
check() {
  local what="$1"; shift
  if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fail=1; fi
}
