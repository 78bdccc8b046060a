#!/usr/bin/python3
"""Differential check of ShRT's ground truth against an independent eager
PyTorch implementation (DESIGN.md sections 2-4).

For each overload and world size W, both sides must find the same set of
valid rules on every expanded sample:

- the C++ side is `shrt discover --op=X --world_size=W --format=json` (each
  sample's `valid` list);
- the Python side re-implements DESIGN.md section 3 here, on the exact full
  input tensors and call arguments the C++ engine generates (exported by
  //tools/bench:export_cases), with the placements, candidate placements,
  per-rank locals, reductions and tolerances of tools/bench/reference.py,
  and its own Partial draws (torch.Generator, seeded differently from the
  C++'s SplitMix64): different draws, same semantics.

The Python judgement (DESIGN.md section 3, with its three refinements):
- a case is (sample, generator g, input placements); every input tuple runs
  once per rank, plus 3 redraws of the parts when an input is Partial and one
  variant with the P(max)/P(min) inputs negated; an exception on any rank
  refutes the tuple for every output placement;
- R: every local equals the full output; S(d): rank r's local equals chunk
  r (torch.chunk layout, empty chunks included); P(op): every local has the
  full shape and the reduction over ranks equals the full output;
- (a) the tolerance is torch.testing's default for the least precise
  floating dtype among the call's inputs and outputs (exact for integer and
  bool outputs; a spec's `tolerance` overrides it);
- (b) elements whose full output is non-finite carry no evidence for or
  against a Partial output; R and S outputs must match them position by
  position (NaN where NaN, infinities exactly);
- (c) when a floating output of a low-precision computation (least precise
  floating dtype not float64) fails the plain check, it is re-judged against
  a float64 reference call (floating inputs cast to float64) with the
  allowance atol + rtol*|ref| + slack (shrt/output_check.h,
  CheckAgainstReference), where own = max |full - ref| (the unsharded
  call's own rounding), m = max |ref|, growth = max(1, W * largest |part| /
  largest |full input| of the Partial inputs) (1 without Partial inputs, W
  when the full inputs are all zero), and
      base  = F * max(own, eps * m) * growth
      R, S:  slack = min(F * eps * m + base, MAX_RELATIVE_ROUNDING * m)
      P(op): slack[i] = min(F * eps * s[i] + base,
                            MAX_RELATIVE_ROUNDING * (|ref[i]| + s[i]))
             with s[i] = sum_r |local_r[i]| + W * largest |part| for sum
             (the sum divided by W, plus W * largest |part|, for avg),
             W * |ref[i]| for product, 0 for max and min (exact);
             a non-finite s[i] counts as 0
  with F = ROUNDING_FACTOR (8) and eps the unit roundoff of that dtype. The
  plain check of a P(sum)/P(avg)/P(product) output keeps reference.py's
  rounding slack of the reduction over ranks (4 * eps * (sum_r |local_r| +
  W * largest |part|), 4 * W * eps * |reduced|), eps of the computation's
  dtype.
- complex tensors (complex64, complex128) are judged through their real
  views (torch.view_as_real: a trailing dim of 2, real and imaginary parts;
  shrt/compare.h RealView): only P(sum) and P(avg) are candidates, their
  parts are drawn on the real view (complex parts), the reduction over
  ranks runs in complex128, comparisons compare the real views (an
  element's slack allowed for both parts; the sum of |parts| of the plain
  check takes each part's modulus, the re-judgement works on the real
  views element by element), the tolerance and eps of complex64 are
  float32's and of complex128 float64's, the float64 reference call widens
  complex64 to complex128, and largest |part| / |full input| are over the
  real views;
- a rule is valid when it holds in every case of the sample, at least one
  of them is informative (full output neither all-zero nor all-NaN), it is
  neither all-Replicate nor degenerate (all-R inputs, R/P(avg|max|min)
  outputs), and in-place outputs keep their input's placement.

Usage (from the workspace root, binaries built with
`bazel build --config=ci //tools/bench:export_cases //tools:shrt`):

    /usr/bin/python3 tools/bench/differential.py --ops=tools/bench/differential_ops.txt \\
        [--world_sizes=2,3,4] [--op=aten::mm ...] [--jobs=2]

Prints one line per (overload, W): agree, or disagree with the symmetric
difference per sample; then
`differential: N overloads x K world sizes, A agreements, D disagreements`.
Exit status 1 on a disagreement that tools/bench/differential_explained.txt
does not explain, or on a stale explanation; 2 on a usage error.
"""

