"""Writes DTensor's claims for ShRT's samples: the Python side of
`shrt validate --dtensor` (DESIGN.md §11). It only asks DTensor; the C++ side
judges. The boundary is a file, never an embedded interpreter.

Usage: export_claims.py REQUEST.json CLAIMS.json

REQUEST.json (written by the C++ side, one overload's samples or many;
claims.proto ClaimsRequest is its schema):
  {"world_size": 4, "mesh": [2, 2] (optional: an N-D mesh of world_size ranks),
   "max_tuples": 20000, "max_decomposition_tuples": 300 (optional),
   "jobs": 2 (optional: processes asking at once, forked from this one),
   "libraries": ["/abs/libops.so"],
   "rule_modules": ["/abs/my_rules.py"], "list_registered": true (optional),
   "samples": [{"op": "aten::add.Tensor", "name": "broadcast_row",
                "args": {"self": {"tensor": {"shape": [7, 5], "stride": [5, 1],
                                             "dtype": "float32"}},
                         "other": {"tensor": {...}},
                         "alpha": 2}}]}
  args: by schema argument name; a tensor as {"tensor": meta}, a tensor
  list as {"tensors": [meta or null, ...]}, a dtype as {"dtype": name},
  an inf or nan float as {"float": "inf" | "-inf" | "nan"}, anything else
  as its JSON value (numbers, bools, strings, int lists, null); arguments
  left out take their defaults. meta: shape and stride in elements, dtype
  a torch dtype name (torch.float32 -> "float32").

CLAIMS.json:
  {"strategy_source": "DTensor, torch 2.13.0", "torch_version": "2.13.0+cpu",
   "torch_library": "/.../torch/lib/libtorch_cpu.so", "world_size": 4, "mesh": [],
   "samples": [{"op": ..., "name": ..., "registration": "single_dim" |
                "op_strategy" | "decomposition" | null,
                "composite_implicit": true (only for a decomposition whose
                overload is CompositeImplicitAutograd: DTensor sees it in
                inference mode only),
                "rules": ["S(0), R -> S(0)", ...] (N-D rules on a mesh),
                "not_judged": {"<input placements>": "<reason>"},
                "rejected": {"<DTensor's error>": <input tuples>},
                "tuples": <input tuples asked>, "unmatched": <input tuples
                DTensor cannot claim, not asked>, "seconds": <time asking>,
                "unasked": "<why not asked>" (only when not asked)}],
   "registered": [{"op": "aten::add.Tensor", "kind": "single_dim"}, ...]
                (with list_registered: every overload DTensor has a rule for)}
  (claims.proto Claims; runtime_claims.py defines each field). An overload
  DTensor has no strategy for has registration null and no rules; one it
  shards through its decomposition (no registered rule) is asked as at run
  time, its rules being those the decomposition path derives; a sample with
  more input tuples than max_tuples (0: no limit), or for such an overload
  than max_decomposition_tuples, is not asked about; for a single-dim
  registration whose rules prune the tuples it cannot claim, the limit
  counts those it could, the ones asked (_Ask).

Exit status: 0 when written; 2 for a bad request, with a message naming the
file and the field (e.g. "req.json: samples[3].args.self.tensor.dtype:
unknown dtype 'flaot32'").
"""
import gc
import importlib.util
import json
import logging
import math
import os
import pickle
import signal
import sys
import tempfile
import time
import traceback

import torch

import dtensor_private as dt
import runtime_claims


class BadRequest(ValueError):
    """A request field that cannot be read; str() names it."""


def overload(name, where):
    """The OpOverload of "ns::op.overload" ("aten::mm" is aten.mm.default)."""
    ns, sep, rest = name.partition("::")
    op_name, _, overload_name = rest.partition(".")
    try:
        if not sep:
            raise AttributeError(name)
        return getattr(getattr(getattr(torch.ops, ns), op_name), overload_name or "default")
    except (AttributeError, RuntimeError) as e:
        raise BadRequest("%s: no such overload %r (%s)" % (where, name, e)) from e


def overload_name(op):
    """ "ns::op.overload" of an OpOverload ("aten::mm" for aten.mm.default)."""
    schema = op._schema
    return schema.name + ("." + schema.overload_name if schema.overload_name else "")


