#!/usr/bin/python3
"""Eager-PyTorch reference of ShRT's ground-truth validation, for a throughput
comparison with the C++ pipeline (shrt/ground_truth.cc).

Run with Debian's interpreter (tools/setup.sh installs the pinned torch into it):

    /usr/bin/python3 tools/bench/reference.py [--world_size 4] [--repeat N] [--rules]

The structure mirrors shrt/ground_truth.cc (SampleTruth, RunTuple) and shrt/verdicts.cc,
shrt/distribute.cc (per-rank locals), shrt/output_check.cc and
shrt/compare.cc (output check, tolerances) and shrt/generators.cc with
op_specs/recipes/default.textproto (the default recipe), so that both sides
do the same work (DESIGN.md sections 3, 4 and 8):

- the full output is computed once per (sample, generator);
- every tuple of input placements is enumerated, except tuples an earlier
  generator made dead (some output has no surviving placement);
- a tuple with a Partial input runs 3 redraws of the parts, plus one variant
  with P(max)/P(min) inputs negated (full output cached per negation mask);
- the op runs once per rank through the c10 dispatcher (torch.ops.aten);
- every output placement not yet refuted for the tuple is checked against
  those local results;
- combination checks are counted like the C++: for every evaluated
  (sample, generator, input tuple), the number of output placement tuples.

Values are drawn with torch.Generator (vectorised), not ShRT's SplitMix64,
so they do not match the C++ bit for bit. Evidence is recorded as a short
tuple (generator, variant, output, rank, reason), without the C++'s
formatted "largest difference" text.

Complex tensors (complex64, complex128) go through their real view
(torch.view_as_real: a trailing dim of 2, real and imaginary parts), like
shrt/compare.h RealView: values are drawn as the real view (shape + [2], the
real dtype), P(sum)/P(avg) parts are drawn on the real view (so each part is
complex), only P(sum) and P(avg) are candidates, reductions over ranks run
in complex128, and comparisons compare real views with the tolerance and
epsilon of the real dtype (complex64: float32's, complex128: float64's).
"""

import argparse
import ctypes
import hashlib
import itertools
import math
import os
import subprocess
import sys
import tempfile
import time

import torch

aten = torch.ops.aten

# ---------------------------------------------------------------------------
# Placements (shrt/placement.h). Candidate order is the canonical order
# R < S(0) < S(1) < ... < P(sum) < P(avg) < P(max) < P(min) < P(product), so
# itertools.product enumerates rules sorted like the C++ report.

REDUCE_OPS = ("sum", "avg", "max", "min", "product")
R = ("R",)


def shard(d):
    return ("S", d)


def partial(op):
    return ("P", op)


def placement_text(p):
    if p[0] == "R":
        return "R"
    if p[0] == "S":
        return "S(%d)" % p[1]
    return "P(%s)" % p[1]


def rule_text(ins, outs):
    return "%s -> %s" % (", ".join(map(placement_text, ins)),
                         ", ".join(map(placement_text, outs)))


def is_narrow_int(dtype):
    return (not dtype.is_floating_point and not dtype.is_complex and dtype != torch.bool
            and torch.empty((), dtype=dtype).element_size() < 4)


def real_dtype(dtype):
    """The real dtype of a complex dtype (complex64: float32, complex128:
    float64); any other dtype unchanged."""
    return {torch.complex64: torch.float32, torch.complex128: torch.float64}.get(dtype, dtype)


def is_inexact(dtype):
    """Floating or complex: compared with a tolerance, reduced in float64
    (complex128)."""
    return dtype.is_floating_point or dtype.is_complex


def real_view(t):
    """A complex tensor as its real view (shrt/compare.h RealView): a
    contiguous float tensor with a trailing dim of 2 (real, imaginary), any
    conjugate bit resolved. Any other tensor unchanged."""
    if not t.dtype.is_complex:
        return t
    return torch.view_as_real(t.resolve_conj().contiguous())


def as_float64(t):
    """`t` in float64; a complex tensor as its real view (in float64)."""
    return real_view(t).to(torch.float64)