import argparse
import concurrent.futures
import itertools
import json
import math
import os
import subprocess
import sys
import tempfile
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference as ref  # noqa: E402  (ground-truth pieces)

MIN_PARTIAL_DRAWS = 12  # shrt/cases.h kMinPartialDraws
ROUNDING_FACTOR = 8.0
# F * rel never exceeds this: operators whose float32 and float64 results
# differ by more than rounding (floor near an integer, a comparison near a
# boundary) must not buy a large slack, and a Partial part off by one part
# in 10^3 or a shard one row off still fails in float32.
MAX_RELATIVE_ROUNDING = 1e-4
REDRAWS = 3
# DESIGN.md section 3's refinements, all on; --without=a,b,c turns some off
# to find which one a disagreement comes from (diagnosis only).
REFINEMENTS = {"a": True, "b": True, "c": True}
# Salt of the Python side's Partial draws: independent of the C++'s seeds.
DRAW_SALT = 0x5EED_D1FF

DTYPES = {
    "float32": torch.float32, "float64": torch.float64, "float16": torch.float16,
    "bfloat16": torch.bfloat16, "int64": torch.int64, "int32": torch.int32,
    "int16": torch.int16, "int8": torch.int8, "uint8": torch.uint8, "bool": torch.bool,
    "complex64": torch.complex64, "complex128": torch.complex128,
}


# ---------------------------------------------------------------------------
# The export (tools/bench/export_cases.cc).

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


# ---------------------------------------------------------------------------
# Tolerances and the output check, with DESIGN.md section 3's refinements.

def least_precise(dtypes):
    """The floating or complex dtype with the largest epsilon among `dtypes`,
    or None (complex64 has float32's epsilon, complex128 float64's)."""
    fl = [d for d in dtypes if ref.is_inexact(d)]
    if not fl:
        return None
    return max(fl, key=lambda d: ref.EPS[d])


def _finite_max_abs(t):
    """max |x| over the finite elements (0 if none); a complex tensor's over
    its real view (shrt/compare.cc FiniteMaxAbs)."""
    if t.numel() == 0:
        return 0.0
    a = ref.real_view(t).abs()
    a = a[torch.isfinite(a)]
    return float(a.max()) if a.numel() else 0.0


def match_exact_or_close(actual, expected, tol):
    """R/S comparison: exact for integers/bool, else |a-e| <= atol + rtol|e|
    with NaN equal to NaN and infinities exact (position by position)."""
    return ref.values_match(actual, expected, tol)


def match_rs_ref(actual, want, ref64, tol, slack):
    """The re-judgement of an R/S local against the float64 reference: where
    the full output is non-finite the local must equal it exactly; elsewhere
    |a - ref| <= atol + rtol|ref| + slack (or, where the reference itself is
    non-finite, the plain check against the full output). Complex locals
    and outputs as their real views; `ref64` is one already."""
    a = ref.as_float64(actual)
    w = ref.as_float64(want)
    r = ref.as_float64(ref64)
    rtol, atol = tol
    fin_w = torch.isfinite(w)
    same = (a == w) | (torch.isnan(a) & torch.isnan(w))
    use_ref = fin_w & torch.isfinite(r)
    d_ref = (a - r).abs()
    d_plain = (a - w).abs()
    ok_ref = (d_ref <= (atol + rtol * r.abs() + slack)) & torch.isfinite(d_ref)
    ok_plain = (d_plain <= (atol + rtol * w.abs())) & torch.isfinite(d_plain)
    ok = torch.where(use_ref, ok_ref, torch.where(fin_w, ok_plain | same, same))
    return bool(ok.all())


def match_partial(reduced, expected, tol, slack, finite_mask):
    """P(op): over the elements where the full output is finite,
    |reduced - e| <= atol + rtol|e| + slack; other elements are no evidence.
    Complex tensors compare their real views (in complex128), an element's
    slack and finiteness applying to both its parts."""
    if reduced.dtype.is_complex or expected.dtype.is_complex:
        r = ref.real_view(reduced.to(torch.complex128))
        e = ref.real_view(expected.to(torch.complex128))
        if slack is not None:
            slack = slack.to(torch.float64).unsqueeze(-1).expand(e.shape)
        if finite_mask is not None:
            finite_mask = finite_mask.unsqueeze(-1).expand(e.shape)
        return match_partial(r, e, tol, slack, finite_mask)
    if not reduced.dtype.is_floating_point and not expected.dtype.is_floating_point:
        return torch.equal(reduced.to(torch.int64), expected.to(torch.int64))
    r = reduced.to(torch.float64)
    e = expected.to(torch.float64)
    rtol, atol = tol
    allowed = e.abs() * rtol + atol
    if slack is not None:
        allowed = allowed + slack
    diff = (r - e).abs()
    # A non-finite reduction matches only the same value (an infinite slack,
    # from an infinite local, allows nothing).
    ok = (diff <= allowed) & torch.isfinite(diff)
    ok |= (r == e)
    if finite_mask is not None and REFINEMENTS["b"]:
        ok |= ~finite_mask
    elif finite_mask is not None:
        ok |= torch.isnan(r) & torch.isnan(e)
    return bool(ok.all())


