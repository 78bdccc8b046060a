"""The rules DTensor accepts at run time for one sample on a 1-D mesh.

A rule "inputs -> outputs" is DTensor's claim for a sample when DTensor,
called on DTensors of that sample's shapes, strides and dtypes placed as
`inputs` on a mesh of `world_size` ranks, runs the operator on the local
tensors as they are (no redistribution of any input) and labels the
results `outputs`. That is the question ShRT's ground truth answers, so
every step DTensor takes between the registered strategy function and the
local call is DTensor's own, not a re-implementation:

- the OpSchema is built as DTensor's dispatch builds it (torch 2.13,
  torch/distributed/tensor/_dispatch.py, OpDispatcher._unwrap_to_op_info_impl:
  the registration's RuntimeSchemaInfo, tensor lists kept as lists);
- ShardingPropagator.propagate_op_sharding_non_cached (_sharding_prop.py)
  then does what it does at run time: fake-tensor output metadata, the
  single-dim strategy expanded by _expand_single_dim_strategy_to_mesh
  (placeholders filled from the input placements, the implicit all-Replicate
  rule, foreach ops per element) and expand_to_full_mesh_op_strategy
  (mixed Partials, in-place self, out= placement, is_tensor_shardable and
  the registration's uneven and unbacked flags), or the register_op_strategy
  function, or the decomposition path; and the min-cost selection;
- the input tuple is claimed when the selection needs no redistribution,
  or only the local one that takes indices from Replicate to _MaskPartial
  (embedding's and gather's row-wise rules), claimed with the _MaskPartial
  input it runs with.

Every input tuple ShRT enumerates is asked (shrt/candidates.h: R, S(d) for
every dim, every Partial; Bool tensors no Partial; integer dtypes narrower
than 32 bits no P(avg)), out= tensors included, whose placement must then
equal the output's (DTensor skips a strategy otherwise) and which are not
rule inputs (shrt/variant_rules.h).

What is not a claim ShRT can judge is counted, never dropped:
- "not judged": a selection whose placements ShRT does not model
  (placement_text.NotModelled; on a mesh, an output Partial of two reduce
  ops), whose output is undefined (None), or for
  which DTensor rewrites non-tensor arguments before the local call
  (use_val_from_redistribute_schema: view sizes, group_norm's N/C/HxW),
  since ShRT's ground truth calls the operator with the sample's own;
- "rejected": input tuples DTensor raises on (e.g. an in-place op whose
  self would have to change placement), with each distinct message once.
"""
import collections
import dataclasses
import itertools
import math

import torch
import torch.distributed as dist

import dtensor_private as dt
import placement_text

_NO_AVG = (torch.int8, torch.uint8, torch.int16)


def candidate_placements(meta):
    """The DTensor placements ShRT enumerates for a tensor of TensorMeta
    `meta` (shrt/candidates.h CandidatePlacements), in ShRT's order."""
    out = [dt.Replicate()] + [dt.Shard(d) for d in range(len(meta.shape))]
    if meta.dtype == torch.bool:
        return out
    for op in placement_text.REDUCE_OPS:
        if op == "avg" and meta.dtype in _NO_AVG:
            continue
        out.append(dt.Partial(op))
    return out


def tensor_candidates(meta, mesh_shape):
    """The placement tuples (one placement per mesh dim) ShRT enumerates for
    a tensor on a mesh of `mesh_shape`: candidate_placements on each mesh
    dim, without Partials of two reduce ops (not a valid DTensor placement,
    PyTorch #172610; DESIGN.md §9)."""
    out = []
    for t in itertools.product(candidate_placements(meta), repeat=len(mesh_shape)):
        ops = {p.reduce_op for p in t if isinstance(p, dt.Partial)}
        if len(ops) <= 1:
            out.append(t)
    return out


def fake_mesh(mesh_shape):
    """A DeviceMesh of `mesh_shape` (an int: a 1-D mesh of that many ranks)
    on a "fake" process group in this process (rank 0), re-created when the
    number of ranks changes."""
    shape = (mesh_shape,) if isinstance(mesh_shape, int) else tuple(mesh_shape)
    world_size = math.prod(shape)
    if dist.is_initialized() and dist.get_world_size() != world_size:
        dist.destroy_process_group()
    if not dist.is_initialized():
        dist.init_process_group("fake", store=dt.FakeStore(), rank=0, world_size=world_size)
    if len(shape) == 1:
        return dt.DeviceMesh("cpu", list(range(world_size)))
    return dt.DeviceMesh("cpu", torch.arange(world_size).reshape(shape))


