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
  function, or the decomposition path (an overload without a registered
  rule: DecompShardingStrategy traces its decomposition for every candidate
  single-dim placement tuple, then expands and filters as above; the traces
  are memoized per sample, dtensor_private.decomposition_memo); and the
  min-cost selection;
- the input tuple is claimed when the selection needs no redistribution,
  or only the local one that takes indices from Replicate to _MaskPartial
  (embedding's and gather's row-wise rules), claimed with the _MaskPartial
  input it runs with.

Every input tuple ShRT enumerates is considered (shrt/ops/candidates.h: R, S(d)
for every dim, every Partial; Bool tensors no Partial; integer dtypes
narrower than 32 bits no P(avg)), out= tensors included, whose placement
must then equal the output's (DTensor skips a strategy otherwise) and which
are not rule inputs (shrt/ops/variant_rules.h). For a single-dim registration,
a tuple whose positional tensors are placed as the inputs of none of its
rules is counted "unmatched" and not asked: DTensor cannot claim it
(unclaimable.RuleInputs; for a foreach op, whose rules DTensor applies per list
element, a tuple with such an element: _ElementRuleInputs), and asking such
tuples was most of the time spent. Every other tuple is asked.

Every sample is asked from one state of DTensor (dtensor_private.settle:
every decomposed overload's schema info registered, the sharding caches
empty), since DTensor's answers otherwise depend on what the process asked
before.

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
import unclaimable

_NO_AVG = (torch.int8, torch.uint8, torch.int16)