def tensor_meta(value, where):
    """dt.TensorMeta of a {"shape", "stride", "dtype"} object."""
    if not isinstance(value, dict) or set(value) != {"shape", "stride", "dtype"}:
        raise BadRequest("%s: expected {\"shape\", \"stride\", \"dtype\"}, got %r" % (where, value))
    dtype = getattr(torch, str(value["dtype"]), None)
    if not isinstance(dtype, torch.dtype):
        raise BadRequest("%s.dtype: unknown dtype %r" % (where, value["dtype"]))
    for field in ("shape", "stride"):
        v = value[field]
        if not isinstance(v, list) or not all(isinstance(x, int) and x >= 0 for x in v):
            raise BadRequest("%s.%s: expected a list of non-negative ints, got %r" % (where, field, v))
    if len(value["shape"]) != len(value["stride"]):
        raise BadRequest("%s: shape %r and stride %r differ in rank"
                         % (where, value["shape"], value["stride"]))
    return dt.TensorMeta(torch.Size(value["shape"]), tuple(value["stride"]), dtype)


def argument(value, where):
    """An argument's value for runtime_claims.sample_claims."""
    if isinstance(value, dict):
        if set(value) == {"tensor"}:
            return tensor_meta(value["tensor"], where + ".tensor")
        if set(value) == {"tensors"} and isinstance(value["tensors"], list):
            return [None if m is None else tensor_meta(m, "%s.tensors[%d]" % (where, i))
                    for i, m in enumerate(value["tensors"])]
        if set(value) == {"float"}:
            if value["float"] not in ("inf", "-inf", "nan"):
                raise BadRequest("%s.float: expected \"inf\", \"-inf\" or \"nan\", got %r"
                                 % (where, value["float"]))
            return float(value["float"])
        if set(value) == {"dtype"}:
            dtype = getattr(torch, str(value["dtype"]), None)
            if not isinstance(dtype, torch.dtype):
                raise BadRequest("%s.dtype: unknown dtype %r" % (where, value["dtype"]))
            return dtype
        raise BadRequest("%s: expected {\"tensor\"}, {\"tensors\"}, {\"dtype\"} or "
                         "{\"float\"}, got keys %s"
                         % (where, sorted(value)))
    if isinstance(value, list):  # a Scalar[] may hold tagged floats
        return [argument(v, "%s[%d]" % (where, i)) for i, v in enumerate(value)]
    return value