def candidate_placements(ndim, dtype):
    """shrt/candidates.cc: R, S(d) per dim, then Partials (none for bool;
    only P(sum) and P(avg) for complex: complex numbers have no order)."""
    out = [R] + [shard(d) for d in range(ndim)]
    if dtype == torch.bool:
        return out
    for op in REDUCE_OPS:
        if op == "avg" and is_narrow_int(dtype):
            continue
        if dtype.is_complex and op not in ("sum", "avg"):
            continue
        out.append(partial(op))
    return out


def is_all_replicate(ins, outs):
    return all(p[0] == "R" for p in ins) and all(p[0] == "R" for p in outs)


def is_degenerate(ins, outs):
    if not all(p[0] == "R" for p in ins):
        return False
    return all(p[0] == "R" or (p[0] == "P" and p[1] not in ("sum", "product")) for p in outs)


def is_extreme(p):
    return p[0] == "P" and p[1] in ("max", "min")


# ---------------------------------------------------------------------------
# Seeds (shrt/rng.h MixSeed), so every (sample, generator, tuple, variant,
# input) gets its own, order-sensitive seed.

_M64 = (1 << 64) - 1


def _splitmix(state):
    z = (state + 0x9E3779B97F4A7C15) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


def mix_seed(*parts):
    h = 0x243F6A8885A308D3
    for p in parts:
        h = _splitmix(h ^ ((p * 0x9E3779B97F4A7C15) & _M64))
    return h


_GEN = torch.Generator()


def rng(seed):
    _GEN.manual_seed(seed & ((1 << 63) - 1))
    return _GEN


# ---------------------------------------------------------------------------
# Generators: the default recipe (op_specs/recipes/default.textproto,
# shrt/generators.cc). Values are made in float64, then converted.

def to_dtype(v, dtype):
    """ValuesToTensor's conversion: round and clamp integers, parity for bool."""
    if dtype == torch.bool:
        return torch.remainder(v.round().abs(), 2) != 0
    if dtype.is_floating_point:
        return v.to(dtype)
    info = torch.iinfo(dtype)
    return v.round().clamp(info.min, info.max).to(dtype)


def _sign(shape, g):
    return torch.randint(0, 2, shape, generator=g, dtype=torch.float64) * 2 - 1


def _uniform(shape, lo, hi, g):
    return lo + (hi - lo) * torch.rand(shape, generator=g, dtype=torch.float64)


def gen_arange(shape, i, g, start=1.0, step=1.0, per_input_offset=7.0):
    n = math.prod(shape)
    return (start + step * torch.arange(n, dtype=torch.float64) + per_input_offset * i).reshape(shape)


def gen_randn(shape, i, g):
    return torch.randn(shape, generator=g, dtype=torch.float64)


def gen_constant(value, per_input_step):
    return lambda shape, i, g: torch.full(shape, value + per_input_step * i, dtype=torch.float64)


def gen_sparse(shape, i, g, density=0.15, low=1.0, high=10.0):
    keep = torch.rand(shape, generator=g, dtype=torch.float64) < density
    v = torch.where(keep, _sign(shape, g) * _uniform(shape, low, high, g),
                    torch.zeros((), dtype=torch.float64))
    n = v.numel()
    if n > 0 and i == 0:  # input 0 has at least one nonzero
        k = int(torch.randint(0, n, (), generator=g))
        v.view(-1)[k] = float(_uniform((), low, high, g))
    return v


def gen_magnitude(shape, i, g, min_exp=-3.0, max_exp=3.0):
    return _sign(shape, g) * torch.pow(10.0, _uniform(shape, min_exp, max_exp, g))


_TIES = torch.tensor([-2.0, -1.0, 0.0, 1.0, 2.0], dtype=torch.float64)


def gen_ties(shape, i, g):
    return _TIES[torch.randint(0, len(_TIES), shape, generator=g)]


