"""Generates the test sources of op groups' overloads from their specs.

Usage: gen_op_test.py --recipes RECIPE... --xfails=XFAILS --cli=LABEL
           --groups=JSON

JSON is a list of the groups to generate, one object per spec:
  {"spec": SPEC, "samples_from": [SPEC, ...], "overloads": [OP, ...],
   "outs": [OUT.cc, ...]}
with "samples_from" the specs it takes samples from, directly or through
others, in dependency order (each after those it takes samples from; empty
without samples_from), and one out per overload (the spec's own op, and one
out, when "overloads" is empty). One run serves every spec of a shrt_op_tests call
(codegen/op_test.bzl), so Python, protobuf and Jinja2 start once per family
rather than once per spec.

Writes one data-only C++ source per overload (shrt/op_test/op_test_data.h): it
embeds the spec, the specs its samples come from, the recipes they use and
that overload's xfail entries, so a test re-runs only when one of those
changes (a source written again with the same bytes changes nothing
downstream). Which overloads form the group comes from the dispatcher
(op_specs/groups.bzl, written by `shrt groups`); the test itself checks that
its overload belongs to the group. Errors name the spec file (and line, for
syntax errors); every group's error is printed, nothing is written, and the
exit status is 1.
"""

import argparse
import functools
import json
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


@functools.lru_cache(maxsize=None)
def _parsed(path, message_class):
    """parse() of a file many groups share (recipes, xfails), read once per run."""
    message = message_class()
    return parse(path, message), message


@functools.lru_cache(maxsize=None)
def _template():
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(_TEMPLATE_DIR)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    ).get_template("op_test.cc.jinja2")


def recipes_used(*specs):
    """Sorted names of the recipes `specs` (OpSpec) use: each spec's recipe
    ("default" when empty) and arg_recipe entries, those of its samples_from
    entries, and every input's own."""
    names = set()
    for spec in specs:
        names.add(spec.recipe or _DEFAULT_RECIPE)
        names.update(entry.recipe for entry in spec.arg_recipe)
        for source in spec.samples_from:
            if source.recipe:
                names.add(source.recipe)
            names.update(entry.recipe for entry in source.arg_recipe)
        for sample in spec.sample:
            for arg in sample.arg:
                for t in [arg.tensor] if arg.HasField("tensor") else list(arg.tensors.tensor):
                    if t.recipe:
                        names.add(t.recipe)
    return sorted(names)


def _names(spec):
    """The names a samples_from entry may give `spec` (OpSpec) by: its op
    and its aliases (spec.proto OpSpec.alias)."""
    return [spec.op, *spec.alias]


def samples_from_specs(spec_path, spec, paths):
    """[(path, text, OpSpec)] of `paths`, the specs the spec at `spec_path`
    takes samples from, directly or through others, in dependency order:
    checked that each names only specs before it, and that together they
    are the specs its entries reach, each once."""
    given = []
    for source_path in paths:
        source = spec_pb2.OpSpec()
        text = parse(source_path, source)
        if source.op in (s.op for _, _, s in given):
            raise SpecError(f"{spec_path}: field 'samples_from': {source.op}'s spec is given twice")
        given.append((source_path, text, source))
    for k, (path, _, current) in enumerate(given + [(spec_path, None, spec)]):
        before = {name: source_path for source_path, _, source in given[:k] for name in _names(source)}
        for entry in current.samples_from:
            if entry.op not in before:
                raise SpecError(f"{path}: field 'samples_from': no spec of {entry.op} given "
                                "before it")
    reached, todo = set(), [entry.op for entry in spec.samples_from]
    by_op = {name: source for _, _, source in given for name in _names(source)}
    while todo:
        source = by_op.get(todo.pop())
        if source is None or source.op in reached:
            continue
        reached.add(source.op)
        todo.extend(entry.op for entry in source.samples_from)
    for source_path, _, source in given:
        if source.op not in reached:
            raise SpecError(f"{spec_path}: field 'samples_from': {source_path} was given although "
                            "it takes no samples from it")
    return given


