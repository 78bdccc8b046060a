"""A DTensor single-dim strategy, in Python, from the rules `shrt discover` finds valid.

Usage: python_strategy.py < DISCOVERY.json > fix.py
  (`shrt discover --op=OVERLOAD --format=python` runs it on its JSON report)

Reads a discovery report (shrt/report/report.proto DiscoveryReport, as JSON)
and writes a Python module that registers, with DTensor's own
`register_single_dim_strategy` (torch/distributed/tensor/_ops/
single_dim_strategy.py), exactly the symbolic rules ShRT discovered: one
entry per rule in a table (the rule's placements as ShRT writes them, a
function building DTensor's placements, a function saying when it holds),
in DTensor's order (outputs, then inputs), shards as `_ShardingPlaceholder`
as DTensor's own single-dim strategies write them. Conditions and dim
expressions are translated from the table language (shrt/strategies/
table.proto) to Python on the arguments' metadata: dim arguments
normalized against the first tensor input's rank, int lists of dims as
sets of normalized dims, tensors as their TensorMeta (ndim, size), a free
dim variable `d` ranging over the dims at which every input it shards
has one. A rule whose condition reads the world size (`ws`) cannot be a
single-dim rule, which DTensor expands to any mesh: it is left out, with
a comment. Pass the module to `shrt validate --dtensor --dtensor_rules=`
to judge it; it replaces DTensor's registration of the overload.
Exits 2 with one line on bad input (not a discovery report, a rule that
does not parse).
"""
import json
import re
import sys

_TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_]\w*)|(&&|\|\||!=|==|<=|>=|[-+*()<>!,]))")
_FUNCTIONS = {"ndim": "_ndim", "size": "_size", "count_lt": "_count_lt"}
_PARTIALS = {"sum", "avg", "max", "min", "product"}


class BadReport(Exception):
    """Bad input: one line."""


def _tokens(text):
    pos, out = 0, []
    while pos < len(text.rstrip()):
        m = _TOKEN.match(text, pos)
        if not m:
            raise BadReport("cannot read %r at %r" % (text, text[pos:]))
        out.append(m.group(1) or m.group(2) or m.group(3))
        pos = m.end()
    return out


def _python(expr, free):
    """The table-language expression `expr` in Python; raises BadReport, or
    ValueError for a world-size condition (no single-dim rule can read it)."""
    out = []
    tokens = _tokens(expr)
    for i, t in enumerate(tokens):
        if t == "&&":
            out.append(" and ")
        elif t == "||":
            out.append(" or ")
        elif t == "!":
            out.append("not ")
        elif t in ("==", "!=", "<", "<=", ">", ">=", "+", "-", "*"):
            out.append(" %s " % t)
        elif t == "in":
            out.append(" in ")
        elif t == "ws":
            raise ValueError("reads the world size")
        elif t in _FUNCTIONS:
            out.append(_FUNCTIONS[t])
        elif t in free or t[0].isdigit() or t in "(),":
            out.append(t + (" " if t == "," else ""))
        else:
            out.append("a(%r)" % t)
    return "".join(out)


def _placements(side):
    return [p.strip() for p in re.split(r",(?![^()]*\))", side) if p.strip()]


def _placement(text, free):
    """(DTensor placement in Python, the shard dim expression or None)."""
    if text == "R":
        return "Replicate()", None
    m = re.fullmatch(r"P\((\w+)\)", text)
    if m and m.group(1) in _PARTIALS:
        return "Partial(%r)" % m.group(1), None
    m = re.fullmatch(r"S\((.*)\)", text)
    if m:
        dim = _python(m.group(1), free)
        return "_ShardingPlaceholder(%s)" % dim, dim
    raise BadReport("placement %r has no single-dim DTensor equivalent" % text)


def _rule(entry, arguments):
    """(placements text, condition text, arity, free variables, placements
    code, (input, shard dim code) pairs, condition code) of one discovered
    rule; `arguments` are the op's argument names (not free variables)."""
    text, condition = entry["placements"], entry.get("condition", "")
    inputs, _, outputs = text.partition("->")
    ins, outs = _placements(inputs), _placements(outputs)
    free = sorted({t for p in ins + outs if p.startswith("S(") for t in _tokens(p[2:-1])
                   if re.fullmatch(r"[a-z]\w*", t) and t not in arguments and t not in _FUNCTIONS})
    built = [_placement(p, free) for p in outs + ins]
    shard_dims = [(i, dim) for i, (_, dim) in enumerate(built[len(outs):]) if dim is not None]
    return (text, condition, len(ins), free, [code for code, _ in built], shard_dims,
            _python(condition, free) if condition else "True")


