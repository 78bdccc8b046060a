"""Every missing rule is explained in its spec (issue: a missing rule is
either claimed or justified). Runs `shrt validate --all` at W = 3 and 4 and
requires, for each rule reported missing, a comment line in the overload's
spec that names exactly that rule (`# missing S(0) -> S(0): <reason>`), no
incorrect rule and no strategy error.

Usage (Bazel passes the arguments): missing_explained_test.py SHRT
"""
import glob
import json
import os
import re
import subprocess
import sys

from naming import target_name

# `# missing <rule>: <reason>`; rule texts hold no colon.
EXPLAINED = re.compile(r"^\s*#\s*missing\s+([^:]+?)\s*:\s*\S")


def explained_rules(path):
    """The rules a spec's comments explain as missing, as exact rule texts."""
    with open(path) as f:
        return {m.group(1) for m in map(EXPLAINED.match, f) if m}


def main(shrt):
    specs = {os.path.basename(p)[: -len(".textproto")]: p for p in glob.glob("op_specs/*/*.textproto")
             if "/recipes/" not in p}
    failures = []
    for w in (3, 4):
        out = subprocess.run([shrt, "validate", "--all", "--format=json", f"--world_size={w}", "--jobs=2"],
                             capture_output=True, text=True)
        if out.returncode not in (0, 1):
            sys.exit(f"shrt validate --world_size={w} exited {out.returncode}: {out.stderr}")
        for op in json.loads(out.stdout)["ops"]:
            if op["error"]:
                failures.append(f"W={w} {op['op']}: {op['error']}")
            for bad in op["incorrect"]:
                failures.append(f"W={w} {op['op']}: incorrect '{bad['rule']}': {bad['evidence']}")
            path = specs.get(target_name(op["op"]))
            if path is None:
                failures.append(f"{op['op']}: no spec file named {target_name(op['op'])}.textproto")
                continue
            explained = explained_rules(path)
            for rule in op["missing"]:  # always rule texts (shrt/report.proto)
                if rule not in explained:
                    failures.append(f"W={w} {op['op']}: missing rule '{rule}' is not explained in {path} "
                                    f"(add '# missing {rule}: <reason>' or claim it)")
    for f in failures:
        print("FAIL:", f)
    print(f"{len(failures)} problems")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