def _wide(d):
    """The float64 reference's dtype for d: float64 for floating, complex128
    for complex, d itself otherwise."""
    if d.is_complex:
        return torch.complex128
    return torch.float64 if d.is_floating_point else d


class Variant:
    """One variant of one case: its (possibly negated) full inputs and
    outputs, and the float64 reference call made on demand (complex inputs
    widened to complex128)."""

    def __init__(self, ex, sample, inputs, outputs, ref_fn=None):
        self.ex, self.sample, self.inputs, self.outputs = ex, sample, inputs, outputs
        # The float64 reference call on float64 inputs (default: the overload).
        self.ref_fn = ref_fn or (lambda ins: call(ex, sample, ins, out_dtype=_wide))
        self._ref = False  # not computed yet
        self.refs = None
        self.own = None
        self.max_ref = None

    def ref64(self):
        """[(ref, own, max|ref|)] per output, or None if the call fails; ref
        in float64, a complex one as its real view (shape + [2])."""
        if self._ref is False:
            self._ref = None
            try:
                ins = [x.to(_wide(x.dtype)) if _wide(x.dtype) != x.dtype else x.clone()
                       for x in self.inputs]
                outs = self.ref_fn(ins)
                if len(outs) == len(self.outputs) and all(
                        o.shape == w.shape for o, w in zip(outs, self.outputs)):
                    res = []
                    for o, w in zip(outs, self.outputs):
                        if o.dtype.is_complex:
                            o64 = ref.as_float64(o.to(torch.complex128))
                            w64 = ref.as_float64(w.to(torch.complex128))
                        else:
                            o64 = o.to(torch.float64)
                            w64 = w.to(torch.float64)
                        both = torch.isfinite(o64) & torch.isfinite(w64)
                        own = float((o64 - w64).abs()[both].max()) if bool(both.any()) else 0.0
                        res.append((o64, own, _finite_max_abs(o64)))
                    self._ref = res
            except Exception:  # noqa: BLE001  (no reference: no re-judgement)
                self._ref = None
        return self._ref