DEFAULT_RECIPE = [
    ("arange", gen_arange),
    ("randn", gen_randn),
    ("zeros", gen_constant(0.0, 1.0)),
    ("ones", gen_constant(1.0, 1.0)),
    ("negative", gen_constant(-2.0, -1.0)),
    ("sparse", gen_sparse),
    ("mixed_magnitude", gen_magnitude),
    ("ties", gen_ties),
]


def generate(fn, shape, dtype, i, case_seed):
    """A complex tensor is its real view's values (shape + [2], drawn with the
    real dtype) viewed as complex (shrt/generators.cc)."""
    if dtype.is_complex:
        real = generate(fn, tuple(shape) + (2,), real_dtype(dtype), i, case_seed)
        return torch.view_as_complex(real)
    return to_dtype(fn(tuple(shape), i, rng(mix_seed(case_seed, i))), dtype)


# ---------------------------------------------------------------------------
# Per-rank locals (shrt/distribute.cc, shrt/mesh.cc).

def chunk_of(size, w, r):
    """torch.chunk layout with empty tail chunks: [begin, end) of rank r."""
    c = (size + w - 1) // w
    begin = min(size, r * c)
    return begin, min(size, begin + c)


def _round_to(v, dtype):
    """Round float64 values to the nearest value of floating dtype (RoundTo)."""
    return v if dtype == torch.float64 else v.to(dtype).to(torch.float64)


_RANKS = {}


def _holders(shape, w, g):
    """One-hot (W, *shape) mask of the rank that holds each element's remainder."""
    holder = torch.randint(0, w, shape, generator=g)
    ranks = _RANKS.get((w, len(shape)))
    if ranks is None:
        ranks = _RANKS[(w, len(shape))] = torch.arange(w).view((w,) + (1,) * len(shape))
    return holder.unsqueeze(0) == ranks


def _finite_max_abs(target):
    """max |x| over the finite elements (0 if none)."""
    if target.numel() == 0:
        return 0.0
    m = float(target.abs().max())
    if math.isfinite(m):
        return m
    finite = target[torch.isfinite(target)]
    return float(finite.abs().max()) if finite.numel() else 0.0


def _finite_range(target):
    """(min, max) over the finite elements ((0, 0) if none)."""
    if target.numel() == 0:
        return 0.0, 0.0
    lo, hi = torch.aminmax(target)
    lo, hi = float(lo), float(hi)
    if math.isfinite(lo) and math.isfinite(hi):
        return lo, hi
    finite = target[torch.isfinite(target)]
    return (float(finite.min()), float(finite.max())) if finite.numel() else (0.0, 0.0)


def sum_parts(target, w, dtype, g):
    integral = not dtype.is_floating_point
    max_abs = _finite_max_abs(target)
    shape = tuple(target.shape)
    hold = _holders(shape, w, g)
    noise = _uniform((w,) + shape, -2.0, 2.0, g) * (max_abs + 1)
    noise = noise.round() if integral else _round_to(noise, dtype)
    noise.masked_fill_(hold, 0.0)
    rest = target - noise.sum(0)
    return torch.where(hold, rest.unsqueeze(0), noise)


def extreme_parts(target, w, is_max, dtype, g):
    integral = not dtype.is_floating_point
    lo, hi = _finite_range(target)
    rng_ = hi - lo + 1
    shape = tuple(target.shape)
    hold = _holders(shape, w, g)
    gap = _uniform((w,) + shape, 0.5, 2.0, g) * rng_
    if integral:
        gap = gap.round().clamp_min(1.0)
    t = target.unsqueeze(0)
    v = t - gap if is_max else t + gap
    if not integral:
        v = _round_to(v, dtype)
        # Keep the bound strict after rounding to the dtype.
        v = torch.where(v > t, t, v) if is_max else torch.where(v < t, t, v)
    return torch.where(hold, t, v)


def product_parts(target, w, dtype, g):
    integral = not dtype.is_floating_point
    shape = tuple(target.shape)
    hold = _holders(shape, w, g)
    if integral:
        f = _sign((w,) + shape, g)
    else:
        f = _round_to(_sign((w,) + shape, g) * _uniform((w,) + shape, 0.5, 2.0, g), dtype)
    f.masked_fill_(hold, 1.0)
    others = f.prod(0)
    return torch.where(hold, (target / others).unsqueeze(0), f)


