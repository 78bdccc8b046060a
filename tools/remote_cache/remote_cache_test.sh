#!/bin/bash
# Proves the remote cache on real Bazel (run by .ci/run; needs a running
# cache, tools/remote_cache/remote_cache.sh start DIR PORT):
#   0. with --populate: `bazel test //shrt/... --config=remote` in a clone
#      with its own output base fills the cache (CI fills it instead with
#      its README test run, through user.bazelrc);
#   1. a fresh clone of this repository's HEAD, with a new output base and
#      --config=remote_readonly, must execute 0 test actions and run no
#      action locally: every result is a remote cache hit;
#   2. after one rule is removed from shrt/strategies/where.cc, exactly the
#      tests that depend on that file run (bazel query's rdeps), nothing else
#      (their verdicts do not matter here). A family no other family's
#      strategies query (families.bzl FAMILY_DEPS), so that few tests rerun.
# Prints each step's wall time and counts; exits non-zero on any failure.
#
#   tools/remote_cache/remote_cache_test.sh PORT [--populate]
set -uo pipefail
[[ $# -ge 1 && "$1" =~ ^[0-9]+$ ]] || { echo "usage: $0 PORT [--populate]" >&2; exit 2; }
port="$1"
populate="${2:-}"
repo="$(cd "$(dirname "$0")/../.." && pwd)"
tmp="$(mktemp -d)"
# --remote_download_minimal: a cache hit's outputs stay in the cache
# (Bazel's "build without the bytes"); an action that runs here, as the
# edited rule's dependents do in step 2, has its inputs fetched first.
cache=(--remote_cache="http://127.0.0.1:$port" --remote_download_minimal)
common=(--curses=no --color=no --noshow_progress --test_summary=short)
fail=0
trap 'for ob in "$tmp"/ob*; do bazel --output_base="$ob" shutdown >/dev/null 2>&1; done; rm -rf "$tmp"' EXIT

# bazel_test LOG OUTPUT_BASE [FLAGS...]: timed `bazel test //shrt/...` in $PWD.
bazel_test() {
  local log="$1" ob="$2"; shift 2
  local start=$SECONDS
  bazel --output_base="$ob" test //shrt/... "${common[@]}" "$@" >"$log" 2>&1
  local status=$?
  echo "  exit $status in $((SECONDS - start)) s; $(grep -E '^INFO: [0-9]+ processes' "$log" | tail -1)"
  echo "  $(grep -E '^(INFO: )?Executed [0-9]+ out of' "$log" | tail -1)"
  return $status
}
executed() { grep -E '^Executed [0-9]+ out of|^INFO: Executed' "$1" | tail -1 | sed -E 's/.*Executed ([0-9]+) out of.*/\1/'; }
# The spawns of a --execution_log_json_file (a stream of JSON objects) that
# were not remote cache hits: mnemonic and progress message.
local_spawns() {
  python3 - "$1" <<'PY'
import json, re, sys
text, decoder, pos = open(sys.argv[1]).read().strip(), json.JSONDecoder(), 0
space = re.compile(r"\s*")
while pos < len(text):
    spawn, pos = decoder.raw_decode(text, pos)
    pos = space.match(text, pos).end()
    if not spawn.get("remoteCacheHit"):
        print("  ", spawn.get("mnemonic", "?"), spawn.get("progressMessage", ""))
PY
}
# Tests that ran (not cached) in LOG.
ran() { grep -E '^//[^ ]+ +(PASSED|FAILED)' "$1" | awk '{print $1}' | sort; }

if [[ "$populate" == "--populate" ]]; then
  echo "step 0: populate the cache from one output base"
  git clone -q "$repo" "$tmp/a" && cd "$tmp/a" || exit 1
  bazel_test "$tmp/populate.log" "$tmp/ob0" --config=remote "${cache[@]}" || { tail -30 "$tmp/populate.log"; exit 1; }
fi

echo "step 1: fresh clone, new output base, read-only remote cache"
git clone -q "$repo" "$tmp/b" && cd "$tmp/b" || exit 1
if ! bazel_test "$tmp/fresh.log" "$tmp/ob1" --config=remote_readonly "${cache[@]}" \
    --execution_log_json_file="$tmp/fresh.exec.json"; then
  tail -30 "$tmp/fresh.log"; fail=1
fi
n="$(executed "$tmp/fresh.log")"
if [[ "$n" != 0 ]]; then
  echo "FAIL: a fresh clone executed $n test actions instead of 0:"; ran "$tmp/fresh.log"; fail=1
fi
# Every spawned action must be a remote cache hit (no sandboxed or local run).
if grep -E '^INFO: [0-9]+ processes' "$tmp/fresh.log" | tail -1 | grep -qE 'sandbox|local|worker'; then
  echo "FAIL: actions ran locally instead of hitting the cache:"; local_spawns "$tmp/fresh.exec.json"; fail=1
fi

echo "step 2: one rule removed from shrt/strategies/where.cc"
# where.self loses R, P(min), R -> P(min).
sed -i 's/"R, P(min), R -> P(min)", *//' shrt/strategies/where.cc
git diff --quiet && { echo "FAIL: the edit did not apply"; exit 1; }
bazel --output_base="$tmp/ob1" query "kind(test, rdeps(tests(//shrt/...), //shrt/strategies:where.cc))" \
  2>/dev/null | sort > "$tmp/expected"
# The removed rule becomes a missing rule that its spec does not explain, so
# //op_specs:aten_where_self's missing_rules check fails by design: only which
# tests ran matters here.
bazel_test "$tmp/edit.log" "$tmp/ob1" --config=remote_readonly "${cache[@]}" || true
ran "$tmp/edit.log" > "$tmp/ran"
echo "  ran: $(paste -sd' ' "$tmp/ran")"
echo "  depend on where.cc: $(paste -sd' ' "$tmp/expected")"
if ! diff -q "$tmp/ran" "$tmp/expected" >/dev/null || [[ ! -s "$tmp/ran" ]]; then
  echo "FAIL: the tests that ran are not exactly those that depend on where.cc"; fail=1
fi
[[ $fail == 0 ]] && echo "remote cache test: ok" || echo "remote cache test: FAILED"
exit $fail
