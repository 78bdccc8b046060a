#!/bin/bash
# The shrt binary's flag parsing and exit statuses (usage errors exit 2 and
# name the flag; a clean run exits 0 and prints valid JSON).
set -u
shrt="$1"
source tools/expect.sh
expect 2 "no command" -- "$shrt"
expect 2 "unknown command" -- "$shrt" discover
spec=testing/custom_op/shrt_example_scaled_add.textproto
expect 2 "unknown flag" -- "$shrt" validate --opp=aten::relu
grep -q "unknown flag --opp" "$TEST_TMPDIR/err" || { echo "FAIL: flag not named"; fail=1; }
expect 2 "bad int" -- "$shrt" validate --op=aten::relu --world_size=four
grep -q "world_size" "$TEST_TMPDIR/err" || { echo "FAIL: world_size not named"; fail=1; }
expect 2 "world size 1" -- "$shrt" validate --op=aten::relu --world_size=1
expect 2 "negative jobs" -- "$shrt" validate --op=aten::relu --jobs=-1
grep -q "jobs: -1 is negative" "$TEST_TMPDIR/err" || { echo "FAIL: jobs not named"; fail=1; }
expect 2 "a directory as --spec" -- "$shrt" validate --spec=testing/custom_op
grep -q "testing/custom_op: is a directory, not a file" "$TEST_TMPDIR/err" || { echo "FAIL: directory not named"; cat "$TEST_TMPDIR/err"; fail=1; }
expect 2 "an endless file as --spec" -- "$shrt" validate --spec=/dev/zero
grep -q "/dev/zero: longer than 64 MiB" "$TEST_TMPDIR/err" || { echo "FAIL: endless file not refused"; cat "$TEST_TMPDIR/err"; fail=1; }
expect 2 "unknown overload" -- "$shrt" validate --op=aten::reluu
grep -q "aten::relu" "$TEST_TMPDIR/err" || { echo "FAIL: no close match"; fail=1; }
expect 2 "op and spec" -- "$shrt" validate --op=aten::relu --spec=$spec
expect 2 "missing spec file" -- "$shrt" validate --spec=nope.textproto
grep -q "nope.textproto: cannot read" "$TEST_TMPDIR/err" || { echo "FAIL: file not named"; fail=1; }
expect 0 "json report" -- "$shrt" validate --spec=$spec --format=json --world_size=3
/usr/bin/python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["world_size"] == 3, r
assert [o["op"] for o in r["ops"]] == ["shrt_example::scaled_add"], r
assert "S(0), R -> S(0)" in r["ops"][0]["correct"], r
assert r["ops"][0]["incorrect"] == [], r
assert r["ops"][0]["combination_checks"] > 0, r
' "$TEST_TMPDIR/out" || { echo "FAIL: json shape"; cat "$TEST_TMPDIR/out"; fail=1; }
expect 0 "text report" -- "$shrt" validate --spec=$spec
grep -q "^shrt_example::scaled_add *| *[0-9]* | *0 |" "$TEST_TMPDIR/out" || { echo "FAIL: summary row"; cat "$TEST_TMPDIR/out"; fail=1; }
expect 2 "xfail without action" -- "$shrt" xfail --op=aten::relu
expect 2 "xfail add without issue" -- "$shrt" xfail add --file="$TEST_TMPDIR/x.textproto" --op=aten::relu --rule="P(sum) -> P(sum)" --reason=r
printf '# header\n' > "$TEST_TMPDIR/x.textproto"
expect 0 "xfail add" -- "$shrt" xfail add --file="$TEST_TMPDIR/x.textproto" --op=aten::relu --rule="P(sum)->P(sum)" --reason=r --issue=https://example.org/1
expect 0 "xfail list" -- "$shrt" xfail list --file="$TEST_TMPDIR/x.textproto"
grep -q "^aten::relu | P(sum) -> P(sum) | https://example.org/1 | added" "$TEST_TMPDIR/out" || { echo "FAIL: list"; cat "$TEST_TMPDIR/out"; fail=1; }
head -1 "$TEST_TMPDIR/x.textproto" | grep -q "^# header" || { echo "FAIL: header lost"; fail=1; }
expect 0 "xfail remove" -- "$shrt" xfail remove --file="$TEST_TMPDIR/x.textproto" --op=aten::relu --rule="P(sum) -> P(sum)"
expect 2 "xfail remove again" -- "$shrt" xfail remove --file="$TEST_TMPDIR/x.textproto" --op=aten::relu --rule="P(sum) -> P(sum)"
rm -f "$TEST_TMPDIR/new.textproto"
expect 0 "xfail add to a new file" -- "$shrt" xfail add --file="$TEST_TMPDIR/new.textproto" --op=aten::relu --all_rules --reason=r --issue=https://example.org/1
head -2 "$TEST_TMPDIR/new.textproto" | grep -q "^# proto-message: shrt.XfailList" || { echo "FAIL: new file header"; cat "$TEST_TMPDIR/new.textproto"; fail=1; }
expect 2 "xfail add twice" -- "$shrt" xfail add --file="$TEST_TMPDIR/new.textproto" --op=aten::relu --all_rules --reason=r --issue=https://example.org/1
grep -q "new.textproto already has an xfail for aten::relu (all rules)" "$TEST_TMPDIR/err" || { echo "FAIL: repeated entry"; cat "$TEST_TMPDIR/err"; fail=1; }
expect 2 "xfail add with the wrong arity" -- "$shrt" xfail add --file="$TEST_TMPDIR/new.textproto" --op=aten::relu --rule="S(0), R -> S(0)" --reason=r --issue=https://example.org/1
grep -qF "shrt xfail add: --rule: 'S(0), R -> S(0)' has 2 input placements but the overload has 1 tensor input (aten::relu)" "$TEST_TMPDIR/err" || { echo "FAIL: arity"; cat "$TEST_TMPDIR/err"; fail=1; }
: > "$TEST_TMPDIR/empty.textproto"
for action in list add; do
  expect 2 "xfail $action on a 0-byte file" -- "$shrt" xfail $action --file="$TEST_TMPDIR/empty.textproto" --op=aten::relu --rule="P(sum) -> P(sum)" --reason=r --issue=https://example.org/1
  grep -q "empty.textproto: is empty (0 bytes)" "$TEST_TMPDIR/err" || { echo "FAIL: 0-byte file not named"; cat "$TEST_TMPDIR/err"; fail=1; }
  [[ ! -s "$TEST_TMPDIR/empty.textproto" ]] || { echo "FAIL: 0-byte file written"; fail=1; }
