#!/bin/bash
# Git revisions side by side as a new user meets them (BENCHMARKS.md
# "libtorch 2.13", "Issue 28"): for each revision given, in order and back
# to back on this machine, a fresh clone with its own Bazel output base (so
# every build is cold), and:
#   main job   README's first command, `tools/setup.sh && bazel run
#              //tools:shrt -- validate --all`, with --format=json added so
#              that the report can be counted: its wall time (setup, cold
#              build and validation at W = 4), the validation's own time
#              (the report's "seconds"), overloads, combination checks,
#              correct, incorrect and missing rules; and against the
#              previous revision's report, the verdict changes
#              (compare_verdicts.py);
#   mesh       `validate --all --mesh=2x2` on the same build: its time, its
#              ratio to the W = 4 validation's, the overloads whose
#              expansion was checked on a subset (sampled), and the verdict
#              changes against the previous revision's mesh report;
#   cold suite README's second command, `bazel test //shrt/...`, with an
#              output base of its own (cold, as in .ci/run): wall time,
#              tests, and from its --profile the action time by kind and per
#              overload test target (analyze_profile.py: compile, link, run);
#              from the generated tests' test.xml, their 1-D samples' and
#              mesh checks' seconds (gtest_split.py).
# Each revision's own tools/setup.sh installs what it builds against
# (Debian's libtorch-dev and python3-torch for 1.13, the pinned torch wheel
# for 2.13); the Debian packages a revision's setup added are removed after
# its measurement, so that the next revision (and the machine) see the
# packages as they were: a libc10.so left in /usr/lib would be found by
# CMake's find_package(Torch) beside the wheel's.
# Usage: tools/bench/fresh_clone_job.sh REV [REV ...] (e.g. 1b34cc9 HEAD)
#        SKIP_SUITE=1 ...: no cold suite; SKIP_MESH=1 ...: no mesh run.
source "$(dirname "$0")/revisions.sh"

measure() {  # measure REV
  local rev="$1"
  clone_revision "$rev"
  local start end code
  echo "## $rev ($(git rev-parse --short HEAD))"
  start=$(date +%s.%N)
  code=0
  { tools/setup.sh && "${bz[@]}" run //tools:shrt -- validate --all --format=json; } \
    >"$work/report.json" 2>"$work/main.log" || code=$?
  end=$(date +%s.%N)
  /usr/bin/python3 - "$work/report.json" "$(echo "$end - $start" | bc)" "$code" \
    "$(bazel-bin/tools/shrt --version)" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
n = lambda key: sum(len(op[key]) for op in r["ops"])
print(f"main job ({sys.argv[4].strip()}): exit {sys.argv[3]}, {float(sys.argv[2]):.1f} s wall "
      f"(validation {r['seconds']:.1f} s), {len(r['ops']):,} overloads, "
      f"{sum(op['combination_checks'] for op in r['ops']):,} combination checks, "
      f"{n('correct'):,} correct, {n('incorrect')} incorrect, {n('missing')} missing")
PY
  if [[ -n "${previous:-}" ]]; then
    echo "verdicts against $previous: $(/usr/bin/python3 "$repo/tools/bench/compare_verdicts.py" \
      "$work/report_$previous.json" "$work/report.json" | tail -1)"
  fi
  cp "$work/report.json" "$work/report_$rev.json"
  previous="$rev"
  if [[ -z "${SKIP_MESH:-}" ]]; then
    bazel-bin/tools/shrt validate --all --mesh=2x2 --format=json >"$work/mesh.json" 2>/dev/null ||
      [[ $? == 1 ]]
    /usr/bin/python3 - "$work/mesh.json" "$work/report.json" <<'PY'
import json, sys
m, w = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
sampled = [o["op"] for o in m["ops"] if any("the expansion has" in n for n in o["notes"] + o.get("sampled", []))]
incorrect = sum(len(o["incorrect"]) for o in m["ops"])
print(f"mesh 2x2: {m['seconds']:.1f} s ({m['seconds'] / w['seconds']:.2f}x the W = 4 validation), "
      f"{len(m['ops']):,} overloads, {incorrect} incorrect, {len(sampled)} sampled")
PY
    if [[ -n "${previous_mesh:-}" ]]; then
      echo "mesh verdicts against $previous_mesh: $(/usr/bin/python3 \
        "$repo/tools/bench/compare_verdicts.py" "$work/mesh_$previous_mesh.json" "$work/mesh.json" |
        tail -1)"
    fi
    cp "$work/mesh.json" "$work/mesh_$rev.json"
    previous_mesh="$rev"
  fi
  if [[ -z "${SKIP_SUITE:-}" ]]; then
    local log="$work/suite.log" files
    files=$(find op_specs -mindepth 2 -name '*.textproto' -not -path 'op_specs/recipes/*' | wc -l)
    # An output base of its own: cold, as in .ci/run, not sharing the
    # libraries the main job built.
    local suite_bz=(bazel --output_base="$work/ob_${rev}_suite")
    start=$(date +%s.%N)
    "${suite_bz[@]}" test //shrt/... --config=ci -k --profile="$work/profile_$rev.json.gz" >"$log" 2>&1 ||
      true
    end=$(date +%s.%N)
    "${suite_bz[@]}" shutdown >/dev/null 2>&1
    printf 'cold suite: %.1f s wall; %s; %s\n' "$(echo "$end - $start" | bc)" \
      "$(grep -oE 'Executed [0-9]+ out of [0-9]+ tests' "$log" | tail -1)" \
      "$(grep -oE '[0-9]+ (tests? pass|fails? locally|fails? to build)' "$log" | paste -sd, -)"
    /usr/bin/python3 "$repo/tools/bench/analyze_profile.py" "$work/profile_$rev.json.gz" "$files"
    /usr/bin/python3 "$repo/tools/bench/gtest_split.py" bazel-testlogs
  fi
  "${bz[@]}" shutdown >/dev/null 2>&1
  cd "$repo"
  local added
  added="$(comm -13 "$work/packages" <(installed_packages) | paste -sd' ')"
  if [[ -n "$added" ]]; then
    echo "(removing the packages $rev's setup added: $added)"
    # shellcheck disable=SC2086
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq $added >/dev/null
  fi
}

installed_packages() {
  dpkg-query -W -f='${Status} ${Package}\n' | awk '$3 == "installed" {print $4}' | sort
}
SUDO=""
if [[ "$(id -u)" != 0 ]]; then SUDO="sudo"; fi
installed_packages >"$work/packages"

echo "machine: $(nproc) cores, $(date -u +%F)"
for rev in "$@"; do measure "$rev"; done
