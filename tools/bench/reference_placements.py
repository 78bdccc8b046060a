"""Placements, candidate placements and dtype helpers of the eager-PyTorch
reference (tools/bench/reference.py).

A placement is a tuple, ("R",), ("S", dim) or ("P", reduce op), printed
like the C++ report ("S(0), R -> P(sum)"). The dtype helpers say how a
dtype is compared and reduced; complex tensors go through their real view
(shrt/engine/compare.h RealView; the reference.py docstring describes how). The
reference's other modules and tools/bench/differential.py build on these.
"""

import torch


# ---------------------------------------------------------------------------
# Placements (shrt/vocab/placement.h). Candidate order is the canonical order
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
    """A complex tensor as its real view (shrt/engine/compare.h RealView): a
    contiguous float tensor with a trailing dim of 2 (real, imaginary), any
    conjugate bit resolved. Any other tensor unchanged."""
    if not t.dtype.is_complex:
        return t
    return torch.view_as_real(t.resolve_conj().contiguous())


def as_float64(t):
    """`t` in float64; a complex tensor as its real view (in float64)."""
    return real_view(t).to(torch.float64)


def candidate_placements(ndim, dtype):
    """shrt/ops/candidates.cc: R, S(d) per dim, then Partials (none for bool;
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