def generate(spec_path, recipe_paths, xfails_path, overloads=None, cli="//tools:shrt",
             samples_from_paths=()):
    """Returns {overload: source} for the given overloads of the spec's group
    (the spec's own op when None); `samples_from_paths` are the specs it
    takes samples from, directly or through others, in dependency order."""
    spec = spec_pb2.OpSpec()
    spec_text = parse(spec_path, spec)
    overloads = overloads or [spec.op]
    group_target = target_name(spec.op)
    if pathlib.Path(spec_path).name != f"{group_target}.textproto":
        raise SpecError(f"{spec_path}: field 'op': a spec of {spec.op} must be named "
                        f"{group_target}.textproto (codegen/naming.py)")
    if target_name(spec.op) not in {target_name(o) for o in overloads}:
        raise SpecError(f"{spec_path}: field 'op': {spec.op} is not among the group's overloads "
                        f"{', '.join(overloads)} (op_specs/groups.bzl is stale: run "
                        "`bazel run //tools:shrt -- groups --write`)")
    taken = samples_from_specs(spec_path, spec, samples_from_paths)
    by_name = {pathlib.Path(p).stem: p for p in recipe_paths}
    recipes = []
    for name in recipes_used(spec, *(source for _, _, source in taken)):
        if name not in by_name:
            raise SpecError(f"{spec_path}: unknown recipe '{name}' (known: {', '.join(sorted(by_name))})")
        recipes.append({"path": by_name[name], "text": _parsed(by_name[name], recipe_pb2.Recipe)[0]})
    xfails = _parsed(xfails_path, xfail_pb2.XfailList)[1]
    template = _template()
    sources = {}
    for op in overloads:
        target = target_name(op)
        mine = xfail_pb2.XfailList(xfail=[x for x in xfails.xfail if target_name(x.op) == target])
        sources[op] = template.render(
            spec_path=spec_path,
            op=op,
            target=target,
            spec_text=spec_text,
            samples_from=[{"path": p, "text": text} for p, text, _ in taken],
            num_samples_from=len(taken),
            recipes=recipes,
            num_recipes=len(recipes),
            xfails_path=xfails_path,
            xfails_text=text_format.MessageToString(mine),
            cli=cli,
        )
    return sources


def _check_groups(groups):
    """Raises SpecError unless `groups` is the list --groups documents."""
    keys = {"spec", "samples_from", "overloads", "outs"}
    if not isinstance(groups, list):
        raise SpecError("--groups: not a JSON list")
    for k, group in enumerate(groups):
        if not isinstance(group, dict) or set(group) != keys:
            raise SpecError(f"--groups: group {k}: want exactly the keys {', '.join(sorted(keys))}")
        if not isinstance(group["samples_from"], list):
            raise SpecError(f"{group['spec']}: --groups: samples_from is not a list")
        if len(group["overloads"] or [None]) != len(group["outs"]):
            raise SpecError(f"{group['spec']}: --groups: overloads and outs differ in length")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--recipes", nargs="*", default=[])
    parser.add_argument("--xfails", required=True)
    parser.add_argument("--cli", default="//tools:shrt")
    parser.add_argument("--groups", required=True, help="JSON list of groups (see the module doc)")
    args = parser.parse_args(argv)
    try:
        groups = json.loads(args.groups)
        _check_groups(groups)
    except (json.JSONDecodeError, SpecError) as e:
        print(f"gen_op_test: {e}", file=sys.stderr)
        return 1
    writes, errors = [], []
    for group in groups:
        try:
            sources = generate(group["spec"], args.recipes, args.xfails, group["overloads"],
                               args.cli, group["samples_from"])
        except SpecError as e:
            errors.append(f"gen_op_test: {e}")
            continue
        writes += zip(group["outs"], sources.values())
    if errors:
        print("\n".join(errors), file=sys.stderr)
        return 1
    for out, source in writes:
        pathlib.Path(out).write_text(source)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