done
# Comments and order survive: add then remove gives the file back byte for
# byte, and removing an entry keeps the comments around it.
cat > "$TEST_TMPDIR/c.textproto" <<'END'
# header

# about neg
xfail {
  op: "aten::neg"  # inside
  rule: "P(sum) -> P(sum)"
  reason: "r"
  issue: "https://example.org/2"
  added: "2026-01-01"
}  # after neg
# between
	xfail { op: "aten::abs" all_rules: true reason: "r" issue: "https://example.org/3" added: "2026-01-01" }
# last
END
cp "$TEST_TMPDIR/c.textproto" "$TEST_TMPDIR/c.orig"
expect 0 "xfail add to a commented file" -- "$shrt" xfail add --file="$TEST_TMPDIR/c.textproto" --op=aten::relu --rule="P(sum) -> P(sum)" --reason=r --issue=https://example.org/1
head -c "$(stat -c %s "$TEST_TMPDIR/c.orig")" "$TEST_TMPDIR/c.textproto" | cmp -s - "$TEST_TMPDIR/c.orig" || { echo "FAIL: add changed the old text"; fail=1; }
expect 0 "xfail remove from a commented file" -- "$shrt" xfail remove --file="$TEST_TMPDIR/c.textproto" --op=aten::relu --rule="P(sum) -> P(sum)"
cmp "$TEST_TMPDIR/c.textproto" "$TEST_TMPDIR/c.orig" || { echo "FAIL: add then remove is not byte for byte"; diff "$TEST_TMPDIR/c.orig" "$TEST_TMPDIR/c.textproto"; fail=1; }
expect 0 "xfail remove the first entry" -- "$shrt" xfail remove --file="$TEST_TMPDIR/c.textproto" --op=aten::neg --rule="P(sum) -> P(sum)"
printf '# header\n\n# about neg\n# between\n\txfail { op: "aten::abs" all_rules: true reason: "r" issue: "https://example.org/3" added: "2026-01-01" }\n# last\n' |
  cmp -s - "$TEST_TMPDIR/c.textproto" || { echo "FAIL: remove took more than the entry"; cat "$TEST_TMPDIR/c.textproto"; fail=1; }