class OutputJudge:
    """Checks W locals of output k against the full output for one variant."""

    def __init__(self, k, want, locals_, variant, tol, comp, input_scale, full_input_scale):
        self.k, self.want, self.locals, self.variant = k, want, locals_, variant
        self.tol, self.comp, self.input_scale = tol, comp, input_scale
        self.full_input_scale = full_input_scale
        self.w = len(locals_)
        self.bad_dtype = any(t.dtype != want.dtype for t in locals_)
        self.bad_shape = any(t.shape != want.shape for t in locals_)
        self._stacked = None
        # Floating or complex (complex: judged through real views).
        self.floating = ref.is_inexact(want.dtype)
        prec = comp if REFINEMENTS["a"] else (want.dtype if self.floating else None)
        self.eps = ref.EPS[prec] if prec is not None else 0.0
        # (c) applies to floating outputs of a low-precision computation
        # (complex128 is as precise as float64).
        self.rejudge = (REFINEMENTS["c"] and self.floating and comp is not None
                        and ref.EPS[comp] > ref.EPS[torch.float64])

    def stacked(self):
        if self._stacked is None:
            self._stacked = torch.stack(self.locals)
        return self._stacked

    def _base(self):
        """(float64 reference, base allowance, max|ref|), or None."""
        r = self.variant.ref64()
        if r is None:
            return None
        o64, own, m = r[self.k]
        growth = 1.0
        if self.input_scale > 0:
            growth = (max(1.0, self.w * self.input_scale / self.full_input_scale)
                      if self.full_input_scale > 0 else float(self.w))
        return o64, ROUNDING_FACTOR * max(own, self.eps * m) * growth, m

    def check(self, p):
        """None if the locals form the full output under p, else a reason."""
        if self.bad_dtype:
            return "dtype"
        want, tol = self.want, self.tol
        kind = p[0]
        if kind in ("R", "S"):
            if kind == "R":
                if self.bad_shape:
                    return "shape"
                pairs = [(t, None) for t in self.locals]
            else:
                d = p[1]
                if d >= want.dim():
                    return "shard dim"
                n = want.shape[d]
                pairs = []
                for r, t in enumerate(self.locals):
                    b, e = ref.chunk_of(n, self.w, r)
                    shape = list(want.shape)
                    shape[d] = e - b
                    if list(t.shape) != shape:
                        return "shape"
                    pairs.append((t, (d, b, e - b)))
            narrow = lambda x, c: x if c is None else x.narrow(c[0], c[1], c[2])  # noqa: E731
            if all(match_exact_or_close(t, narrow(want, c), tol) for t, c in pairs):
                return None
            if not self.rejudge:
                return "values"
            rr = self._base()
            if rr is None:
                return "values"
            o64, base, m = rr
            slack = min(ROUNDING_FACTOR * self.eps * m + base, MAX_RELATIVE_ROUNDING * m)
            if all(match_rs_ref(t, narrow(want, c), narrow(o64, c), tol, slack)
                   for t, c in pairs):
                return None
            return "values (float64 reference too)"
        # Partial.
        if self.bad_shape:
            return "shape"
        op = p[1]
        stacked = self.stacked()
        reduced = ref.reduce_partial(stacked, op)
        finite = torch.isfinite(want) if self.floating else None
        slack = None
        abs_sum = None
        if self.floating and self.eps > 0:
            if op in ("sum", "avg"):
                # |part| in float64 (a complex part's modulus).
                abs_sum = stacked.abs().to(torch.float64).sum(0) + self.w * self.input_scale
                slack = abs_sum * (4 * self.eps)
                if op == "avg":
                    slack = slack / self.w
            elif op == "product":
                slack = reduced.to(torch.float64).abs() * (4 * self.w * self.eps)
        if match_partial(reduced, want, tol, slack, finite):
            return None
        if not self.rejudge:
            return "reduction"
        rr = self._base()
        if rr is None:
            return "reduction"
        o64, base, m = rr
        # Complex values as real views from here on, element by element.
        if stacked.dtype.is_complex:
            stacked = ref.as_float64(stacked)
            reduced = ref.reduce_partial(stacked, op)
            want = ref.as_float64(want)
            finite = torch.isfinite(want)
        # The scale at which the reduction over ranks rounds, per element.
        ref_abs = o64.to(torch.float64).abs()
        if op in ("sum", "avg"):
            scale = stacked.to(torch.float64).abs().sum(0)
            if op == "avg":
                scale = scale / self.w
            scale = scale + self.w * self.input_scale
        elif op == "product":
            scale = ref_abs * self.w
        else:
            scale = torch.zeros_like(ref_abs)
        scale = torch.where(torch.isfinite(scale), scale, torch.zeros((), dtype=torch.float64))
        slack = torch.minimum(ROUNDING_FACTOR * self.eps * scale + base,
                              MAX_RELATIVE_ROUNDING * (ref_abs + scale))
        if match_partial(reduced, o64, tol, slack, finite):
            return None
        return "reduction (float64 reference too)"


def selftest():
    """The output check must not be vacuous: real errors (a Partial part off
    by 1e-3, a shard off by one row, an empty chunk's -inf, a NaN where the
    output is finite) fail; rounding of a float32 contraction passes."""
    g = torch.Generator().manual_seed(1)
    a = torch.randn(8, 512, generator=g)
    b = torch.randn(512, 12, generator=g)
    full = a @ b
    tol = ref.PRECISIONS[torch.float32]

    def judge(locals_, want=full):
        v = Variant(None, None, [a, b], [want], ref_fn=lambda ins: [ins[0] @ ins[1]])
        return OutputJudge(0, want, locals_, v, tol, torch.float32, 0.0, 0.0)

    k = [ref.chunk_of(512, 3, r) for r in range(3)]
    parts = [a[:, s:e] @ b[s:e] for s, e in k]
    problems = []
    if judge(parts).check(ref.partial("sum")) is not None:
        problems.append("a correct S(1), S(0) -> P(sum) local set fails")
    off = [t.clone() for t in parts]
    off[1][3, 4] += 1e-3
    if judge(off).check(ref.partial("sum")) is None:
        problems.append("a Partial part off by 1e-3 passes")
    rows = [ref.chunk_of(8, 3, r) for r in range(3)]
    shifted = [full[min(s + 1, 7):min(e + 1, 8)] if r == 0 else full[s:e]
               for r, (s, e) in enumerate(rows)]
    shifted[0] = torch.cat([shifted[0], full[-1:]])[:rows[0][1] - rows[0][0]]
    if judge(shifted).check(ref.shard(0)) is None:
        problems.append("a shard off by one row passes")
    if judge([full[s:e] for s, e in rows]).check(ref.shard(0)) is not None:
        problems.append("a correct S(0) local set fails")
    inf = [full - 1, torch.full_like(full, -math.inf)]
    if judge(inf).check(ref.partial("max")) is None:
        problems.append("P(max) passes with a -inf local under a finite full output")
    nan = [full.clone(), full.clone()]
    nan[1][0, 0] = math.nan
    if judge(nan).check(ref.R) is None:
        problems.append("R passes with a NaN where the full output is finite")
    return problems