def distribute(full, p, w, seed):
    """(locals, stacked): rank r's local of `full` under placement p, one
    fresh tensor per rank; for Partial also the (W, ...) tensor they view.
    A complex tensor's parts are drawn on its real view (real and imaginary
    parts split independently), then viewed as complex."""
    kind = p[0]
    if kind == "R":
        return [full.clone(memory_format=torch.contiguous_format) for _ in range(w)], None
    if kind == "S":
        d, n = p[1], full.shape[p[1]]
        out = []
        for r in range(w):
            b, e = chunk_of(n, w, r)
            out.append(full.narrow(d, b, e - b).clone(memory_format=torch.contiguous_format))
        return out, None
    if full.dtype.is_complex:
        _, stacked = distribute(real_view(full), p, w, seed)
        stacked = torch.view_as_complex(stacked.contiguous())
        return list(stacked.unbind(0)), stacked
    dtype = full.dtype
    integral = not dtype.is_floating_point
    g = rng(seed)
    target = full.to(torch.float64)
    op = p[1]
    if op == "sum":
        parts = sum_parts(target, w, dtype, g)
    elif op == "avg":
        parts = sum_parts(target * w, w, dtype, g)
    elif op in ("max", "min"):
        parts = extreme_parts(target, w, op == "max", dtype, g)
    else:
        parts = product_parts(target, w, dtype, g)
    # Sums and products of integer parts wrap back to `full` in the dtype.
    if integral and op not in ("max", "min"):
        parts = parts.to(torch.int64).to(dtype)
    else:
        parts = to_dtype(parts, dtype)
    return list(parts.unbind(0)), parts  # W disjoint, contiguous rank tensors


# ---------------------------------------------------------------------------
# Output check (shrt/output_check.cc, shrt/compare.cc).

# torch/testing/_comparison.py _DTYPE_PRECISIONS: dtype -> (rtol, atol).
PRECISIONS = {
    torch.float16: (1e-3, 1e-5),
    torch.bfloat16: (1.6e-2, 1e-5),
    torch.float32: (1.3e-6, 1e-5),
    torch.float64: (1e-7, 1e-7),
}
EPS = {torch.float16: 9.765625e-4, torch.bfloat16: 7.8125e-3,
       torch.float32: torch.finfo(torch.float32).eps, torch.float64: torch.finfo(torch.float64).eps}
# Complex dtypes take their real dtype's tolerance and epsilon.
for _c in (torch.complex64, torch.complex128):
    PRECISIONS[_c] = PRECISIONS[real_dtype(_c)]
    EPS[_c] = EPS[real_dtype(_c)]


def values_match(actual, expected, tol, slack=None):
    """Same shapes assumed. Exact for integers/bool; otherwise, in float64,
    |a-e| <= atol + rtol*|e| + slack, NaN equal to NaN, infinities exact.
    Complex tensors compare their real views (in complex128), the slack of
    an element allowed for both its real and imaginary parts."""
    if actual.dtype.is_complex or expected.dtype.is_complex:
        a = real_view(actual.to(torch.complex128))
        e = real_view(expected.to(torch.complex128))
        if slack is not None:
            slack = slack.to(torch.float64).unsqueeze(-1).expand(e.shape)
        return values_match(a, e, tol, slack)
    if not actual.dtype.is_floating_point and not expected.dtype.is_floating_point:
        return torch.equal(actual.to(torch.int64), expected.to(torch.int64))
    a = actual.to(torch.float64)
    e = expected.to(torch.float64)
    rtol, atol = tol
    if slack is None:
        # Same formula (torch.isclose: a == e, or finite |a-e| <= atol + rtol*|e|).
        return bool(torch.isclose(a, e, rtol, atol, equal_nan=True).all())
    diff = (a - e).abs()
    allowed = e.abs().mul_(rtol).add_(atol)
    if slack is not None:
        allowed.add_(slack)
    ok = (diff <= allowed).logical_and_(torch.isfinite(diff))
    ok.logical_or_(a == e).logical_or_(torch.isnan(a).logical_and_(torch.isnan(e)))
    return bool(ok.all())