# discover: every format, and its table validates clean (the round trip).
expect 2 "discover without op or spec" -- "$shrt" discover
expect 2 "discover bad format" -- "$shrt" discover --spec=$spec --format=yaml
expect 0 "discover text" -- "$shrt" discover --spec=$spec
grep -q "^rules (each re-checked" "$TEST_TMPDIR/out" || { echo "FAIL: discover text"; cat "$TEST_TMPDIR/out"; fail=1; }
grep -q "swept:" "$TEST_TMPDIR/out" || { echo "FAIL: discover header"; fail=1; }
expect 0 "discover json" -- "$shrt" discover --spec=$spec --format=json
/usr/bin/python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["op"] == "shrt_example::scaled_add" and r["world_size"] == 4, r
assert any(x["placements"] == "P(sum), P(sum) -> P(sum)" for x in r["rules"]), r
assert r["samples"] and r["samples"][0]["valid"], r
' "$TEST_TMPDIR/out" || { echo "FAIL: discover json"; fail=1; }
expect 0 "discover cc" -- "$shrt" discover --spec=$spec --format=cc
grep -q 'SHRT_REGISTER_STRATEGY("shrt_example::scaled_add"' "$TEST_TMPDIR/out" || { echo "FAIL: cc"; fail=1; }
"$shrt" discover --spec=$spec --format=textproto > "$TEST_TMPDIR/table.textproto"
expect 0 "discovered table validates" -- "$shrt" validate --spec=$spec --strategies="$TEST_TMPDIR/table.textproto" --format=json
/usr/bin/python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
op = r["ops"][0]
assert op["incorrect"] == [] and op["unverified"] == [], op
assert all(isinstance(c, dict) and "rule" in c for c in op["correct"]), op
' "$TEST_TMPDIR/out" || { echo "FAIL: round trip"; cat "$TEST_TMPDIR/out"; fail=1; }
expect 0 "coverage json" -- "$shrt" coverage --namespace=shrt_example --spec_dir=testing/custom_op --recipe_dir=op_specs/recipes --format=json
/usr/bin/python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert [n["name"] for n in r["namespaces"]] == ["shrt_example"], r
ns = r["namespaces"][0]
assert ns["overloads"] >= 1 and ns["checked"] == 1, ns
assert r["families"] == [{"name": "", "overloads": 1, "with_spec": 1, "with_strategy": 1, "checked": 1, "not_checkable": 0, "not_yet_covered": 0}], r
assert ns["checked"] + ns["not_checkable"] + ns["not_yet_covered"] == ns["overloads"], ns
assert r["spec_without_strategy"] == [] and r["uncovered"] == [], r
' "$TEST_TMPDIR/out" || { echo "FAIL: coverage json"; cat "$TEST_TMPDIR/out"; fail=1; }
expect 0 "coverage text" -- "$shrt" coverage --spec_dir=testing/custom_op --recipe_dir=op_specs/recipes --uncovered --namespace=aten
grep -q "Not yet covered (checkable, not checked) in aten" "$TEST_TMPDIR/out" || { echo "FAIL: coverage uncovered"; fail=1; }
grep -q "^  foreach (" "$TEST_TMPDIR/out" || { echo "FAIL: coverage uncovered by family"; fail=1; }
grep -q "^  backend only " "$TEST_TMPDIR/out" || { echo "FAIL: coverage categories"; fail=1; }
expect 2 "coverage unknown namespace" -- "$shrt" coverage --namespace=no_such_ns --spec_dir=testing/custom_op --recipe_dir=op_specs/recipes
grep -q "no_such_ns" "$TEST_TMPDIR/err" || { echo "FAIL: namespace not named"; fail=1; }
# --help and --version (exit 0, on stdout); each command's --help lists
# every flag it accepts with its help text and default.
expect 0 "--help" -- "$shrt" --help
grep -q "^usage: shrt validate" "$TEST_TMPDIR/out" || { echo "FAIL: --help usage"; cat "$TEST_TMPDIR/out"; fail=1; }
expect 0 "--version" -- "$shrt" --version
# The libtorch linked in is the torch that tools/requirements.txt pins.
pinned="$(sed -n 's/^torch==//p' tools/requirements.txt)"
grep -qE "^shrt [0-9]+\.[0-9]+\.[0-9]+, libtorch ${pinned//./\\.}$" "$TEST_TMPDIR/out" || { echo "FAIL: --version (want libtorch $pinned)"; cat "$TEST_TMPDIR/out"; fail=1; }
for command in validate discover coverage groups xfail; do
  expect 0 "$command --help" -- "$shrt" $command --help
  grep -q "^usage: shrt $command" "$TEST_TMPDIR/out" || { echo "FAIL: $command --help usage"; fail=1; }
  # Every flag the usage names is listed under flags:, with a default.
  for flag in $(grep -oE -- "--[a-z_]+" <(sed -n '/^usage:/,/^$/p' "$TEST_TMPDIR/out") | sort -u); do
    grep -qxF -- "  $flag" "$TEST_TMPDIR/out" || { echo "FAIL: $command --help lacks $flag"; fail=1; }
  done
  [[ $(grep -c "^      default: " "$TEST_TMPDIR/out") == $(grep -c "^  --" "$TEST_TMPDIR/out") ]] || { echo "FAIL: $command --help: a flag without default"; fail=1; }
done
expect 0 "help validate" -- "$shrt" help validate
grep -qxF -- "      default: 1m" "$TEST_TMPDIR/out" || { echo "FAIL: call_time_limit default"; cat "$TEST_TMPDIR/out"; fail=1; }
expect 2 "help of an unknown command" -- "$shrt" help validat
grep -q "did you mean validate" "$TEST_TMPDIR/err" || { echo "FAIL: help unknown command"; fail=1; }
# --quiet is accepted; on a pipe there is no progress either way.
expect 0 "--quiet" -- "$shrt" validate --spec=$spec --quiet
[[ ! -s "$TEST_TMPDIR/err" ]] || { echo "FAIL: --quiet wrote to stderr"; cat "$TEST_TMPDIR/err"; fail=1; }
# Outside a workspace with op_specs/ (a downstream one), the default spec
# tree's recipes are ShRT's own; an explicit --spec_dir still needs its own.
mkdir -p "$TEST_TMPDIR/elsewhere"
expect 0 "ShRT's recipes where the workspace has none" -- \
  env -C "$TEST_TMPDIR/elsewhere" "$PWD/$shrt" validate --spec="$PWD/$spec" --world_size=2
exit $fail