# ---------------------------------------------------------------------------
# Ground truth of one expanded sample.

class SampleError(Exception):
    pass


def call_inputs(ex, sample, ts):
    """ground_truth.cc CallInputs: fresh copies for an overload that writes its inputs."""
    if not ex.mutates:
        return ts
    out = []
    for t, inp in zip(ts, sample["inputs"]):
        out.append(t.clone() if inp["layout"] == "contiguous" else with_layout(t, inp["layout"]))
    return out


def input_candidates(inp):
    dtype = DTYPES[inp["dtype"]]
    cands = ref.candidate_placements(len(inp["shape"]), dtype)
    if inp["index_only"]:  # ground_truth.cc IndexOnly: an index part is not an index
        cands = [p for p in cands if p[0] != "P"]
    return cands


def in_place_change(ins, outs, aliases):
    for k, i in enumerate(aliases):
        if k < len(outs) and i >= 0 and outs[k] != ins[i]:
            return True
    return False


def evaluate_sample(ex, sample, w, redraws=REDRAWS):
    """The valid rules of one expanded sample at world size w (a set of rule
    texts), or None when the variant rejects the full inputs (the C++ then
    reports no truth for the sample)."""
    inputs = sample["inputs"]
    layouts = [i["layout"] for i in inputs]
    in_cands = [input_candidates(i) for i in inputs]
    truth = None
    for case in sample["cases"]:
        full = ex.full_inputs(sample, case)
        try:
            expected = call(ex, sample, call_inputs(ex, sample, full))
        except Exception as e:  # noqa: BLE001
            if ex.is_variant:
                return None
            raise SampleError("the operator rejects the full inputs (generator %s): %s"
                              % ("/".join(case["generators"]), str(e).split("\n")[0]))
        if truth is None:
            truth = ref.SampleTruth(in_cands,
                                    [ref.candidate_placements(t.dim(), t.dtype) for t in expected])
        elif len(expected) != len(truth.out_cands):
            raise SampleError("the number of outputs differs between generators")
        comp = least_precise([t.dtype for t in full] + [t.dtype for t in expected])
        tols = []
        for t in expected:
            if ex.tolerance is not None:
                tols.append((ex.tolerance["rtol"], ex.tolerance["atol"]))
            elif ref.is_inexact(t.dtype):
                tols.append(ref.PRECISIONS.get(comp if REFINEMENTS["a"] else t.dtype, (0.0, 0.0)))
            else:
                tols.append((0.0, 0.0))
        is_informative = ref.informative(expected)
        base = Variant(ex, sample, full, expected)
        negated = {}
        cache = {}
        for t, placements in enumerate(truth.in_tuples):
            if truth.dead(t):
                continue
            run_tuple(ex, sample, truth, t, placements, full, base, negated, cache, w,
                      redraws, case["seed"], layouts, comp, tols)
            if is_informative:
                truth.informative[t] += 1
    if truth is None:
        raise SampleError("the sample produced no case")
    valid = set()
    out_tuples = list(itertools.product(*[list(enumerate(c)) for c in truth.out_cands]))
    for t, ins in enumerate(truth.in_tuples):
        if truth.informative[t] == 0:
            continue
        fails = truth.failure[t]
        for o in out_tuples:
            if any(fails[k][c] is not None for k, (c, _) in enumerate(o)):
                continue
            outs = [p for _, p in o]
            if ref.is_degenerate(ins, outs) or ref.is_all_replicate(ins, outs):
                continue
            if in_place_change(ins, outs, ex.aliases):
                continue
            valid.add(ref.rule_text(ins, outs))
    return valid


def make_locals(x, p, w, layout, seed):
    """Rank locals of full input x (in its layout) under p; the largest
    finite |part| of a Partial placement."""
    if p[0] == "R":
        return [x] * w, 0.0
    if p[0] == "S":
        d, n = p[1], x.shape[p[1]]
        out = []
        for r in range(w):
            b, e = ref.chunk_of(n, w, r)
            out.append(with_layout(x.narrow(d, b, e - b).clone(memory_format=torch.contiguous_format),
                                   layout))
        return out, 0.0
    parts, stacked = ref.distribute(x.contiguous(), p, w, seed)
    scale = _finite_max_abs(ref.as_float64(stacked)) if x.numel() else 0.0
    return [with_layout(t, layout) for t in parts], scale