def reduce_partial(stacked, op, stacked64=None):
    """Reduction over ranks of the stacked (W, ...) locals (ReducePartial):
    float64 for floating dtypes and avg (complex128 for complex dtypes),
    native for integer sum/max/min/product."""
    integral = not is_inexact(stacked.dtype)
    if not integral or op == "avg":
        x = stacked64 if stacked64 is not None else stacked.to(wide_dtype(stacked.dtype))
    else:
        x = stacked
    # Integer sums and products wrap in the dtype, as the parts were built
    # (torch.sum/prod would promote to int64 and not wrap).
    if op == "sum":
        return x.sum(0, dtype=x.dtype)
    if op == "avg":
        return x.sum(0) / stacked.shape[0]
    if op == "max":
        return x.amax(0)
    if op == "min":
        return x.amin(0)
    return x.prod(0, dtype=x.dtype)


def wide_dtype(dtype):
    """The dtype reductions over ranks run in: complex128 for complex, else float64."""
    return torch.complex128 if dtype.is_complex else torch.float64


class OutputChecker:
    """Checks the W locals of one output against its full value, placement by
    placement (CheckOutput). Stacks the locals once and shares that across
    the candidate placements."""

    def __init__(self, full, locals_, tol, input_scale):
        self.full, self.locals, self.tol, self.input_scale = full, locals_, tol, input_scale
        self.w = len(locals_)
        self.bad_dtype = next(((r, "dtype %s vs expected %s" % (t.dtype, full.dtype))
                               for r, t in enumerate(locals_) if t.dtype != full.dtype), None)
        self.bad_shape = next(((r, "shape") for r, t in enumerate(locals_)
                               if t.shape != full.shape), None)
        self._stacked = None
        self._stacked64 = None

    def stacked(self):
        if self._stacked is None:
            self._stacked = torch.stack(self.locals)
        return self._stacked

    def stacked64(self):
        """The stacked locals in float64 (complex128 for a complex output)."""
        if self._stacked64 is None:
            self._stacked64 = self.stacked().to(wide_dtype(self.stacked().dtype))
        return self._stacked64

    def check(self, p):
        """None if the locals form the full output under placement p, else (rank, reason)."""
        if self.bad_dtype is not None:
            return self.bad_dtype
        full, w, tol = self.full, self.w, self.tol
        kind = p[0]
        if kind == "R":
            if self.bad_shape is not None:
                return self.bad_shape
            if not values_match(self.stacked(), full.expand((w,) + tuple(full.shape)), tol):
                return -2, "values"
            return None
        if kind == "S":
            d = p[1]
            if d >= full.dim():
                return -1, "shard dim"
            n = full.shape[d]
            for r, t in enumerate(self.locals):
                b, e = chunk_of(n, w, r)
                want = list(full.shape)
                want[d] = e - b
                if list(t.shape) != want:
                    return r, "shape"
            # Shapes match the chunks, so the concatenation must equal full.
            if not values_match(torch.cat(self.locals, d), full, tol):
                return -2, "values"
            return None
        if self.bad_shape is not None:
            return self.bad_shape
        op = p[1]
        stacked = self.stacked()
        integral = not is_inexact(stacked.dtype)
        reduced = reduce_partial(stacked, op,
                                 self.stacked64() if (not integral or op == "avg") else None)
        slack = None
        eps = EPS.get(full.dtype, 0.0)
        if eps > 0:
            if op in ("sum", "avg"):
                # |part| in float64 (a complex part's modulus).
                abs_sum = self.stacked64().abs().sum(0).add_(w * self.input_scale)
                if op == "avg":
                    abs_sum.div_(w)
                slack = abs_sum.mul_(4 * eps)
            elif op == "product":
                slack = reduced.abs().mul_(4 * w * eps)
        if not values_match(reduced, full, tol, slack):
            return -1, "reduction"
        return None


