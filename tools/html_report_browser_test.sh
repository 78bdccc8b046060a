#!/bin/bash
# `shrt validate --html` in a real browser: validates three overloads, one
# with a deliberately incorrect rule (aten::abs P(sum) -> P(sum), the
# planted mistake of testing/wrong_strategies.h, here in a strategy table),
# renders the HTML report in headless Chromium, and checks the rendered page
# against the JSON report of the same run (html_report_check.py): the same
# overloads, the same counts per verdict, the incorrect rule's cell marked
# and its evidence present. Saves a screenshot to the test's outputs.
#
# Usage: html_report_browser_test.sh SHRT_BINARY CHECKER
set -u
shrt="$PWD/$1"
checker="$PWD/$2"
tmp="$TEST_TMPDIR"
# Run in a scratch directory that sees the runfiles' specs and recipes, so
# that the report's repro commands name short relative paths.
ln -s "$PWD/testing" "$PWD/op_specs" "$tmp/"
cd "$tmp" || exit 1
export HOME="$TEST_TMPDIR/home"  # chromium writes below $HOME
mkdir -p "$HOME"
out="${TEST_UNDECLARED_OUTPUTS_DIR:-$tmp/outputs}"
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }

chromium=/usr/bin/chromium
[[ -x "$chromium" ]] || fail "$chromium is missing (tools/setup.sh installs Debian's chromium)"

cat >"$tmp/table.textproto" <<'EOF'
# aten::abs claims P(sum) -> P(sum): abs is not linear, so it is incorrect.
op {
  name: "aten::abs"
  rule { placements: "S(d) -> S(d)" }
  rule { placements: "P(sum) -> P(sum)" }
}
op {
  name: "aten::mul.Tensor"
  rule { placements: "S(d), S(d) -> S(d)" }
  rule { placements: "P(sum), R -> P(sum)" }
  rule { placements: "R, P(sum) -> P(sum)" }
}
op {
  name: "aten::mm"
  rule { placements: "S(0), R -> S(0)" }
  rule { placements: "R, S(1) -> S(1)" }
  rule { placements: "S(1), S(0) -> P(sum)" condition: "ws >= 2" }
}
EOF

"$shrt" validate --spec_dir=testing/specs --recipe_dir=op_specs/recipes \
  --op=aten::abs,aten::mul.Tensor,aten::mm --strategies=table.textproto \
  --world_size=2 --format=json --html="$tmp/report.html" >"$tmp/report.json" 2>"$tmp/err"
status=$?
[[ "$status" == 1 ]] || { cat "$tmp/err"; fail "validate exited $status, want 1 (one incorrect rule)"; }
[[ -s "$tmp/report.html" ]] || fail "no HTML report written"
cp "$tmp/report.html" "$tmp/report.json" "$out/"

# No network: nothing in the file may point outside it.
if grep -Eq 'https?://|src=|<link' "$tmp/report.html"; then
  grep -En 'https?://|src=|<link' "$tmp/report.html" | head
  fail "the HTML report refers to something outside it"
fi

flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
  --disable-background-networking --disable-component-update --disable-sync
  --virtual-time-budget=5000)
"$chromium" "${flags[@]}" --user-data-dir="$(mktemp -d -p "$tmp")" --dump-dom \
  "file://$tmp/report.html" >"$tmp/dom.html" 2>"$tmp/chromium.err" ||
  { tail -20 "$tmp/chromium.err"; fail "chromium --dump-dom failed"; }
cp "$tmp/dom.html" "$out/"
/usr/bin/python3 "$checker" "$tmp/dom.html" "$tmp/report.json" ||
  fail "the rendered page does not match the JSON report"
# The checker can fail: against a JSON report with one more incorrect rule
# and with other evidence, the same page must not pass.
/usr/bin/python3 - "$tmp/report.json" "$tmp/tampered.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
op = [o for o in r["ops"] if o["incorrect"]][0]
op["incorrect"][0]["evidence"] = "some other evidence"
r["ops"][-1]["incorrect"].append({"rule": "R -> R", "evidence": "planted", "condition": "", "category": ""})
json.dump(r, open(sys.argv[2], "w"))
PY
if /usr/bin/python3 "$checker" "$tmp/dom.html" "$tmp/tampered.json" >"$tmp/tampered.out"; then
  fail "the checker accepts a page that does not match a tampered JSON report"
fi
grep -q "MISMATCH: .*evidence" "$tmp/tampered.out" || { cat "$tmp/tampered.out"; fail "changed evidence not caught"; }

"$chromium" "${flags[@]}" --user-data-dir="$(mktemp -d -p "$tmp")" --hide-scrollbars \
  --window-size=1400,1000 --screenshot="$out/html_report.png" \
  "file://$tmp/report.html" >/dev/null 2>"$tmp/chromium.err" ||
  { tail -20 "$tmp/chromium.err"; fail "chromium --screenshot failed"; }
[[ -s "$out/html_report.png" ]] || fail "no screenshot at $out/html_report.png"
echo "PASS: rendered page matches the JSON report; screenshot $out/html_report.png"
