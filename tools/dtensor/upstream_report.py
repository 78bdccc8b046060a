"""Writes one upstream-ready Markdown report per DTensor root cause (dtensor/reports/NAME.md).

Usage: upstream_report.py [--check] [NAME ...]
  (from the workspace root, or `bazel run //tools/dtensor:upstream_report`)

A root cause is named by its repro, dtensor/repros/NAME.py. Each fact has
one home, and the report only assembles them:
  - the title, the description and the DTensor source at fault: the repro's
    docstring (its first sentence is the title);
  - the repro and what it prints: the script itself, run here on the
    installed torch (its exit status is 1 while the bug exists);
  - the incorrect (overload, rule) pairs and their evidence, and the
    overloads the ShRT command that finds them validates:
    dtensor/known.textproto, grouped by overload;
  - the fix: dtensor/fixes/NAME.patch, its header and its diff, if there is
    one (tools/dtensor/verify_fixes.py verifies it).
The layout is templates/upstream_report.md.jinja2. With --check, writes
nothing and exits 1 if a committed report differs from what it would write.
Exits 2 on bad input (a NAME with no entry or repro, a repro without a
docstring).
"""
import argparse
import ast
import os
import re
import subprocess
import sys

import importlib.metadata

import jinja2
from google.protobuf import text_format

import known_pb2

_DIR = os.path.dirname(os.path.abspath(__file__))


class ReportError(Exception):
    """Bad input: one line naming the file."""


def _docstring_parts(repro_path):
    """(source, title, description) of a repro: its docstring's first
    sentence is the title, the docstring the description."""
    with open(repro_path) as f:
        source = f.read()
    doc = ast.get_docstring(ast.parse(source))
    if not doc:
        raise ReportError(f"{repro_path}: no docstring (the report's description)")
    first = doc.split("\n\n")[0].replace("DTensor bug:", "")
    title = " ".join(re.split(r"[.:;](?=\s)", first.strip(), maxsplit=1)[0].split())
    return source.rstrip("\n"), title, doc


def _rows(entries):
    by_op = {}
    for e in entries:
        by_op.setdefault(e.op, []).append(e)
    return [{"op": op, "rules": "; ".join(f"`{e.rule}`" for e in es), "evidence": es[0].evidence.replace("|", "\\|")}
            for op, es in sorted(by_op.items())]


def _patch_parts(patch_path):
    if not os.path.exists(patch_path):
        return None, None, None
    with open(patch_path) as f:
        text = f.read()
    start = text.find("\n--- ") + 1 if not text.startswith("--- ") else 0
    return text, text[:start].strip(), text[start:].rstrip("\n")


def render(name, entries, torch_version):
    """The report of one root cause, as Markdown text."""
    repro_path = f"dtensor/repros/{name}.py"
    patch_path = f"dtensor/fixes/{name}.patch"
    if not os.path.exists(repro_path):
        raise ReportError(f"{repro_path}: no such repro")
    source, title, description = _docstring_parts(repro_path)
    ops = sorted({e.op for e in entries})
    found_by = "bazel run //tools:shrt -- validate --dtensor --op=%s --world_size=4" % ",".join(ops)
    run = subprocess.run([sys.executable, repro_path], capture_output=True, text=True)
    patch_text, patch_header, patch_diff = _patch_parts(patch_path)
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(os.path.join(_DIR, "templates")),
                             keep_trailing_newline=True, undefined=jinja2.StrictUndefined)
    return env.get_template("upstream_report.md.jinja2").render(
        name=name, title=title, description=description, torch_version=torch_version,
        repro_path=repro_path, repro_source=source, repro_status=run.returncode,
        repro_output=run.stdout.rstrip("\n"), pair_count=len(entries), rows=_rows(entries),
        found_by=found_by, patch_path=patch_path if patch_text else None, patch_text=patch_text,
        patch_header=patch_header, patch_diff=patch_diff)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("names", nargs="*")
    args = parser.parse_args(argv)
    if "BUILD_WORKSPACE_DIRECTORY" in os.environ:
        os.chdir(os.environ["BUILD_WORKSPACE_DIRECTORY"])
    with open("dtensor/known.textproto") as f:
        known = text_format.Parse(f.read(), known_pb2.KnownFindings())
    by_cause = {}
    for e in known.finding:
        by_cause.setdefault(os.path.splitext(os.path.basename(e.repro))[0], []).append(e)
    names = args.names or sorted(by_cause)
    version = importlib.metadata.version("torch")
    stale = []
    try:
        for name in names:
            if name not in by_cause:
                raise ReportError(f"dtensor/known.textproto: no entry has the repro dtensor/repros/{name}.py")
            text = render(name, by_cause[name], version)
            path = f"dtensor/reports/{name}.md"
            old = open(path).read() if os.path.exists(path) else None
            if old != text:
                stale.append(path)
                if not args.check:
                    os.makedirs("dtensor/reports", exist_ok=True)
                    with open(path, "w") as f:
                        f.write(text)
    except ReportError as e:
        print(f"upstream_report: {e}", file=sys.stderr)
        return 2
    verb = "differ from what upstream_report.py writes" if args.check else "written"
    print(f"{len(names)} reports; {len(stale)} {verb}" + "".join(f"\n  {p}" for p in stale))
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