# ---------------------------------------------------------------------------
# Ground truth (shrt/ground_truth.cc).

def call(op, inputs):
    out = op(*inputs)
    if isinstance(out, torch.Tensor):
        return [out]
    return [t for t in out]


def informative(outputs):
    for t in outputs:
        if t.numel() == 0:
            return False
        if not bool(t.ne(0).any()):
            return False
        if is_inexact(t.dtype) and bool(torch.isnan(t).all()):
            return False
    return True


class SampleTruth:
    """Which (input tuple, output, placement) some case refuted, and how many
    informative cases each input tuple had."""

    def __init__(self, in_cands, out_cands):
        self.in_cands = in_cands
        self.out_cands = out_cands
        self.in_tuples = list(itertools.product(*in_cands))
        # Candidate index of each slot, per tuple (the key of the locals cache).
        self.in_indices = list(itertools.product(*[range(len(c)) for c in in_cands]))
        self.out_tuples = math.prod(len(c) for c in out_cands)
        # failure[t][k][c]: evidence or None.
        self.failure = [[[None] * len(c) for c in out_cands] for _ in self.in_tuples]
        self.informative = [0] * len(self.in_tuples)

    def dead(self, t):
        return any(all(f is not None for f in per_out) for per_out in self.failure[t])

    def fail(self, t, k, c, evidence):
        if self.failure[t][k][c] is None:
            self.failure[t][k][c] = evidence

    def fail_all(self, t, evidence):
        for k, per_out in enumerate(self.failure[t]):
            for c in range(len(per_out)):
                if per_out[c] is None:
                    per_out[c] = evidence


class Sample:
    def __init__(self, name, op, shapes, dtypes=None, args=()):
        self.name = name
        self.op = op
        self.shapes = shapes
        self.dtypes = dtypes or [torch.float32] * len(shapes)
        self.args = tuple(args)  # non-tensor arguments after the tensors

    def call(self, tensors):
        return call(self.op, list(tensors) + list(self.args))


def run_tuple(sample, truth, t, placements, full, expected, label, case_seed, negated, cache, w,
              redraws):
    partial_any = any(p[0] == "P" for p in placements)
    mask = tuple(is_extreme(p) and x.dtype not in (torch.bool, torch.uint8)
                 for p, x in zip(placements, full))
    any_negated = any(mask)
    n_redraws = redraws if partial_any else 1
    variants = n_redraws + (1 if any_negated else 0)
    n_out = len(truth.out_cands)
    for v in range(variants):
        neg = v >= n_redraws
        variant = ("redraw %d" % (0 if neg else v)) if partial_any else ""
        inputs, want = full, expected
        if neg:
            variant = "negated inputs, " + variant
            negated_inputs = [aten.neg.default(x) if m else x for x, m in zip(full, mask)]
            if mask not in negated:
                try:
                    negated[mask] = sample.call(negated_inputs)
                except Exception:  # an op that rejects negated values: skip
                    negated[mask] = None
            if negated[mask] is None:
                continue
            inputs, want = negated_inputs, negated[mask]
        locals_ = [[None] * len(placements) for _ in range(w)]
        input_scale = 0.0
        for i, p in enumerate(placements):
            # Parts depend on (case, input, candidate, redraw), never on the
            # rest of the tuple, so they are built once per case and shared
            # (shrt/ground_truth.cc LocalsCache); the ops here write no input.
            c = truth.in_indices[t][i]
            redraw = 0 if neg or p[0] != "P" else v  # R and S locals are never drawn
            key = (i, c, redraw, neg and mask[i])
            if key not in cache and p[0] == "R":  # read only: no copies (ground_truth.cc)
                cache[key] = ([inputs[i]] * w, 0.0)
            if key not in cache:
                parts, stacked = distribute(inputs[i], p, w, mix_seed(case_seed, c, redraw, i))
                scale = 0.0
                if p[0] == "P" and inputs[i].numel() > 0 and is_inexact(inputs[i].dtype):
                    scale = float(real_view(stacked).abs().max())  # over real views
                cache[key] = (parts, scale)
            parts, scale = cache[key]
            input_scale = max(input_scale, scale)
            for r in range(w):
                locals_[r][i] = parts[r]
        outs = [[None] * w for _ in range(n_out)]
        for r in range(w):
            try:
                got = sample.call(locals_[r])
            except Exception as e:  # refutes the tuple for every output placement
                truth.fail_all(t, (label, variant, -1, r, str(e).split("\n", 1)[0]))
                return
            if len(got) != n_out:
                truth.fail_all(t, (label, variant, -1, r, "returned %d outputs" % len(got)))
                return
            for k in range(n_out):
                outs[k][r] = got[k]
        for k in range(n_out):
            checker = OutputChecker(want[k], outs[k], PRECISIONS.get(want[k].dtype, (0.0, 0.0)),
                                    input_scale)
            for c, p in enumerate(truth.out_cands[k]):
                if truth.failure[t][k][c] is not None:
                    continue
                bad = checker.check(p)
                if bad is not None:
                    truth.fail(t, k, c, (label, variant, k, bad[0], bad[1]))