def run_tuple(ex, sample, truth, t, placements, full, base, negated, cache, w, redraws, case_seed,
              layouts, comp, tols):
    partial_any = any(p[0] == "P" for p in placements)
    mask = tuple(ref.is_extreme(p) and x.dtype not in (torch.bool, torch.uint8)
                 for p, x in zip(placements, full))
    # shrt/cases.h PartialVariants: tiny Partial inputs get at least
    # MIN_PARTIAL_DRAWS element draws in all.
    most = max([max(x.numel(), 1) for p, x in zip(placements, full) if p[0] == "P"], default=1)
    n_redraws = redraws if not partial_any else (
        max(redraws, -(-MIN_PARTIAL_DRAWS // most)) if most < MIN_PARTIAL_DRAWS else redraws)
    variants = n_redraws + (1 if any(mask) else 0)
    n_out = len(truth.out_cands)
    for v in range(variants):
        neg = v >= n_redraws
        variant = base
        if neg:
            if mask not in negated:
                ins = [with_layout(torch.neg(x), lay) if m else x
                       for x, m, lay in zip(full, mask, layouts)]
                try:
                    negated[mask] = Variant(ex, sample, ins,
                                            call(ex, sample, call_inputs(ex, sample, ins)))
                except Exception:  # noqa: BLE001  (rejects negated values: no such variant)
                    negated[mask] = None
            variant = negated[mask]
            if variant is None:
                continue
        locals_ = [[None] * len(placements) for _ in range(w)]
        input_scale = 0.0
        full_input_scale = 0.0
        for i, p in enumerate(placements):
            c = truth.in_indices[t][i]
            if p[0] == "P":
                full_input_scale = max(full_input_scale, _finite_max_abs(variant.inputs[i]))
            redraw = (redraws if neg else v) if p[0] == "P" else 0
            key = (i, c, redraw, neg and mask[i])
            if key not in cache:
                seed = ref.mix_seed(DRAW_SALT, case_seed, i, c, redraw)
                cache[key] = make_locals(variant.inputs[i], p, w, layouts[i], seed)
            parts, scale = cache[key]
            input_scale = max(input_scale, scale)
            for r in range(w):
                x = parts[r]
                if ex.mutates:
                    x = (x.clone(memory_format=torch.contiguous_format)
                         if layouts[i] == "contiguous" else with_layout(x, layouts[i]))
                locals_[r][i] = x
        want = variant.outputs
        if ex.local_shape_arg >= 0:
            run_local_shape(ex, sample, truth, t, locals_, want, variant, w, comp, tols,
                            input_scale, full_input_scale)
            continue
        outs = [[None] * w for _ in range(n_out)]
        for r in range(w):
            try:
                got = call(ex, sample, locals_[r])
            except Exception as e:  # noqa: BLE001  refutes the tuple for every output placement
                truth.fail_all(t, ("raised", r, str(e).split("\n", 1)[0]))
                return
            if len(got) != n_out:
                truth.fail_all(t, ("outputs", r))
                return
            for k, i in enumerate(ex.aliases):
                if i >= 0 and got[k]._cdata != locals_[r][i]._cdata:
                    truth.fail_all(t, ("not in place", r))
                    return
            for k in range(n_out):
                outs[k][r] = got[k]
        for k in range(n_out):
            judge = OutputJudge(k, want[k], outs[k], variant, tols[k], comp, input_scale,
                                full_input_scale)
            for c, p in enumerate(truth.out_cands[k]):
                if truth.failure[t][k][c] is not None:
                    continue
                bad = judge.check(p)
                if bad is not None:
                    truth.fail(t, k, c, bad)


def run_local_shape(ex, sample, truth, t, locals_, want, variant, w, comp, tols, input_scale,
                    full_input_scale):
    """ground_truth.cc RunLocalShapeCalls: each output placement gets its own W
    calls, each rank with the shape of its part of the full output."""
    full_out = want[0]
    for c, p in enumerate(truth.out_cands[0]):
        if truth.failure[t][0][c] is not None:
            continue
        outs = []
        for r in range(w):
            shape = list(full_out.shape)
            if p[0] == "S":
                b, e = ref.chunk_of(shape[p[1]], w, r)
                shape[p[1]] = e - b
            try:
                got = call(ex, sample, locals_[r], local_shape=shape)
            except Exception as e:  # noqa: BLE001
                truth.fail(t, 0, c, ("raised", r, str(e).split("\n", 1)[0]))
                outs = None
                break
            if len(got) != 1:
                truth.fail(t, 0, c, ("outputs", r))
                outs = None
                break
            outs.append(got[0])
        if outs is None:
            continue
        bad = OutputJudge(0, full_out, outs, variant, tols[0], comp, input_scale,
                          full_input_scale).check(p)
        if bad is not None:
            truth.fail(t, 0, c, bad)


def evaluate(ex, w):
    """{sample name: set of valid rules, or None (rejected by the variant)}."""
    out = {}
    for sample in ex.m["samples"]:
        out[sample["name"]] = evaluate_sample(ex, sample, w)
    return out


# ---------------------------------------------------------------------------
# The C++ side, the comparison, explanations.

def cpp_valid(shrt, op, w, seed):
    p = subprocess.run([shrt, "discover", "--op=" + op, "--world_size=%d" % w, "--format=json",
                        "--seed=%d" % seed], capture_output=True, text=True)
    if p.returncode != 0:
        raise SampleError("shrt discover failed (%d): %s" % (p.returncode, p.stderr.strip()[:500]))
    r = json.loads(p.stdout)
    return {s["name"]: set(s["valid"]) for s in r["samples"]}


def parse_explanations(path):
    """Entries `OVERLOAD | W | SAMPLE | SIDE | RULE | REASON` (W and SAMPLE
    may be `*`; SIDE is `cpp` (only the C++ finds the rule valid) or
    `python`); '#' starts a comment line."""
    entries = []
    if not path or not os.path.exists(path):
        return entries
    with open(path) as f:
        for n, line in enumerate(f, 1):
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            fields = [x.strip() for x in s.split("|")]
            if len(fields) != 6 or fields[3] not in ("cpp", "python") or not fields[5]:
                raise SystemExit("%s:%d: want 'OVERLOAD | W | SAMPLE | cpp|python | RULE | "
                                 "REASON'" % (path, n))
            entries.append({"op": fields[0], "w": fields[1], "sample": fields[2],
                            "side": fields[3], "rule": fields[4], "reason": fields[5],
                            "where": "%s:%d" % (path, n), "used": False})
    return entries


def explained(entries, op, w, sample, side, rule):
    hit = False
    for e in entries:
        if (e["op"] == op and e["w"] in ("*", str(w)) and e["sample"] in ("*", sample)
                and e["side"] == side and e["rule"] == rule):
            e["used"] = True
            hit = True
    return hit


def check_one(job):
    """(op, w, export dir, shrt, seed) -> (op, w, status, detail lines, diffs, seconds)."""
    op, w, directory, shrt, seed = job
    start = time.perf_counter()
    ref.use_ground_truth_runtime()
    try:
        ex = Export(directory)
        py = evaluate(ex, w)
        cpp = cpp_valid(shrt, op, w, seed)
    except (SampleError, Exception) as e:  # noqa: BLE001
        return op, w, "error", ["%s: %s" % (type(e).__name__, e)], [], time.perf_counter() - start
    diffs = []  # (sample, side, rule)
    lines = []
    for name in sorted(set(py) | set(cpp)):
        p, c = py.get(name), cpp.get(name)
        # A sample the variant rejects (Python: None) has no valid rule; the
        # C++ lists it with an empty `valid` list.
        if name in py and p is None:
            p = set()
            lines.append("sample %s: the overload rejects the full inputs (no valid rule)" % name)
        if p is None and c is None:
            continue
        if p is None or c is None:
            side = "python" if c is None else "cpp"
            lines.append("sample %s: only the %s side judged it (the other skipped it)"
                         % (name, "Python" if c is None else "C++"))
            for rule in sorted(p if c is None else c):
                diffs.append((name, side, rule))
            if not (p or c):
                diffs.append((name, side, "<sample>"))
            continue
        for rule in sorted(c - p):
            diffs.append((name, "cpp", rule))
        for rule in sorted(p - c):
            diffs.append((name, "python", rule))
    n_rules = sum(len(v) for v in cpp.values() if v)
    return (op, w, "disagree" if diffs else "agree", lines, diffs, time.perf_counter() - start,
            len(cpp), n_rules)


def read_ops(path):
    ops = []
    with open(path) as f:
        for line in f:
            s = line.split("#", 1)[0].strip()
            if s:
                ops.append(s)
    return ops


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ops", help="file with one overload per line ('#' comments)")
    ap.add_argument("--op", action="append", default=[], help="an overload (repeatable)")
    ap.add_argument("--world_sizes", default="2,3,4")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--shrt", default="bazel-bin/tools/shrt", help="the shrt CLI (discover)")
    ap.add_argument("--export_cases", default="bazel-bin/tools/bench/export_cases")
    ap.add_argument("--explained", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                        "differential_explained.txt"))
    ap.add_argument("--export_dir", help="keep the export here (default: a temporary directory)")
    ap.add_argument("--without", default="",
                    help="turn off DESIGN.md section 3 refinements (a, b, c; comma-separated) "
                         "to see which one a disagreement comes from")
    a = ap.parse_args(argv)
    ops = list(a.op)
    if a.ops:
        ops += read_ops(a.ops)
    if not ops:
        ap.error("give --ops=FILE or --op=OVERLOAD")
    worlds = [int(x) for x in a.world_sizes.split(",") if x]
    for x in filter(None, a.without.split(",")):
        if x not in REFINEMENTS:
            ap.error("--without: unknown refinement %r (a, b or c)" % x)
        REFINEMENTS[x] = False
    entries = parse_explanations(a.explained)
    ref.use_ground_truth_runtime()
    ref.disable_c10_backtraces()
    problems = selftest()
    if problems:
        print("differential: the output check is broken: " + "; ".join(problems))
        return 1

    tmp = None
    export_dir = a.export_dir
    if export_dir is None:
        tmp = tempfile.TemporaryDirectory(prefix="shrt_differential_")
        export_dir = tmp.name
    p = subprocess.run([a.export_cases, "--op=" + ",".join(ops), "--out=" + export_dir,
                        "--seed=%d" % a.seed], capture_output=True, text=True)
    dirs = {}
    for line in p.stdout.splitlines():
        name, _, d = line.partition(" ")
        dirs[name] = d
    if p.returncode != 0:
        print(p.stderr.strip(), file=sys.stderr)
    start = time.perf_counter()
    jobs = []
    errors = []
    for op in ops:
        # export_cases prints canonical names; the list may say ".default".
        canon = op[:-len(".default")] if op.endswith(".default") else op
        if canon not in dirs:
            errors.append(op)
            continue
        for w in worlds:
            jobs.append((canon, w, dirs[canon], a.shrt, a.seed))
    results = []
    if a.jobs > 1:
        with concurrent.futures.ProcessPoolExecutor(a.jobs) as pool:
            results = list(pool.map(check_one, jobs))
    else:
        results = [check_one(j) for j in jobs]

    agree = disagree = unexplained = 0
    for op in errors:
        for w in worlds:
            print("%s W=%d: ERROR: not exported" % (op, w))
            disagree += 1
            unexplained += 1
    for r in results:
        op, w, status, lines, diffs, secs = r[:6]
        if status == "error":
            print("%s W=%d: ERROR: %s" % (op, w, "; ".join(lines)))
            disagree += 1
            unexplained += 1
            continue
        n_samples, n_rules = r[6], r[7]
        if status == "agree":
            agree += 1
            print("%s W=%d: agree (%d samples, %d valid rules, %.1f s)"
                  % (op, w, n_samples, n_rules, secs))
            continue
        disagree += 1
        open_ = [d for d in diffs if not explained(entries, op, w, *d)]
        if open_:
            unexplained += 1
        print("%s W=%d: disagree (%d differences, %d unexplained; %d samples, %.1f s)"
              % (op, w, len(diffs), len(open_), n_samples, secs))
        for line in lines:
            print("    " + line)
        for sample, side, rule in diffs:
            tag = "" if (sample, side, rule) in open_ else " [explained]"
            print("    sample %s: only %s finds valid: %s%s"
                  % (sample, "C++" if side == "cpp" else "Python", rule, tag))
    ran = {(r[0], r[1]) for r in results}
    stale = [e for e in entries if not e["used"] and any(
        e["op"] == op and e["w"] in ("*", str(w)) for op, w in ran)]
    for e in stale:
        print("stale explanation %s: %s | %s | %s | %s | %s"
              % (e["where"], e["op"], e["w"], e["sample"], e["side"], e["rule"]))
    print("differential: %d overloads x %d world sizes, %d agreements, %d disagreements"
          % (len(ops), len(worlds), agree, disagree))
    print("  (%d unexplained, %d stale explanations, %.0f s)"
          % (unexplained, len(stale), time.perf_counter() - start))
    if tmp is not None:
        tmp.cleanup()
    return 1 if unexplained or stale else 0


if __name__ == "__main__":
    sys.exit(main())
