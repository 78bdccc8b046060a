"""Verifies DTensor fixes: each patch in dtensor/fixes/ fixes its root cause and breaks no rule.

Usage (from the workspace root, or as `bazel run //tools/dtensor:verify_fixes --`):
  verify_fixes.py [--shrt=SHRT] [--known=dtensor/known.textproto]
      [--fixes=dtensor/fixes] [--repros=dtensor/repros]
      [--world_sizes=2,3,4] [--meshes=2x2] [NAME ...]

A root cause of dtensor/known.textproto is named by its repro
(`dtensor/repros/NAME.py`); its fix is `dtensor/fixes/NAME.patch`, a unified
diff against the installed torch's own files. For each fix (all, or the
NAMEs given), on a copy of the installed torch with the patch applied
(torch_overlay.py, reached through PYTHONPATH):
  1. the repro exits 0 (it exits 1 while the bug exists, as it does on the
     installed torch);
  2. `shrt validate --dtensor` on the root cause's overloads, at each world
     size and mesh, judges none of the root cause's known (overload, rule)
     pairs incorrect;
  3. every rule the same run on the installed torch judges correct is still
     judged correct: the fix loses no rule DTensor gets right;
  4. no rule the installed torch's run leaves missing or unjudged becomes
     incorrect.
A rule both runs judge incorrect belongs to another root cause of the same
overloads, and is not this fix's to solve. Prints one line per layout and
fix; exits 1 if any fix fails, 2 on bad input (a fix whose NAME no entry of
known.textproto has as its repro).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

from google.protobuf import text_format

import known_pb2
import torch_overlay


def _run_validate(shrt, ops, layout, env):
    """`shrt validate --dtensor` of `ops` on one layout: {op: {rule: verdict}}, or raises."""
    cmd = [shrt, "validate", "--dtensor", "--op=" + ",".join(ops), layout, "--format=json", "--quiet"]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(cmd)} exited {done.returncode}: {done.stderr.strip()}")
    report = json.loads(done.stdout)
    verdicts = {}
    for op in report["ops"]:
        rules = verdicts.setdefault(op["op"], {})
        for verdict in ("correct", "incorrect", "missing", "unverified"):
            for entry in op[verdict]:
                rules[entry if isinstance(entry, str) else entry["rule"]] = verdict
    return verdicts


def _verify(name, entries, args, stock_env):
    """The failures of one fix (list of lines); prints the checks as it goes."""
    failures = []
    patch = os.path.join(args.fixes, name + ".patch")
    repro = os.path.join(args.repros, name + ".py")
    with tempfile.TemporaryDirectory(prefix="shrt_fix_") as root:
        try:
            torch_overlay.make([patch], root)
        except torch_overlay.OverlayError as e:
            return [str(e)]
        env = dict(stock_env, PYTHONPATH=root + os.pathsep + stock_env.get("PYTHONPATH", ""))
        done = subprocess.run([sys.executable, repro], capture_output=True, text=True, env=env)
        print(f"  {name}: repro on the patched torch exits {done.returncode}")
        if done.returncode != 0:
            last = (done.stdout + done.stderr).strip().splitlines()[-1:] or [""]
            failures.append(f"{repro} exits {done.returncode} with the patch (0 when fixed): {last[0]}")
        ops = sorted({e.op for e in entries})
        known = {(e.op, e.rule) for e in entries}
        layouts = [f"--world_size={w}" for w in args.world_sizes.split(",") if w]
        layouts += [f"--mesh={m}" for m in args.meshes.split(",") if m]
        for layout in layouts:
            stock = _run_validate(args.shrt, ops, layout, stock_env)
            fixed = _run_validate(args.shrt, ops, layout, env)
            still = sorted(f"{op}: {rule}" for op, rules in fixed.items() for rule, v in rules.items()
                           if v == "incorrect" and (op, rule) in known)
            lost = sorted(f"{op}: {rule} ({v})" for op, rules in fixed.items() for rule, v in rules.items()
                          if stock.get(op, {}).get(rule) == "correct" and v != "correct")
            lost += sorted(f"{op}: {rule} (no longer judged)" for op, rules in stock.items()
                           for rule, v in rules.items() if v == "correct" and rule not in fixed.get(op, {}))
            newly = sorted(f"{op}: {rule}" for op, rules in fixed.items() for rule, v in rules.items()
                           if v == "incorrect" and stock.get(op, {}).get(rule) not in ("incorrect", "correct"))
            gone = sum(1 for op, rules in stock.items() for rule, v in rules.items()
                       if v == "incorrect" and fixed.get(op, {}).get(rule) != "incorrect")
            print(f"  {name} {layout}: {gone} incorrect rules no longer incorrect, {len(still)} of the "
                  f"root cause's still incorrect, {len(lost)} correct rules lost, {len(newly)} newly incorrect")
            failures += [f"{layout}: still incorrect: {s}" for s in still]
            failures += [f"{layout}: correct rule lost: {s}" for s in lost]
            failures += [f"{layout}: newly incorrect: {s}" for s in newly]
    return failures


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shrt", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "shrt"),
                        help="the shrt binary (default: //tools:shrt beside this script in the runfiles)")
    parser.add_argument("--known", default="dtensor/known.textproto")
    parser.add_argument("--fixes", default="dtensor/fixes")
    parser.add_argument("--repros", default="dtensor/repros")
    parser.add_argument("--world_sizes", default="2,3,4")
    parser.add_argument("--meshes", default="2x2")
    parser.add_argument("names", nargs="*")
    args = parser.parse_args(argv)
    args.shrt = os.path.abspath(args.shrt)
    if "BUILD_WORKSPACE_DIRECTORY" in os.environ:
        os.chdir(os.environ["BUILD_WORKSPACE_DIRECTORY"])
    with open(args.known) as f:
        known = text_format.Parse(f.read(), known_pb2.KnownFindings())
    by_cause = {}
    for entry in known.finding:
        by_cause.setdefault(os.path.splitext(os.path.basename(entry.repro))[0], []).append(entry)
    names = args.names or sorted(os.path.splitext(p)[0] for p in os.listdir(args.fixes) if p.endswith(".patch"))
    for name in names:
        if name not in by_cause:
            print(f"verify_fixes: {args.fixes}/{name}.patch: no entry of {args.known} has the repro "
                  f"{args.repros}/{name}.py", file=sys.stderr)
            return 2
    stock_env = dict(os.environ)
    if os.path.isdir(args.shrt + ".runfiles"):
        # shrt beside its own runfiles finds them from its path; the runfiles
        # variables Bazel's launcher set for this script would point it at
        # ours instead.
        for name in ("RUNFILES_DIR", "RUNFILES_MANIFEST_FILE", "JAVA_RUNFILES"):
            stock_env.pop(name, None)
    failed = []
    for name in names:
        failures = _verify(name, by_cause[name], args, stock_env)
        for line in failures:
            print(f"FAIL {name}: {line}")
        print(f"{name}: {'FAILED' if failures else 'verified'}")
        if failures:
            failed.append(name)
    unfixed = sorted(set(by_cause) - set(names))
    print(f"{len(names) - len(failed)} of {len(names)} fixes verified"
          + (f"; root causes without a fix: {', '.join(unfixed)}" if unfixed and not args.names else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