def judge(truth):
    """Rules that were never refuted, had an informative case, and are neither
    degenerate nor all-Replicate (the C++ `valid` set)."""
    valid = []
    out_tuples = list(itertools.product(*[list(enumerate(c)) for c in truth.out_cands]))
    for t, ins in enumerate(truth.in_tuples):
        if truth.informative[t] == 0:
            continue
        fails = truth.failure[t]
        for o in out_tuples:
            if any(fails[k][c] is not None for k, (c, _) in enumerate(o)):
                continue
            outs = [p for _, p in o]
            if is_degenerate(ins, outs) or is_all_replicate(ins, outs):
                continue
            valid.append(rule_text(ins, outs))
    return valid


def validate(sample, w, seed=0, sample_index=0, redraws=3, recipe=DEFAULT_RECIPE):
    """Returns (combination checks, valid rules) for one sample."""
    in_cands = [candidate_placements(len(s), dt) for s, dt in zip(sample.shapes, sample.dtypes)]
    truth = None
    checks = 0
    for g, (gname, fn) in enumerate(recipe):
        case_seed = mix_seed(seed, sample_index, g)
        full = [generate(fn, s, dt, i, case_seed)
                for i, (s, dt) in enumerate(zip(sample.shapes, sample.dtypes))]
        expected = sample.call(full)
        if truth is None:
            truth = SampleTruth(in_cands, [candidate_placements(t.dim(), t.dtype) for t in expected])
        is_informative = informative(expected)
        negated = {}
        cache = {}
        for t, placements in enumerate(truth.in_tuples):
            if truth.dead(t):
                continue
            run_tuple(sample, truth, t, placements, full, expected, gname, case_seed, negated,
                      cache, w, redraws)
            checks += truth.out_tuples
            if is_informative:
                truth.informative[t] += 1
    return checks, judge(truth)


# ---------------------------------------------------------------------------
# c10 backtraces. Every c10::Error symbolises a C++ backtrace when it is
# built (several ms each: most of this benchmark's time goes to the ranks
# that raise). ShRT's C++ switches that off once with
# c10::SetStackTraceFetcher (shrt/ground_truth.cc); Python has no API for it, so
# the same call is made from a tiny shim linked against the very libc10 that
# torch loaded. --cpp_backtraces keeps the stock behaviour.

_SHIM_SRC = r"""
#include <string>
#include "c10/util/Logging.h"
extern "C" void shrt_no_backtraces() {
  c10::SetStackTraceFetcher([] { return std::string(); });
}
"""


def use_ground_truth_runtime():
    """The libtorch settings of the C++ ground truth (shrt/torch_runtime.h):
    one intra-op thread, and uninitialised memory filled with NaN (floating)
    or the dtype's largest value (integral) through deterministic algorithms
    in warn-only mode, so that an output a kernel leaves unwritten never
    depends on what the allocator last held."""
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True, warn_only=True)
    torch.utils.deterministic.fill_uninitialized_memory = True


