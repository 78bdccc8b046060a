"""The export that tools/bench/differential.py judges: the exact full inputs
and call arguments of an overload's expanded samples, as
//tools/bench:export_cases writes them (tools/bench/export_cases.cc:
manifest.json and tensors.bin), and the call of the overload on them.
"""

import json
import os

import torch


# ---------------------------------------------------------------------------
# The export (tools/bench/export_cases.cc).

DTYPES = {
    "float32": torch.float32, "float64": torch.float64, "float16": torch.float16,
    "bfloat16": torch.bfloat16, "int64": torch.int64, "int32": torch.int32,
    "int16": torch.int16, "int8": torch.int8, "uint8": torch.uint8, "bool": torch.bool,
    "complex64": torch.complex64, "complex128": torch.complex128,
}


def with_layout(t, layout):
    """ground_truth.cc / distribute.cc WithLayout."""
    if layout == "transposed":
        if t.dim() < 2:
            return t
        return t.transpose(-1, -2).contiguous().transpose(-1, -2)
    if layout == "strided":
        if t.dim() == 0:
            return t
        sizes = list(t.shape)
        sizes[-1] *= 2
        buf = torch.zeros(sizes, dtype=t.dtype)
        view = buf.narrow(-1, 0, sizes[-1])[..., ::2]
        view.copy_(t)
        return view
    return t


def load_tensor(blob, rec):
    dtype = DTYPES[rec["dtype"]]
    shape = rec["shape"]
    if rec["nbytes"] == 0:
        return torch.empty(shape, dtype=dtype)
    buf = bytearray(blob[rec["offset"]:rec["offset"] + rec["nbytes"]])
    return torch.frombuffer(buf, dtype=dtype).reshape(shape).clone()


class Export:
    def __init__(self, directory):
        with open(os.path.join(directory, "manifest.json")) as f:
            self.m = json.load(f)
        with open(os.path.join(directory, "tensors.bin"), "rb") as f:
            self.blob = f.read()
        m = self.m
        self.op = m["op"]
        packet = getattr(getattr(torch.ops, m["namespace"]), m["name"])
        self.fn = getattr(packet, m["overload"])
        self.mutates = m["mutates"]
        self.aliases = m["output_aliases"]
        self.local_shape_arg = m["local_shape_arg"]
        self.tolerance = m["tolerance"]
        self.is_variant = m["is_variant"]

    def full_inputs(self, sample, case):
        return [with_layout(load_tensor(self.blob, rec), inp["layout"])
                for rec, inp in zip(case["tensors"], sample["inputs"])]


def _arg_value(a, tensors):
    if "input" in a:
        return tensors[a["input"]]
    if "inputs" in a:
        return [tensors[i] for i in a["inputs"]]
    if "out" in a:
        return torch.empty(0, dtype=DTYPES[a["out"]])
    if "none" in a:
        return None
    if "float" in a:
        return float(a["float"])
    for key in ("int", "bool", "int_list", "str"):
        if key in a:
            return a[key]
    if "dtype" in a:
        return DTYPES[a["dtype"]]
    if "layout" in a:
        return torch.strided
    if "device" in a:
        return torch.device("cpu")
    if "memory_format" in a:
        return getattr(torch, a["memory_format"])
    raise ValueError("unknown argument %r" % (a,))


def flatten(v):
    if isinstance(v, torch.Tensor):
        return [v]
    if isinstance(v, (tuple, list)):
        out = []
        for e in v:
            out.extend(flatten(e))
        return out
    raise TypeError("the overload returned a %s; only tensor returns are checked" % type(v))


def call(ex, sample, tensors, local_shape=None, out_dtype=None):
    """The overload on `tensors` (one per input), outputs flattened.
    `out_dtype` maps out= dtypes (for the float64 reference call)."""
    pos, kw = [], {}
    for idx, a in enumerate(sample["args"]):
        v = _arg_value(a, tensors)
        if idx == ex.local_shape_arg and local_shape is not None:
            v = list(local_shape)
        if out_dtype is not None and "out" in a:
            v = torch.empty(0, dtype=out_dtype(DTYPES[a["out"]]))
        if a["kwarg_only"]:
            kw[a["name"]] = v
        else:
            pos.append(v)
    return flatten(ex.fn(*pos, **kw))
