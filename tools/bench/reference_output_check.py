"""The output check of the eager-PyTorch reference (tools/bench/reference.py):
torch.testing's default tolerances and each dtype's epsilon, the value
comparison, the reduction over ranks of Partial locals, and OutputChecker,
which decides whether the W per-rank results of one output form its full
value under a placement. tools/bench/differential.py builds its refined
judgement (differential_output_check.py) on these.
"""

import torch

from reference_distribute import chunk_of
from reference_placements import is_inexact, real_dtype, real_view


# ---------------------------------------------------------------------------
# Output check (shrt/engine/output_check.cc, shrt/engine/compare.cc).

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
