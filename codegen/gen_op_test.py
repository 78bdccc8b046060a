"""Generates the GoogleTest source of one overload's test from its spec.

Usage: gen_op_test.py --spec=SPEC --recipes RECIPE... --xfails=XFAILS --cli=LABEL --out=OUT.cc

The source embeds the spec, the recipes it uses and the overload's xfail
entries, so a test re-runs only when one of those changes. Errors name the
spec file (and line, for syntax errors) and exit with status 1.
"""

import argparse
import pathlib
import sys

import jinja2
from google.protobuf import text_format

import recipe_pb2
import spec_pb2
import xfail_pb2
from naming import target_name

_TEMPLATE_DIR = pathlib.Path(__file__).resolve().parent / "templates"
_DELIMITER = "shrt_embed"
_DEFAULT_RECIPE = "default"


class SpecError(Exception):
    """A problem with an input file; the message names the file."""


def parse(path, message):
    text = pathlib.Path(path).read_text()
    try:
        text_format.Parse(text, message)
    except text_format.ParseError as e:
        raise SpecError(f"{path}:{e}") from e
    if f"){_DELIMITER}\"" in text:
        raise SpecError(f"{path}: contains ){_DELIMITER}\", which cannot be embedded")
    return text


def recipes_used(spec):
    names = {spec.recipe or _DEFAULT_RECIPE}
    for sample in spec.sample:
        for arg in sample.arg:
            for t in [arg.tensor] if arg.HasField("tensor") else list(arg.tensors.tensor):
                if t.recipe:
                    names.add(t.recipe)
    return sorted(names)


def generate(spec_path, recipe_paths, xfails_path, cli="//tools:shrt"):
    spec = spec_pb2.OpSpec()
    spec_text = parse(spec_path, spec)
    target = target_name(spec.op)
    if pathlib.Path(spec_path).name != f"{target}.textproto":
        raise SpecError(f"{spec_path}: field 'op': a spec of {spec.op} must be named "
                        f"{target}.textproto (codegen/naming.py)")
    by_name = {pathlib.Path(p).stem: p for p in recipe_paths}
    recipes = []
    for name in recipes_used(spec):
        if name not in by_name:
            raise SpecError(f"{spec_path}: unknown recipe '{name}' (known: {', '.join(sorted(by_name))})")
        recipes.append({"path": by_name[name], "text": parse(by_name[name], recipe_pb2.Recipe())})
    xfails = xfail_pb2.XfailList()
    parse(xfails_path, xfails)
    mine = xfail_pb2.XfailList(
        xfail=[x for x in xfails.xfail if target_name(x.op) == target])
    template = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(_TEMPLATE_DIR)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    ).get_template("op_test.cc.jinja2")
    return template.render(
        spec_path=spec_path,
        op=spec.op,
        target=target,
        spec_text=spec_text,
        recipes=recipes,
        xfails_path=xfails_path,
        xfails_text=text_format.MessageToString(mine),
        samples=[s.name for s in spec.sample],
        cli=cli,
    )


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", required=True)
    parser.add_argument("--recipes", nargs="*", default=[])
    parser.add_argument("--xfails", required=True)
    parser.add_argument("--cli", default="//tools:shrt")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    try:
        source = generate(args.spec, args.recipes, args.xfails, args.cli)
    except SpecError as e:
        print(f"gen_op_test: {e}", file=sys.stderr)
        return 1
    pathlib.Path(args.out).write_text(source)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