def run_rule_module(path):
    """Runs the Python file `path` (a module registering DTensor
    strategies, e.g. for custom ops; `--dtensor_rules`); BadRequest
    "<path>:<line>: <error type>: <message>" when it cannot be read or
    raises, the line being the deepest of the module's own that the error
    passed through (the request file is ShRT's, not the user's, so it is
    not named)."""
    spec = importlib.util.spec_from_file_location(
        "shrt_dtensor_rules_%d" % len(sys.modules), path)
    if spec is None:
        raise BadRequest("%s: not a Python file" % path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as e:  # the user's module: any error is theirs
        line = getattr(e, "lineno", None) if isinstance(e, SyntaxError) else None
        for frame in traceback.extract_tb(e.__traceback__):
            if frame.filename == path:
                line = frame.lineno
        where = path if line is None else "%s:%d" % (path, line)
        raise BadRequest("%s: %s: %s" % (where, type(e).__name__, e)) from e


def export(request, path="request"):
    """The CLAIMS object (module docstring) for a parsed REQUEST object.
    Raises BadRequest naming `path` and the field."""
    world_size = request.get("world_size") if isinstance(request, dict) else None
    if not isinstance(world_size, int) or world_size < 2:
        raise BadRequest("%s: world_size: expected an int >= 2, got %r" % (path, world_size))
    mesh = request.get("mesh", [])  # proto3 JSON leaves out an empty list
    if not isinstance(mesh, list) or not all(isinstance(m, int) and m >= 2 for m in mesh) \
            or (mesh and math.prod(mesh) != world_size):
        raise BadRequest("%s: mesh: expected sizes >= 2 whose product is world_size %d, got %r"
                         % (path, world_size, mesh))
    shape = tuple(mesh) if mesh else world_size
    max_tuples = request.get("max_tuples", 0)
    if not isinstance(max_tuples, int) or max_tuples < 0:
        raise BadRequest("%s: max_tuples: expected an int >= 0, got %r" % (path, max_tuples))
    max_decomposition_tuples = request.get("max_decomposition_tuples", 0)
    if not isinstance(max_decomposition_tuples, int) or max_decomposition_tuples < 0:
        raise BadRequest("%s: max_decomposition_tuples: expected an int >= 0, got %r"
                         % (path, max_decomposition_tuples))
    samples = request.get("samples", [])  # proto3 JSON leaves out an empty list
    if not isinstance(samples, list):
        raise BadRequest("%s: samples: expected a list" % path)
    for i, library in enumerate(request.get("libraries", [])):
        try:
            torch.ops.load_library(library)
        except (OSError, RuntimeError) as e:
            raise BadRequest("%s: cannot load: %s" % (library, e)) from e
    jobs = request.get("jobs", 0)
    if not isinstance(jobs, int) or jobs < 0:
        raise BadRequest("%s: jobs: expected an int >= 0, got %r" % (path, jobs))
    source = "DTensor, torch %s" % torch.__version__.split("+")[0]
    if dt.dtensor_source_dir():
        source += " from %s" % dt.dtensor_source_dir()
    for module in request.get("rule_modules", []):
        before = dt.effective_registrations()
        run_rule_module(module)
        after = dt.effective_registrations()
        replaced = sorted(overload_name(op) for op, r in after.items() if op in before and before[op] is not r)
        if replaced:
            source += ", overridden by %s for %s" % (os.path.basename(module), ", ".join(replaced))
    asks = []
    for s, sample in enumerate(samples):
        where = "%s: samples[%d]" % (path, s)
        if not isinstance(sample, dict) or not isinstance(sample.get("args"), dict):
            raise BadRequest("%s: expected {\"op\", \"name\", \"args\": {...}}" % where)
        op = overload(str(sample.get("op")), where + ".op")
        args = {k: argument(v, "%s.args.%s" % (where, k)) for k, v in sample["args"].items()}
        asks.append(_Ask(s, where, op, sample, args, shape, max_tuples, max_decomposition_tuples))
    out = [None] * len(asks)
    for s, entry in _answers(asks, jobs):
        out[s] = entry
    claims = {"strategy_source": source, "torch_version": torch.__version__,
              "torch_library": dt.torch_library(), "world_size": world_size, "mesh": mesh,
              "samples": out}
    if request.get("list_registered"):
        claims["registered"] = sorted(
            ({"op": overload_name(op), "kind": kind} for op, kind in dt.registered_overloads()),
            key=lambda r: r["op"])
    return claims


# The most input tuples enumerated to find the ones a single-dim
# registration could claim (each a rule-table lookup, a few microseconds):
# past it, max_tuples bounds all the tuples, as for other registrations.
_MAX_ENUMERATED = 1 << 18


class _Ask:
    """One request sample, parsed: `answer()` is its CLAIMS entry."""

    def __init__(self, index, where, op, sample, args, shape, max_tuples,
                 max_decomposition_tuples):
        self.index, self.where, self.op, self.args, self.shape = index, where, op, args, shape
        self.entry = {"op": sample.get("op"), "name": sample.get("name", ""),
                      "registration": dt.registration_kind(op)}
        self.tuples = runtime_claims.tuple_count(op, args, shape)
        self.limit = max_tuples
        if self.entry["registration"] == "decomposition":
            self.entry["composite_implicit"] = dt.composite_implicit(op)
            if max_decomposition_tuples and (not max_tuples or max_decomposition_tuples < max_tuples):
                self.limit = max_decomposition_tuples
        self.decomposition_limit = self.limit != max_tuples
        # Where DTensor's single-dim rules leave out the tuples it cannot
        # claim, at the cost of a table lookup, the limit bounds the tuples
        # asked. Otherwise every tuple is asked (op_strategy, a foreach op
        # with a shared tensor) or traced (decomposition): it bounds them all.
        self.asked_limit = (self.entry["registration"] == "single_dim"
                            and runtime_claims.enumerated_count(op, args, shape) <= _MAX_ENUMERATED
                            and runtime_claims.prunes_by_rules(op, args))
        self.over_limit = (not self.asked_limit and bool(self.limit)
                           and self.tuples > self.limit)

    def cost(self):
        """About the asking's cost: the input tuples asked (before pruning)."""
        if self.entry["registration"] is None or self.over_limit:
            return 0
        return min(self.tuples, self.limit) if self.asked_limit and self.limit else self.tuples

    def answer(self):
        entry = dict(self.entry)
        if entry["registration"] is None:
            entry.update(rules=[], not_judged={}, rejected={}, tuples=0)
        elif self.over_limit:
            entry.update(rules=[], not_judged={}, rejected={}, tuples=0,
                         unasked="%d input tuples, more than the %d asked per sample%s"
                         % (self.tuples, self.limit,
                            " of an overload sharded through its decomposition"
                            if self.decomposition_limit else ""))
        else:
            start = time.monotonic()
            try:
                claims = runtime_claims.sample_claims(
                    self.op, self.args, self.shape,
                    max_asked=self.limit if self.asked_limit else 0)
            except KeyError as e:
                raise BadRequest("%s.args: %s" % (self.where, e.args[0])) from e
            except runtime_claims.TooManyAsked as e:
                entry.update(rules=[], not_judged={}, rejected={}, tuples=0,
                             unasked="more than %d of its %d input tuples DTensor could "
                             "claim, the most asked per sample" % (e.args[0], self.tuples))
                return entry
            entry.update(rules=claims.rules, not_judged=claims.not_judged,
                         rejected=claims.rejected, tuples=claims.tuples,
                         unmatched=claims.unmatched,
                         seconds=round(time.monotonic() - start, 3))
        return entry


def _answers(asks, jobs):
    """(index, CLAIMS entry) for every _Ask, asked by max(jobs, 1) processes
    forked from this one after torch and DTensor are imported (once per
    run). The overloads, each with its samples in order, are dealt out in
    turn from the costliest (_Ask.cost), so each process's share is fixed by
    the request: DTensor's answers can depend on what its process asked
    before, in ways dtensor_private.settle does not all undo (sum.out asked
    after sum.dim_IntList claims P(sum) -> P(sum) at W = 2, asked first it
    does not), so a share fixed in advance keeps a run reproducible. Raises
    an asking's BadRequest; a process that dies is a RuntimeError naming
    its first overload."""
    by_op = {}
    for a in asks:
        by_op.setdefault(str(a.op), []).append(a)
    groups = sorted(by_op.values(), key=lambda g: -sum(a.cost() for a in g))
    if not groups:
        return
    runtime_claims.prepare(groups[0][0].shape)  # the state every fork starts from
    gc.freeze()  # the parent's objects stay out of the children's collections
    n = max(jobs, 1)
    running = {}  # pid -> (its share of the groups, result file)
    with tempfile.TemporaryDirectory(prefix="export_claims_") as tmp:
        try:
            for k in range(min(n, len(groups))):
                share = [a for g in groups[k::n] for a in g]
                path = os.path.join(tmp, "%d.pickle" % k)
                sys.stdout.flush()
                sys.stderr.flush()
                pid = os.fork()
                if pid == 0:
                    _answer_in_child(share, path)
                running[pid] = (share, path)
            while running:
                pid, status = os.wait()
                if pid not in running:
                    continue
                share, path = running.pop(pid)
                if status != 0:
                    raise RuntimeError("the process asking about %s and %d more samples %s" % (
                        share[0].op, len(share) - 1, "was killed by signal %d" % os.WTERMSIG(status)
                        if os.WIFSIGNALED(status) else
                        "exited with status %d" % os.WEXITSTATUS(status)))
                with open(path, "rb") as f:
                    ok, value = pickle.load(f)
                if not ok:
                    raise value
                yield from value
        finally:
            for pid in running:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)


