"""Per-rank locals of the eager-PyTorch reference (tools/bench/reference.py):
rank r's local of a full tensor under a placement, a copy for R, chunk r
(torch.chunk layout) for S(d), and for P(op) one of W fresh parts drawn so
that their reduction over ranks gives the full tensor back (sum, avg,
max/min, product; complex tensors through their real view). `chunk_of` is
also the layout the output check (reference_output_check.py) expects of an
S(d) output.
"""

import math

import torch

from reference_generators import random_sign, rng, to_dtype, uniform
from reference_placements import real_view


# ---------------------------------------------------------------------------
# Per-rank locals (shrt/engine/distribute.cc, shrt/vocab/mesh.cc).

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


def finite_max_abs(t):
    """max |x| over the finite elements (0 if none); a complex tensor's over
    its real view (shrt/engine/compare.cc FiniteMaxAbs)."""
    if t.numel() == 0:
        return 0.0
    a = real_view(t).abs()
    a = a[torch.isfinite(a)]
    return float(a.max()) if a.numel() else 0.0


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
    max_abs = finite_max_abs(target)
    shape = tuple(target.shape)
    hold = _holders(shape, w, g)
    noise = uniform((w,) + shape, -2.0, 2.0, g) * (max_abs + 1)
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
    gap = uniform((w,) + shape, 0.5, 2.0, g) * rng_
    if integral:
        gap = gap.round().clamp_min(1.0)
    t = target.unsqueeze(0)
    # +inf under max (-inf under min) and nan: the others hold finite values
    # on both sides of the largest (smallest) finite value (distribute.h).
    unbounded = torch.isnan(t) | (t == (math.inf if is_max else -math.inf))
    base = torch.where(unbounded, torch.full_like(t, hi if is_max else lo), t)
    # Above the base on even ranks, below on odd ones (distribute.h).
    side = torch.tensor([1.0 if r % 2 else -1.0 for r in range(w)],
                        dtype=gap.dtype).view((w,) + (1,) * len(shape))
    gap = torch.where(unbounded, gap * side, gap)
    v = base - gap if is_max else base + gap
    if not integral:
        v = _round_to(v, dtype)
        top = torch.finfo(dtype).max
        v = torch.where(torch.isfinite(v) | ~torch.isfinite(base), v,
                        torch.full_like(v, -top if is_max else top))
        # Keep the bound strict after rounding to the dtype.
        v = torch.where(v > t, t, v) if is_max else torch.where(v < t, t, v)
    return torch.where(hold, t, v)


def product_parts(target, w, dtype, g):
    integral = not dtype.is_floating_point
    shape = tuple(target.shape)
    hold = _holders(shape, w, g)
    if integral:
        f = random_sign((w,) + shape, g)
    else:
        f = _round_to(random_sign((w,) + shape, g) * uniform((w,) + shape, 0.5, 2.0, g), dtype)
    f.masked_fill_(hold, 1.0)
    others = f.prod(0)
    if not integral:
        # A finite non-zero value whose holder's part would overflow or fall
        # below the smallest normal value gets factors of +-1 (distribute.h).
        h = _round_to(target / others, dtype)
        tiny = torch.finfo(dtype).tiny
        fix = torch.isfinite(target) & (target != 0) & ~(torch.isfinite(h) & (h.abs() >= tiny))
        f = torch.where(fix.unsqueeze(0), torch.sign(f), f)
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