@dataclasses.dataclass
class SampleClaims:
    """DTensor's claims for one sample at one world size.

    rules:      rule texts ("S(0), R -> S(0)"), sorted, without the implicit
                all-Replicate rule.
    not_judged: {input placements text: reason} for selections ShRT cannot
                judge (see the module docstring).
    rejected:   {DTensor's error message: number of input tuples}.
    tuples:     input tuples asked.
    """
    rules: list
    not_judged: dict
    rejected: dict
    tuples: int


def sample_claims(op, args, mesh_shape, memoize=True):
    """DTensor's claims (SampleClaims) on a mesh of `mesh_shape` (an int W:
    the 1-D mesh of W ranks, with 1-D rules; a tuple: an N-D mesh, with N-D
    rules, "[S(0), R], [R, R] -> [S(0), R]") for OpOverload `op` called with
    `args`: {schema argument name: value}, tensors as dt.TensorMeta, tensor
    lists as lists of dt.TensorMeta (None for an absent optional element),
    other arguments as Python values; arguments left out take their
    defaults. `memoize`: reuse the output metadata across placements
    (dtensor_private.tensor_meta_memo; False only to measure its gain).
    Raises KeyError naming an argument the schema lacks."""
    known = {a.name for a in op._schema.arguments}
    for name in args:
        if name not in known:
            raise KeyError("%s has no argument %r" % (op, name))
    shape = (mesh_shape,) if isinstance(mesh_shape, int) else tuple(mesh_shape)
    mesh = fake_mesh(shape)
    propagator = dt.sharding_propagator()
    # The registration's RuntimeSchemaInfo, looked up as dispatch does.
    info = propagator.op_to_schema_info.get(op)
    if info is None:
        info = propagator.op_to_schema_info_for_single_dim_strategy.get(op)

    slots = _tensor_slots(op, args)
    if not memoize:
        return _ask(op, args, slots, mesh, shape, propagator, info)
    with dt.tensor_meta_memo(propagator):
        return _ask(op, args, slots, mesh, shape, propagator, info)


def _tensor_slots(op, args):
    """The tensor slots of a call in schema order: (argument name, list index
    or None, meta, is_out)."""
    slots = []
    for a in op._schema.arguments:
        v = args.get(a.name)
        if isinstance(v, dt.TensorMeta):
            slots.append((a.name, None, v, a.is_out))
        elif isinstance(v, (list, tuple)) and any(isinstance(e, dt.TensorMeta) for e in v):
            slots += [(a.name, i, e, a.is_out) for i, e in enumerate(v) if e is not None]
    return slots


def tuple_count(op, args, mesh_shape):
    """The number of input tuples sample_claims asks DTensor about for the
    same arguments: the product of each tensor's candidate placement tuples
    (tensor_candidates), out= tensors included."""
    shape = (mesh_shape,) if isinstance(mesh_shape, int) else tuple(mesh_shape)
    return math.prod(len(tensor_candidates(m, shape)) for _, _, m, _ in _tensor_slots(op, args))