def disable_c10_backtraces():
    """True when c10 stopped fetching backtraces; False (and why on stderr) if not."""
    key = hashlib.sha1((_SHIM_SRC + torch.__version__).encode()).hexdigest()[:12]
    cache = os.path.join(tempfile.gettempdir(), "shrt_reference_%d" % os.getuid())
    lib = os.path.join(cache, "no_backtraces_%s.so" % key)
    try:
        if not os.path.exists(lib):
            os.makedirs(cache, exist_ok=True)
            src = os.path.join(cache, "no_backtraces_%s.cc" % key)
            with open(src, "w") as f:
                f.write(_SHIM_SRC)
            tmp = lib + ".%d" % os.getpid()
            # torch's own headers and libc10 (the wheel's, not the system's).
            from torch.utils import cpp_extension
            flags = ["-I" + d for d in cpp_extension.include_paths()]
            for d in cpp_extension.library_paths():
                flags += ["-L" + d, "-Wl,-rpath," + d]
            subprocess.run(["g++", "-std=c++20", "-O1", "-shared", "-fPIC", "-o", tmp, src]
                           + flags + ["-lc10"], check=True, capture_output=True, text=True)
            os.replace(tmp, lib)
        ctypes.CDLL(lib).shrt_no_backtraces()
        return True
    except (OSError, subprocess.CalledProcessError) as e:
        detail = getattr(e, "stderr", "") or str(e)
        print("reference: c10 backtraces stay on (shim failed: %s)" % detail.strip()[:300],
              file=sys.stderr)
        return False


# ---------------------------------------------------------------------------
# The fixed workload.

def workload():
    return [
        ("aten::add.Tensor", Sample("add", aten.add.Tensor, [(8, 16), (8, 16)])),
        ("aten::mul.Tensor", Sample("mul", aten.mul.Tensor, [(8, 16), (8, 16)])),
        ("aten::sum.dim_IntList",
         Sample("sum_dim0", aten.sum.dim_IntList, [(8, 16)], args=([0], False))),
        ("aten::argmax", Sample("argmax_dim1", aten.argmax.default, [(8, 16)], args=(1, False))),
        ("aten::mm", Sample("mm", aten.mm.default, [(8, 16), (16, 12)])),
        ("aten::linalg_cross",
         Sample("cross_dim1", lambda a, b: aten.linalg_cross.default(a, b, dim=1),
                [(8, 3), (8, 3)])),
    ]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--world_size", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=1,
                    help="run the workload N times and report the fastest run")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--redraws", type=int, default=3)
    ap.add_argument("--rules", action="store_true", help="print the valid rules per op")
    ap.add_argument("--cpp_backtraces", action="store_true",
                    help="keep c10's per-exception backtraces (stock PyTorch; the C++ "
                         "pipeline turns them off)")
    a = ap.parse_args(argv)
    use_ground_truth_runtime()
    if not a.cpp_backtraces:
        disable_c10_backtraces()

    best = None  # (total seconds, [(op, checks, seconds, rules)])
    for _ in range(max(1, a.repeat)):
        results = []
        for si, (name, sample) in enumerate(workload()):
            start = time.perf_counter()
            checks, rules = validate(sample, a.world_size, a.seed, si, a.redraws)
            results.append((name, checks, time.perf_counter() - start, rules))
        total = sum(r[2] for r in results)
        if best is not None:
            assert [r[1] for r in best[1]] == [r[1] for r in results]
        if best is None or total < best[0]:
            best = (total, results)

    total_s, results = best
    total_checks = sum(r[1] for r in results)
    for name, checks, secs, rules in results:
        print("%s: %d combination checks, %.3f seconds, %d valid rules"
              % (name, checks, secs, len(rules)))
        if a.rules:
            for rule in rules:
                print("    " + rule)
    print("reference: %d combination checks in %.3f s = %.0f checks/s"
          % (total_checks, total_s, total_checks / total_s))
    return 0


if __name__ == "__main__":
    sys.exit(main())