def candidate_placements(meta):
    """The DTensor placements ShRT enumerates for a tensor of TensorMeta
    `meta` (shrt/ops/candidates.h CandidatePlacements), in ShRT's order."""
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
    unmatched:  input tuples not asked, because on some mesh dim their
                positional tensors are placed as the inputs of no rule of
                DTensor's single-dim registration (unclaimable.RuleInputs), or, for an
                overload sharded through its decomposition, their
                placements do not trace through it (_TracedInputs): DTensor
                cannot claim them.
    """
    rules: list
    not_judged: dict
    rejected: dict
    tuples: int
    unmatched: int = 0


def prepare(mesh_shape):
    """Does once what sample_claims would do first on a mesh of
    `mesh_shape`: the fake process group and mesh, and
    dtensor_private.settle's registrations; for a process that forks
    askers, so that none of them repeats it."""
    fake_mesh((mesh_shape,) if isinstance(mesh_shape, int) else tuple(mesh_shape))
    dt.settle(dt.sharding_propagator())


class TooManyAsked(Exception):
    """sample_claims would ask more input tuples than its `max_asked`
    (args[0])."""


def sample_claims(op, args, mesh_shape, memoize=True, prune=True, max_asked=0):
    """DTensor's claims (SampleClaims) on a mesh of `mesh_shape` (an int W:
    the 1-D mesh of W ranks, with 1-D rules; a tuple: an N-D mesh, with N-D
    rules, "[S(0), R], [R, R] -> [S(0), R]") for OpOverload `op` called with
    `args`: {schema argument name: value}, tensors as dt.TensorMeta, tensor
    lists as lists of dt.TensorMeta (None for an absent optional element),
    other arguments as Python values; arguments left out take their
    defaults. `memoize`: reuse the output metadata and the decomposition
    path's traces across placements (dtensor_private.tensor_meta_memo,
    decomposition_memo; False only to measure their gain).
    `prune`: leave unasked the input tuples DTensor cannot claim
    (unclaimable.tuple_filter; False asks every tuple, to prove the claims the same).
    `max_asked`: raise TooManyAsked, before asking any, when more tuples
    than this would be asked (0: no limit); the tuples left unasked by
    pruning do not count.
    Raises KeyError naming an argument the schema lacks."""
    known = {a.name for a in op._schema.arguments}
    for name in args:
        if name not in known:
            raise KeyError("%s has no argument %r" % (op, name))
    shape = (mesh_shape,) if isinstance(mesh_shape, int) else tuple(mesh_shape)
    mesh = fake_mesh(shape)
    propagator = dt.sharding_propagator()
    dt.settle(propagator)
    # The registration's RuntimeSchemaInfo, looked up as dispatch does.
    info = propagator.op_to_schema_info.get(op)
    if info is None:
        info = propagator.op_to_schema_info_for_single_dim_strategy.get(op)

    slots = _tensor_slots(op, args)
    if not memoize:
        return _ask(op, args, slots, mesh, shape, propagator, info, prune, max_asked)
    with dt.tensor_meta_memo(propagator), dt.decomposition_memo(propagator):
        return _ask(op, args, slots, mesh, shape, propagator, info, prune, max_asked)


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


def enumerated_count(op, args, mesh_shape):
    """The input tuples sample_claims enumerates to find those it asks:
    tuple_count, without the out= tensors' where a single-dim registration's
    rules give their placements (unclaimable.RuleInputs.claimable)."""
    shape = (mesh_shape,) if isinstance(mesh_shape, int) else tuple(mesh_shape)
    slots = _tensor_slots(op, args)
    factored = unclaimable.factors_outs(op, slots, dt.sharding_propagator())
    return math.prod(len(tensor_candidates(m, shape)) for _, _, m, is_out in slots
                     if not (factored and is_out))


def prunes_by_rules(op, args):
    """True when sample_claims, called with `args`, leaves the tuples
    DTensor cannot claim unasked by a lookup in its single-dim rules
    (unclaimable.prunes_by_rules): then max_asked bounds its cost."""
    return unclaimable.prunes_by_rules(op, _tensor_slots(op, args), dt.sharding_propagator())


def _ask(op, args, slots, mesh, shape, propagator, info, prune, max_asked):
    """sample_claims' loop over every input tuple (each tensor's placements
    a tuple, one per mesh dim)."""
    rules, not_judged, rejected = set(), {}, collections.Counter()
    # The arguments an overload that returns nothing writes, by name.
    written = set() if op._schema.returns else {
        a.name for a in op._schema.arguments if a.alias_info is not None and a.alias_info.is_write}
    tuples = unmatched = 0
    schema_of = lambda placements: _schema(op, args, slots, mesh, placements, info)
    possible = unclaimable.tuple_filter(op, slots, propagator, schema_of) if prune else None
    candidates = [tensor_candidates(m, shape) for _, _, m, _ in slots]
    every = itertools.product(*candidates)
    if isinstance(possible, unclaimable.RuleInputs):
        # The tuples to ask, found without enumerating the out= slots'
        # product (RuleInputs.claimable).
        every = possible.claimable(candidates)
        unmatched = math.prod(len(c) for c in candidates) - len(every)
        possible = None
        if max_asked and len(every) > max_asked:
            raise TooManyAsked(max_asked)
    elif max_asked:
        # The tuples to ask, found before asking any. Otherwise each is
        # filtered just before it is asked: a decomposition's traces change
        # what DTensor's process claims next (test_a_claim_does_not_depend_
        # on_what_was_asked_before), so that order is kept.
        claimable = []
        for placements in every:
            if possible is None or possible.may_claim(placements):
                claimable.append(placements)
                if len(claimable) > max_asked:
                    raise TooManyAsked(max_asked)
            else:
                unmatched += 1
        every, possible = claimable, None
    for placements in every:
        if possible is not None and not possible.may_claim(placements):
            unmatched += 1
            continue
        tuples += 1
        schema = schema_of(placements)
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
            # written tensors are the outputs (shrt/ops/op_lookup.h
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
    return SampleClaims(sorted(rules), not_judged, dict(rejected), tuples, unmatched)


def _schema(op, args, slots, mesh, placements, info):
    """The OpSchema DTensor's dispatch builds for `op` called with `args`,
    the tensors of `slots` placed as `placements` on `mesh` (tensor lists
    kept as lists, the registration's RuntimeSchemaInfo `info`). As the
    dispatcher hands a call to Python (torch/csrc/autograd/python_variable.cpp,
    parseIValuesToPyArgsKwargs), an argument left out takes its default, and
    trailing positional arguments and keyword-only ones equal to their
    defaults are dropped: torch.histc(x, bins=4) reaches DTensor as (x, 4),
    with min and max absent, whatever the call spelled out."""
    specs = {}
    for (name, i, meta, _), p in zip(slots, placements):
        specs[(name, i)] = dt.DTensorSpec(mesh, p, tensor_meta=meta)
    positional, keyword = [], {}
    for a in op._schema.arguments:
        if a.name in args:
            v = args[a.name]
        elif a.has_default_value():
            v = a.default_value
        else:
            continue  # an out= tensor the request leaves out
        if isinstance(v, dt.TensorMeta):
            v = specs[(a.name, None)]
        elif isinstance(v, (list, tuple)) and any(isinstance(e, dt.TensorMeta) for e in v):
            v = [specs[(a.name, i)] if e is not None else None for i, e in enumerate(v)]
        if a.kwarg_only:
            if not _is_default(a, v):
                keyword[a.name] = v
        else:
            positional.append((a, v))
    while positional and _is_default(*positional[-1]):
        positional.pop()
    return dt.OpSchema(op, tuple(v for _, v in positional), keyword, schema_info=info)


def _is_default(arg, value):
    """True when `value` equals schema argument `arg`'s default as the
    dispatcher compares them (IValue equality: of the same type, so 1.0 is
    not an int default 1); never for a placed tensor."""
    if not arg.has_default_value():
        return False
    return _same_value(value, arg.default_value)


def _same_value(a, b):
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        return (isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == len(b)
                and all(_same_value(x, y) for x, y in zip(a, b)))
    if isinstance(a, dt.DTensorSpec) or isinstance(b, dt.DTensorSpec):
        return False
    return type(a) is type(b) and a == b


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
