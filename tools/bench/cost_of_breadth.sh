#!/bin/bash
# The cost of breadth (BENCHMARKS.md): for each git revision given, in order
# and back to back, a fresh clone with its own Bazel output base (so the
# first build is really cold) and:
#   specs       spec files and lines under op_specs/<family>/, overload test
#               targets (`bazel query tests(//op_specs:all)`);
#   cold        `bazel test //shrt/...`: wall time, tests executed, and from
#               its --profile the action time by kind (analyze_profile.py);
#   warm        the same again, nothing changed;
#   one rule    one rule removed from shrt/strategies/clamp.cc;
#   one spec    one sample added to op_specs/unary/aten_relu.textproto.
# Usage: tools/bench/cost_of_breadth.sh REV [REV ...] (e.g. 3caa879 HEAD)
source "$(dirname "$0")/revisions.sh"

measure() {  # measure REV
  local rev="$1"
  clone_revision "$rev"
  echo "## $rev ($(git rev-parse --short HEAD))"
  local files lines
  files=$(find op_specs -mindepth 2 -name '*.textproto' -not -path 'op_specs/recipes/*' | wc -l)
  lines=$(find op_specs -mindepth 2 -name '*.textproto' -not -path 'op_specs/recipes/*' -print0 | xargs -0 cat | wc -l)
  echo "specs: $files files, $lines lines; $("${bz[@]}" query 'tests(//op_specs:all)' 2>/dev/null | grep -c ':aten_') overload test targets"
  step() {  # step TITLE [PROFILE]
    local log="$work/step.log" start end
    start=$(date +%s.%N)
    "${bz[@]}" test //shrt/... --config=ci -k ${2:+--profile="$2"} >"$log" 2>&1 || true
    end=$(date +%s.%N)
    printf '%-28s %7.1f s wall; %s; %s\n' "$1" "$(echo "$end - $start" | bc)" \
      "$(grep -oE 'Executed [0-9]+ out of [0-9]+ tests' "$log" | tail -1)" \
      "$(grep -oE '[0-9]+ (tests? pass|fails? locally|fails? to build)' "$log" | paste -sd, -)"
  }
  step "cold" "$work/profile_$rev.json.gz"
  /usr/bin/python3 "$repo/tools/bench/analyze_profile.py" "$work/profile_$rev.json.gz" "$files"
  step "warm, nothing changed"
  # One rule less for aten::clamp (the code of either revision).
  sed -i -e 's/{"aten::clamp", IncreasingRules()}/{"aten::clamp", IncreasingFromBelowRules()}/' \
    -e 's/return PointwiseRules(args, {"P(max) -> P(max)", "P(min) -> P(min)"});/return PointwiseRules(args, {"P(min) -> P(min)"});/' \
    shrt/strategies/clamp.cc
  # (clamp's row reads its bounds since crossed bounds make it a constant:
  # take clamp_min's rule there)
  git diff --quiet && sed -i 's/{"aten::clamp_min", IncreasingRules()}/{"aten::clamp_min", IncreasingFromBelowRules()}/' \
    shrt/strategies/clamp.cc
  git diff --quiet && { echo "the clamp.cc edit did not apply"; exit 1; }
  step "one rule in clamp.cc"
  cat >>op_specs/unary/aten_relu.textproto <<'SPEC'
sample {
  name: "benchmark_extra"
  arg { name: "self" tensor { shape: [3, 5] } }
}
SPEC
  step "one sample in aten_relu spec"
  "${bz[@]}" shutdown >/dev/null 2>&1
  cd "$repo"
}

echo "machine: $(nproc) cores, $(date -u +%F)"
for rev in "$@"; do measure "$rev"; done
