"""The output check of tools/bench/differential.py: whether W per-rank
results form the full output under a placement, with DESIGN.md section 3's
refinements (a: the least precise dtype's tolerance; b: non-finite full
outputs are no evidence for a Partial; c: the re-judgement against a
float64 reference call; the differential.py docstring states them
exactly), and a self-test that the check is not vacuous. Placements, the
reduction over ranks and the base comparison are the eager reference's
(reference_placements.py, reference_distribute.py,
reference_output_check.py).
"""

import math

import torch

from differential_export import call
from reference_distribute import chunk_of, finite_max_abs
from reference_output_check import EPS, PRECISIONS, reduce_partial, values_match
from reference_placements import R, as_float64, is_inexact, partial, real_view, shard

ROUNDING_FACTOR = 8.0
# F * rel never exceeds this: operators whose float32 and float64 results
# differ by more than rounding (floor near an integer, a comparison near a
# boundary) must not buy a large slack, and a Partial part off by one part
# in 10^3 or a shard one row off still fails in float32.
MAX_RELATIVE_ROUNDING = 1e-4
# DESIGN.md section 3's refinements, all on; --without=a,b,c turns some off
# to find which one a disagreement comes from (diagnosis only).
REFINEMENTS = {"a": True, "b": True, "c": True}


# ---------------------------------------------------------------------------
# Tolerances and the output check, with DESIGN.md section 3's refinements.

def least_precise(dtypes):
    """The floating or complex dtype with the largest epsilon among `dtypes`,
    or None (complex64 has float32's epsilon, complex128 float64's)."""
    fl = [d for d in dtypes if is_inexact(d)]
    if not fl:
        return None
    return max(fl, key=lambda d: EPS[d])


def match_exact_or_close(actual, expected, tol):
    """R/S comparison: exact for integers/bool, else |a-e| <= atol + rtol|e|
    with NaN equal to NaN and infinities exact (position by position)."""
    return values_match(actual, expected, tol)


def match_rs_ref(actual, want, ref64, tol, slack):
    """The re-judgement of an R/S local against the float64 reference: where
    the full output is non-finite the local must equal it exactly; elsewhere
    |a - ref| <= atol + rtol|ref| + slack (or, where the reference itself is
    non-finite, the plain check against the full output). Complex locals
    and outputs as their real views; `ref64` is one already."""
    a = as_float64(actual)
    w = as_float64(want)
    r = as_float64(ref64)
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
        r = real_view(reduced.to(torch.complex128))
        e = real_view(expected.to(torch.complex128))
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
                            o64 = as_float64(o.to(torch.complex128))
                            w64 = as_float64(w.to(torch.complex128))
                        else:
                            o64 = o.to(torch.float64)
                            w64 = w.to(torch.float64)
                        both = torch.isfinite(o64) & torch.isfinite(w64)
                        own = float((o64 - w64).abs()[both].max()) if bool(both.any()) else 0.0
                        res.append((o64, own, finite_max_abs(o64)))
                    self._ref = res
            except Exception:  # noqa: BLE001  (no reference: no re-judgement)
                self._ref = None
        return self._ref


class OutputJudge:
    """Checks W locals of output k against the full output for one variant."""

    def __init__(self, k, want, locals_, variant, tol, comp, input_scale, full_input_scale,
                 special=False):
        self.k, self.want, self.locals, self.variant = k, want, locals_, variant
        # A case of special values: R and S outputs by shape only
        # (shrt/engine/output_check.h CheckContext::special_inputs).
        self.special = special
        self.tol, self.comp, self.input_scale = tol, comp, input_scale
        self.full_input_scale = full_input_scale
        self.w = len(locals_)
        self.bad_dtype = any(t.dtype != want.dtype for t in locals_)
        self.bad_shape = any(t.shape != want.shape for t in locals_)
        self._stacked = None
        # Floating or complex (complex: judged through real views).
        self.floating = is_inexact(want.dtype)
        prec = comp if REFINEMENTS["a"] else (want.dtype if self.floating else None)
        self.eps = EPS[prec] if prec is not None else 0.0
        # (c) applies to floating outputs of a low-precision computation
        # (complex128 is as precise as float64).
        self.rejudge = (REFINEMENTS["c"] and self.floating and comp is not None
                        and EPS[comp] > EPS[torch.float64])

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
                    b, e = chunk_of(n, self.w, r)
                    shape = list(want.shape)
                    shape[d] = e - b
                    if list(t.shape) != shape:
                        return "shape"
                    pairs.append((t, (d, b, e - b)))
            if self.special:
                return None
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
        reduced = reduce_partial(stacked, op)
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
            stacked = as_float64(stacked)
            reduced = reduce_partial(stacked, op)
            want = as_float64(want)
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
    tol = PRECISIONS[torch.float32]

    def judge(locals_, want=full):
        v = Variant(None, None, [a, b], [want], ref_fn=lambda ins: [ins[0] @ ins[1]])
        return OutputJudge(0, want, locals_, v, tol, torch.float32, 0.0, 0.0)

    k = [chunk_of(512, 3, r) for r in range(3)]
    parts = [a[:, s:e] @ b[s:e] for s, e in k]
    problems = []
    if judge(parts).check(partial("sum")) is not None:
        problems.append("a correct S(1), S(0) -> P(sum) local set fails")
    off = [t.clone() for t in parts]
    off[1][3, 4] += 1e-3
    if judge(off).check(partial("sum")) is None:
        problems.append("a Partial part off by 1e-3 passes")
    rows = [chunk_of(8, 3, r) for r in range(3)]
    shifted = [full[min(s + 1, 7):min(e + 1, 8)] if r == 0 else full[s:e]
               for r, (s, e) in enumerate(rows)]
    shifted[0] = torch.cat([shifted[0], full[-1:]])[:rows[0][1] - rows[0][0]]
    if judge(shifted).check(shard(0)) is None:
        problems.append("a shard off by one row passes")
    if judge([full[s:e] for s, e in rows]).check(shard(0)) is not None:
        problems.append("a correct S(0) local set fails")
    inf = [full - 1, torch.full_like(full, -math.inf)]
    if judge(inf).check(partial("max")) is None:
        problems.append("P(max) passes with a -inf local under a finite full output")
    nan = [full.clone(), full.clone()]
    nan[1][0, 0] = math.nan
    if judge(nan).check(R) is None:
        problems.append("R passes with a NaN where the full output is finite")
    return problems