def _ask(op, args, slots, mesh, shape, propagator, info):
    """sample_claims' loop over every input tuple (each tensor's placements
    a tuple, one per mesh dim)."""
    rules, not_judged, rejected = set(), {}, collections.Counter()
    # The arguments an overload that returns nothing writes, by name.
    written = set() if op._schema.returns else {
        a.name for a in op._schema.arguments if a.alias_info is not None and a.alias_info.is_write}
    tuples = 0
    for placements in itertools.product(*(tensor_candidates(m, shape) for _, _, m, _ in slots)):
        tuples += 1
        specs = {}
        for (name, i, meta, _), p in zip(slots, placements):
            specs[(name, i)] = dt.DTensorSpec(mesh, p, tensor_meta=meta)
        positional, keyword = [], {}
        for a in op._schema.arguments:
            if a.name not in args:
                continue  # its default
            v = args[a.name]
            if isinstance(v, dt.TensorMeta):
                v = specs[(a.name, None)]
            elif isinstance(v, (list, tuple)) and any(isinstance(e, dt.TensorMeta) for e in v):
                v = [specs[(a.name, i)] if e is not None else None for i, e in enumerate(v)]
            if a.kwarg_only:
                keyword[a.name] = v
            else:
                positional.append(v)
        schema = dt.OpSchema(op, tuple(positional), keyword, schema_info=info)
        try:
            sharding = propagator.propagate_op_sharding_non_cached(schema)
        except Exception as e:  # DTensor refuses these inputs at run time
            rejected[str(e).split("\n")[0][:300]] += 1
            continue
        inputs = [p for (_, _, _, is_out), p in zip(slots, placements) if not is_out]
        outs = [p for (_, _, _, is_out), p in zip(slots, placements) if is_out]
        # needs_redistribute: an input's placement must change, or (with
        # use_val_from_redistribute_schema) non-tensor arguments are rewritten.
        rewritten = False
        if sharding.needs_redistribute:
            masked = _partitioned(schema, sharding)
            if masked is not None:
                inputs = [p for (_, _, _, is_out), p in zip(slots, masked) if not is_out]
            elif not sharding.use_val_from_redistribute_schema:
                continue
            else:
                wanted = [s.placements for s in sharding.redistribute_schema.args_spec]
                if wanted != [s.placements for s in schema.args_spec]:
                    continue
                rewritten = True
        key = ", ".join(_text_or_name(p) for p in inputs)
        if written:
            # An overload that returns nothing writes its results into
            # arguments, which keep their placements (an in-place self
            # cannot be redistributed): DTensor's output is None, the
            # written tensors are the outputs (shrt/op_lookup.h
            # WrittenArgumentsAsOutputs).
            outputs = [p for (name, _, _, _), p in zip(slots, placements) if name in written]
        else:
            out_specs = sharding.output_spec
            out_specs = out_specs if isinstance(out_specs, (tuple, list)) else (out_specs,)
            if any(s is None for s in out_specs):
                not_judged[key] = "an output's placement is undefined (None)"
                continue
            outputs = [tuple(s.placements) for s in out_specs]
        if outs and outs != outputs[:len(outs)]:
            continue  # out= placed otherwise: not a claim for this out= placement
        if rewritten:
            not_judged[key] = ("DTensor rewrites non-tensor arguments for the local call "
                               "(use_val_from_redistribute_schema)")
            continue
        if any(_mixed_partial(t) for t in outputs):
            not_judged[key] = ("an output Partial of two reduce ops on one tensor, which ShRT's "
                               "N-D layout does not model (DESIGN.md §9)")
            continue
        try:
            rule = placement_text.rule_text(inputs, outputs)
        except placement_text.NotModelled as e:
            not_judged[key] = "placement not modelled by ShRT: %s" % e
            continue
        if all(isinstance(p, dt.Replicate) for t in inputs + outputs for p in t):
            continue  # the implicit all-Replicate rule
        rules.add(rule)
    return SampleClaims(sorted(rules), not_judged, dict(rejected), tuples)


def _partitioned(schema, sharding):
    """The input placements DTensor runs the local call with when the only
    redistribution it asks for takes an index tensor from Replicate to
    _MaskPartial (embedding's and gather's row-wise rules): that step is
    local, each rank masking and shifting its copy of the indices
    (placement_types.py _MaskPartial._partition_value), so the rule DTensor
    applies is the one with the _MaskPartial input (ShRT's _MaskP builds it
    from the indices the same way). None for any other redistribution."""
    if sharding.use_val_from_redistribute_schema or sharding.redistribute_schema is None:
        return None
    given = [tuple(s.placements) for s in schema.args_spec]
    wanted = [tuple(s.placements) for s in sharding.redistribute_schema.args_spec]
    if len(given) != len(wanted):
        return None
    masked = False
    for g, w in zip(given, wanted):
        if g == w:
            continue
        if not (all(isinstance(p, dt.Replicate) for p in g)
                and all(isinstance(p, dt.MaskPartial) for p in w)):
            return None
        masked = True
    return wanted if masked else None


def _mixed_partial(placements):
    """True if a tensor's placements (one per mesh dim) hold Partials of two
    reduce ops, e.g. [P(sum), P(avg)]."""
    return len({p.reduce_op for p in placements if isinstance(p, dt.Partial)}) > 1


def _text_or_name(p):
    try:
        return placement_text.tensor_text(p)
    except placement_text.NotModelled:
        return repr(p)
