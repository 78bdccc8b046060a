#!/bin/bash
# Measures Bazel's "only re-test what changed" on a fresh clone of this
# repository with its own output base (so the build is really cold):
#   1. cold `bazel test //shrt/...`: wall time, tests executed;
#   2. the same again with nothing changed;
#   3. after changing one rule in one strategy file (shrt/strategies/clamp.cc);
#   4. after editing one spec (op_specs/unary/aten_relu.textproto).
# For each step it prints the wall time, "Executed N out of M tests" and the
# tests that ran. Usage: tools/bench/incremental_retest.sh [WORKDIR]
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
work="${1:-$(mktemp -d)}"
rm -rf "$work/clone" "$work/output_base"
git clone -q "$repo" "$work/clone"
cd "$work/clone"
bazel_cmd=(bazel --output_base="$work/output_base")

step() {  # step TITLE [list]: prints wall time and tests executed (and which, with "list")
  local start end log="$work/step.log"
  start=$(date +%s.%N)
  "${bazel_cmd[@]}" test //shrt/... --noshow_progress >"$log" 2>&1 || { cat "$log"; exit 1; }
  end=$(date +%s.%N)
  printf '%s: %s s wall; %s\n' "$1" "$(awk "BEGIN { printf \"%.1f\", $end - $start }")" \
    "$(grep -o 'Executed [0-9]* out of [0-9]* tests' "$log")"
  if [[ "${2:-}" == list ]]; then
    grep -E '^//[^ ]+ +PASSED in' "$log" | awk '{print "    ran " $1}' || true
  fi
}

step "cold"
step "nothing changed" list
# One rule less in one strategy file: clamp keeps P(max) -> P(max) only.
sed -i 's|return PointwiseRules(args, {"P(max) -> P(max)", "P(min) -> P(min)"});|return PointwiseRules(args, {"P(max) -> P(max)"});|' shrt/strategies/clamp.cc
git diff --stat | tail -1
step "one rule changed in shrt/strategies/clamp.cc" list
# One more sample in one spec.
cat >>op_specs/unary/aten_relu.textproto <<'SPEC'
sample {
  name: "benchmark_extra"
  arg { name: "self" tensor { shape: [3, 5] } }
}
SPEC
step "one spec edited (op_specs/unary/aten_relu.textproto)" list
"${bazel_cmd[@]}" shutdown
