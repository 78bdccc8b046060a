"""PyTorch's own strategy validator, run as its command line runs it, with
each op's time, combinations and verdicts written as JSON.

PyTorch's validator is torch.distributed.tensor._ops.strategy_validation
(torch 2.13): `python -m torch.distributed.tensor._ops.strategy_validation
--op NAME --device cpu --world-size W` takes OpInfo samples, shards them
evenly, and compares DTensor's rules with its own ground truth. Its command
line prints text only, so this program calls the same function the command
line calls (compare_operator) after the same set-up the command line does
before it (its `if __name__ == "__main__":` block: OpInfo's sizes L, M, S,
XS set to 24, 12, 4, 2 so that shards are even, a "fake" process group of W
ranks), times each op around that call, and writes what the text would say
as one JSON object per op.

Usage: pytorch_validator.py W DTYPE OPINFO_NAME... > OUT.jsonl

Each line: {"opinfo": "mm", "overload": "aten::mm" (the aten overload the
validator maps the OpInfo to, _discover_aten_op; null when it finds none),
"overloads": every overload it validated (its true_positives_by_op keys and
those of its discrepancies: e.g. OpInfo "sum" runs aten::sum and
aten::sum.dim_IntList),
"world_size": W, "seconds": wall time of compare_operator, "combinations":
its total_combinations, "samples": samples validated, "correct": DTensor
rules it found valid (its true_positives, summed over samples),
"incorrect" / "missing": distinct {"overload", "rule", "sample"} (its false
positives / false negatives; rule text "S(0), R -> S(0)" as ShRT writes
it; the first sample's input shapes and non-tensor arguments), "skipped": {reason: samples}, "error": the exception text or null}.
Requires the `expecttest` module (torch.testing._internal imports it;
tools/requirements.txt).
"""
import json
import re
import sys
import time

import torch
import torch.distributed as dist
import torch.testing._internal.common_methods_invocations as common_ops
from torch.distributed.tensor._ops import strategy_validation as sv
from torch.testing._internal.opinfo import core as opinfo_core

_DTYPES = {"float32": torch.float32, "float64": torch.float64}


def overload_name(op):
    """ShRT's name of an aten OpOverload: aten.mm.default -> "aten::mm",
    aten.add.Tensor -> "aten::add.Tensor"."""
    if op is None:
        return None
    ns, name, overload = str(op).split(".")
    return "%s::%s" % (ns, name) + ("" if overload == "default" else "." + overload)


def _op_from_key(key):
    """true_positives_by_op's key ("aten.min.dim") as a name overload_name
    takes."""
    return key if key.count(".") == 2 else key + ".default"


_MASK = re.compile(r"MaskP\((\w+), torch\.Size\(\[([0-9, ]*)\]\), (\d+)\)")


def placement_text(text):
    """A placement as the validator prints it (str(placement)), as ShRT
    writes it: "S(0)", "R", "P(sum)" and "_NormP(2)" are the same;
    _MaskPartial's "MaskP(sum, torch.Size([12, 4]), 0)" is
    "_MaskP(sum, 12)" (shrt/vocab/placement.h: the size of offset_shape's
    offset_dim)."""
    m = _MASK.fullmatch(text)
    if not m:
        return text
    shape = [int(x) for x in m.group(2).split(",") if x.strip()]
    return "_MaskP(%s, %d)" % (m.group(1), shape[int(m.group(3))])


def rules(discrepancies):
    """The distinct (overload, rule text) pairs of validator Discrepancies,
    each with the first sample it was found on (input shapes and non-tensor
    arguments, as the validator records them)."""
    out = {}
    for d in discrepancies:
        key = (overload_name(d.aten_op),
               "%s -> %s" % (", ".join(placement_text(p) for p in d.input_placements),
                             ", ".join(placement_text(p) for p in d.output_placements)))
        out.setdefault(key, "shapes %s, args %s, kwargs %s" % (
            [list(s) for s in d.input_shapes], list(d.scalar_args), dict(d.scalar_kwargs)))
    return [{"overload": o, "rule": r, "sample": out[(o, r)]}
            for o, r in sorted(out, key=str)]


def run(name, world_size, dtype):
    """One op through compare_operator, as the command line runs it."""
    entry = {"opinfo": name, "overload": None, "overloads": [], "world_size": world_size,
             "seconds": 0.0,
             "combinations": 0, "samples": 0, "correct": 0, "incorrect": [], "missing": [],
             "skipped": {}, "error": None}
    try:
        entry["overload"] = overload_name(
            sv._discover_aten_op(sv.get_opinfo_by_name(name), "cpu", dtype))
        start = time.monotonic()
        stats = sv.compare_operator(name, "cpu", dtype, world_size)
        entry["seconds"] = time.monotonic() - start
    except Exception as e:  # the validator's own failure, reported per op
        entry["error"] = "%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")
        return entry
    entry.update(combinations=stats.total_combinations, samples=stats.total_samples,
                 correct=stats.true_positives, incorrect=rules(stats.false_positives),
                 missing=rules(stats.false_negatives), skipped=dict(stats.skip_reasons))
    seen = {overload_name(_op_from_key(k)) for k in stats.true_positives_by_op}
    seen |= {d["overload"] for d in entry["incorrect"] + entry["missing"]}
    if stats.total_combinations:
        seen.add(entry["overload"])  # ran, whatever it found
    entry["overloads"] = sorted(o for o in seen if o)
    if stats.no_dtensor_support:
        entry["error"] = "no DTensor support"
    return entry


def main(argv):
    if len(argv) < 4 or argv[2] not in _DTYPES:
        sys.stderr.write(__doc__)
        return 2
    world_size, dtype = int(argv[1]), _DTYPES[argv[2]]
    # strategy_validation's __main__ block, before it parses arguments.
    for module in (opinfo_core, common_ops):
        module.L, module.M, module.S, module.XS = 24, 12, 4, 2
    dist.init_process_group("fake", rank=0, world_size=world_size)
    try:
        for name in argv[3:]:
            print(json.dumps(run(name, world_size, dtype)), flush=True)
    finally:
        dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
