"""Action time by kind from a Bazel JSON trace profile (`--profile=FILE`).

Usage: analyze_profile.py PROFILE.json[.gz] CODEGEN_ACTIONS
       analyze_profile.py PROFILE.json[.gz] --sum=REGEX

Sums the durations of the profile's "action processing" events (each
action's wall time; with --jobs equal to the cores and the cores busy, the
sum approximates CPU time) by kind of action, and prints a Markdown table
with the count, total seconds and seconds per action, plus the seconds per
overload test target of generating, compiling, linking and running the
generated tests (targets under //op_specs whose name starts with the
namespace "aten_").

Bazel 4's default ("slim") profile merges short actions away (here, none
under about 85 ms is recorded), so the per-target cost uses each kind's
mean over the recorded actions times the number of actions the build
really has: CODEGEN_ACTIONS codegen actions (one per shrt_op_tests call in
codegen/op_test.bzl, a family: 28 for op_specs/; figures from before that
passed the number of spec files), one compile, link and run per overload
test target. Short actions being the ones left out, that overestimates
the generated tests' compiles (0.02 s each, almost none recorded). A
profile written with `--noslim_profile` records every action, and its
figures are exact.

The profile may be gzipped or plain JSON (Bazel writes PROFILE as named).

With --sum=REGEX it prints only "ACTIONS SECONDS": how many recorded
actions' progress messages match REGEX (e.g. '^Linking ') and their summed
seconds (tools/bench/link_ab.sh).
"""
import collections
import gzip
import json
import re
import sys

# (kind, pattern on the action's progress message); the first match wins.
_KINDS = [
    ("codegen (generated tests)", r"^Executing genrule //op_specs:"),
    ("compile (generated tests)", r"^Compiling op_specs/aten_\S+_test\.cc"),
    ("link (generated tests)", r"^Linking op_specs/aten_"),
    ("run (generated tests)", r"^Testing //op_specs:aten_"),
    ("run (other tests)", r"^Testing "),
    ("compile (libraries, tools, other tests)", r"^Compiling "),
    ("link (libraries, tools, other tests)", r"^Linking "),
    ("other (genrules, symlinks, protos, ...)", r""),
]
_PER_TARGET = ["codegen (generated tests)", "compile (generated tests)", "link (generated tests)",
               "run (generated tests)"]


def load_events(path):
    """The profile's trace events, from gzipped or plain JSON."""
    with open(path, "rb") as f:
        gzipped = f.read(2) == b"\x1f\x8b"
    with (gzip.open(path) if gzipped else open(path, "rb")) as f:
        return json.load(f)["traceEvents"]


def action_times(path):
    """(progress message, seconds) of every action event of the profile."""
    return [(e["name"], e["dur"] / 1e6) for e in load_events(path)
            if e.get("cat") == "action processing" and "dur" in e]


def main(path, codegen_actions):
    count, seconds = collections.Counter(), collections.Counter()
    targets = set()
    for name, dur in action_times(path):
        kind = next(k for k, p in _KINDS if re.search(p, name))
        count[kind] += 1
        seconds[kind] += dur
        m = re.match(r"^Testing (//op_specs:aten_\S+)", name)
        if m:
            targets.add(m.group(1))
    print("| action kind | actions | action time | per action |")
    print("|---|---|---|---|")
    for kind, _ in _KINDS:
        if count[kind]:
            print(f"| {kind} | {count[kind]} | {seconds[kind]:.0f} s | {seconds[kind] / count[kind]:.2f} s |")
    print(f"| all | {sum(count.values())} | {sum(seconds.values()):.0f} s | |")
    if targets:
        n = len(targets)
        actions = {"codegen (generated tests)": codegen_actions}
        total = 0
        parts = []
        for k in _PER_TARGET:
            mean = seconds[k] / count[k] if count[k] else 0
            t = mean * actions.get(k, n)
            total += t
            parts.append(f"{k.split()[0]} {t / n:.2f} s")
        print(f"\nper overload test target ({n}, {codegen_actions} codegen actions): {total / n:.2f} s "
              f"({', '.join(parts)}; mean of the recorded actions x actions built)")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    if sys.argv[2].startswith("--sum="):
        matched = [d for name, d in action_times(sys.argv[1]) if re.search(sys.argv[2][len("--sum="):], name)]
        print(len(matched), f"{sum(matched):.1f}")
    else:
        main(sys.argv[1], int(sys.argv[2]))