_HEADER = '''"""DTensor single-dim strategy for {op}: the rules ShRT finds valid.

Written by `shrt discover --op={op} --world_size={world_size} --format=python`
on {spec}. Judge it with
  shrt validate --dtensor --dtensor_rules=THIS_FILE --op={op}
"""
import torch
from torch.distributed.tensor._dtensor_spec import TensorMeta
from torch.distributed.tensor._op_schema import RuntimeSchemaInfo
from torch.distributed.tensor._ops.single_dim_strategy import (
    _ShardingPlaceholder,
    register_single_dim_strategy,
)
from torch.distributed.tensor._ops.utils import normalize_dim
from torch.distributed.tensor.placement_types import Partial, Replicate


class _Absent(Exception):
    """A condition read an argument that is None: the rule does not apply."""


def _arguments(op, args_schema, kwargs_schema):
    """(argument by schema name, tensor inputs in order): dim arguments
    (names containing "dim") normalized against the first tensor input's
    rank, an int list of dims as the set of its normalized dims."""
    values, tensors = {{}}, []
    for i, arg in enumerate(op._schema.arguments):
        if arg.kwarg_only and arg.name in kwargs_schema:
            value = kwargs_schema[arg.name]
        elif i < len(args_schema):
            value = args_schema[i]
        elif arg.name in kwargs_schema:
            value = kwargs_schema[arg.name]
        else:
            value = arg.default_value if arg.has_default_value() else None
        if isinstance(value, TensorMeta) and not arg.is_out:
            tensors.append(value)
        values[arg.name] = value
    ndim = len(tensors[0].shape) if tensors else 0
    for name, value in values.items():
        if "dim" in name and isinstance(value, int) and not isinstance(value, bool):
            values[name] = normalize_dim(value, ndim) if ndim else value
        elif "dim" in name and isinstance(value, (list, tuple)):
            values[name] = {{normalize_dim(v, ndim) if ndim else v for v in value}}
    return values, tensors


def _ndim(t):
    return len(t.shape)


def _size(t, k):
    return t.shape[k] if 0 <= k < len(t.shape) else None


def _count_lt(dims, d):
    return sum(1 for v in dims if v < d)


def _holds(condition):
    try:
        return bool(condition())
    except _Absent:
        return False


# Each rule: (placements as ShRT writes them, inputs, free dims,
# DTensor's placements [outputs..., inputs...], the inputs' shard dims, when it holds).
_RULES = [
'''

_BODY = '''
]


# Every argument after the first can change the rules: all key DTensor's cache.
_OVERLOAD = {overload}
_SCHEMA_INFO = RuntimeSchemaInfo(
    1, static_kwargkey=[a.name for a in _OVERLOAD._schema.arguments if a.kwarg_only and not a.is_out])


@register_single_dim_strategy(_OVERLOAD, schema_info=_SCHEMA_INFO)
def shrt_discovered_strategy(op, args_schema, kwargs_schema):
    values, tensors = _arguments(op, args_schema, kwargs_schema)

    def a(name):
        if values.get(name) is None:
            raise _Absent(name)
        return values[name]

    rules = []
    rank = max((len(t.shape) for t in tensors), default=0)
    for _, arity, free, placements, shard_dims, holds in _RULES:
        if arity != len(tensors):
            continue
        for d in range(rank) if free else [None]:
            try:
                dims = shard_dims(a, d)
            except _Absent:
                continue
            if any(dim is None or not 0 <= dim < len(tensors[i].shape) for i, dim in dims):
                continue
            if _holds(lambda: holds(a, d)):
                rules.append(placements(a, d))
    return rules
'''


def render(report):
    """The Python module for a parsed discovery report (a dict)."""
    try:
        op, rules = report["op"], report.get("rules", [])
    except (KeyError, TypeError) as e:
        raise BadReport("not a discovery report: %s" % e) from e
    name, _, overload = op.partition("::")[2].partition(".")
    target = "torch.ops.%s.%s.%s" % (op.partition("::")[0], name, overload or "default")
    # The argument names, from the samples' descriptions ("self=Float[7, 5], dim=0").
    arguments = {m for s in report.get("samples", []) for m in re.findall(r"(\w+)=", s.get("description", ""))}
    lines = []
    for entry in rules:
        try:
            text, condition, arity, free, placements, shard_dims, holds = _rule(entry, arguments)
        except ValueError as e:
            lines.append("    # left out: %r if %r %s, which a single-dim rule cannot\n"
                         % (entry["placements"], entry.get("condition", ""), e))
            continue
        if len(free) > 1:
            lines.append("    # left out: %r has %d free dims; a single-dim rule here takes one\n"
                         % (entry["placements"], len(free)))
            continue
        var = free[0] if free else "d"
        lines.append(
            "    (%r, %d, %r,\n     lambda a, %s: [%s],\n     lambda a, %s: [%s],\n     lambda a, %s: %s),%s\n"
            % (text, arity, bool(free), var, ", ".join(placements), var,
               ", ".join("(%d, %s)" % (i, dim) for i, dim in shard_dims), var, holds,
               "  # if %s" % condition if condition else ""))
    return (_HEADER.format(op=op, world_size=report.get("world_size", 4), spec=report.get("spec", "?"))
            + "".join(lines) + _BODY.format(overload=target))


def main():
    try:
        report = json.load(sys.stdin)
        sys.stdout.write(render(report))
    except (BadReport, json.JSONDecodeError) as e:
        print("python_strategy: %s" % e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
