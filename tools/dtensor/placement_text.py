"""DTensor placements as ShRT's placement text (shrt/vocab/placement.h, nd_rule.h).

  Replicate()                      R
  Shard(d)                         S(d)
  _StridedShard(d, split_factor=k) _S(d, k), on an N-D mesh
  Partial(op), op in sum, avg, max, min, product
                                   P(op)
  _NormPartial(p)                  _NormP(p), on a 1-D mesh
  _MaskPartial(op, offset_shape, offset_dim)
                                   _MaskP(op, offset_shape[offset_dim]), on
                                   a 1-D mesh
(shrt/vocab/placement.h; ground truth builds both where a rule names them,
shrt/engine/ground_truth.h named_placements).

On an N-D mesh ShRT's ground truth builds neither: a rule using one there
is "not judged" with the placement named, never judged as if it were
P(sum).
"""
import dtensor_private as dt

REDUCE_OPS = ("sum", "avg", "max", "min", "product")


class NotModelled(ValueError):
    """A DTensor placement ShRT cannot judge yet; str() names it."""


def norm_text(norm_type):
    """_NormP(p)'s text with p exact (Python's shortest round-trip repr, as
    shrt/vocab/placement.cc prints it): "_NormP(2)", "_NormP(0.5)"."""
    text = repr(float(norm_type))
    return "_NormP(%s)" % (text[:-2] if text.endswith(".0") else text)


def placement_text(p, nd=False):
    """ShRT's text of DTensor placement `p` (one mesh dim of an N-D mesh if
    `nd`). Raises NotModelled for a placement ShRT does not model
    (_NormPartial and _MaskPartial on an N-D mesh, _StridedShard on a 1-D
    mesh, a Partial of another reduce op, an unknown type)."""
    # Subclasses first: _NormPartial and _MaskPartial are Partials.
    if isinstance(p, (dt.NormPartial, dt.MaskPartial)) and nd:
        raise NotModelled("%r on an N-D mesh" % (p,))
    if isinstance(p, dt.NormPartial):
        return norm_text(p.norm_type)
    if isinstance(p, dt.MaskPartial):
        if p.reduce_op not in REDUCE_OPS or p.offset_shape is None:
            raise NotModelled(repr(p))
        return "_MaskP(%s, %d)" % (p.reduce_op, p.offset_shape[p.offset_dim])
    if isinstance(p, dt.StridedShard):
        if not nd:
            raise NotModelled("%r on a 1-D mesh" % (p,))
        return "_S(%d, %d)" % (p.dim, p.split_factor)
    if isinstance(p, dt.Shard):
        return "S(%d)" % p.dim
    if isinstance(p, dt.Replicate):
        return "R"
    if isinstance(p, dt.Partial) and type(p) is dt.Partial and p.reduce_op in REDUCE_OPS:
        return "P(%s)" % p.reduce_op
    raise NotModelled(repr(p))


def tensor_text(placements):
    """One tensor's placements, one per mesh dim, as a rule writes them:
    "S(0)" on a 1-D mesh, "[S(0), R]" on an N-D one (shrt/vocab/nd_rule.h).
    Raises NotModelled as placement_text."""
    if len(placements) == 1:
        return placement_text(placements[0])
    return "[%s]" % ", ".join(placement_text(p, nd=True) for p in placements)


def rule_text(inputs, outputs):
    """"S(0), R -> S(0)" (1-D) or "[S(0), R], [R, R] -> [S(0), R]" (N-D): a
    rule's text from each input's and output's placements (tuples of DTensor
    placements, one per mesh dim). Raises NotModelled as placement_text."""
    return "%s -> %s" % (", ".join(tensor_text(p) for p in inputs),
                         ", ".join(tensor_text(p) for p in outputs))