def _answer_in_child(share, path):
    """In a forked process: writes (True, [(index, entry)]) for `share` (a
    list of _Asks), or (False, its BadRequest), to `path`, and exits (0; 1
    on any other error, whose traceback goes to stderr)."""
    code = 0
    try:
        try:
            result = (True, [(a.index, a.answer()) for a in share])
        except BadRequest as e:
            result = (False, BadRequest(str(e)))
        with open(path, "wb") as f:
            pickle.dump(result, f)
    except BaseException:  # noqa: B036 (the child must exit, whatever happened)
        traceback.print_exc()
        code = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def main(argv):
    # Fake tensors log a traceback each time a meta kernel raises, which
    # DTensor's call then raises in turn (counted in "rejected"): this
    # program's stderr is for its own message, not thousands of those.
    logging.getLogger("torch._subclasses.fake_tensor").setLevel(logging.CRITICAL)
    if len(argv) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    request_path, claims_path = argv
    try:
        with open(request_path) as f:
            request = json.load(f)
        claims = export(request, request_path)
    except (OSError, json.JSONDecodeError) as e:
        print("export_claims: %s: %s" % (request_path, e), file=sys.stderr)
        return 2
    except BadRequest as e:
        print("export_claims: %s" % e, file=sys.stderr)
        return 2
    with open(claims_path, "w") as f:
        json.dump(claims, f, indent=1, sort_keys=True)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
