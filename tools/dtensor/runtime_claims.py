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
(_RuleInputs; for a foreach op, whose rules DTensor applies per list
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
                DTensor's single-dim registration (_RuleInputs), or, for an
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


def sample_claims(op, args, mesh_shape, memoize=True, prune=True):
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
    (_RuleInputs; False asks every tuple, to prove the claims the same).
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
        return _ask(op, args, slots, mesh, shape, propagator, info, prune)
    with dt.tensor_meta_memo(propagator), dt.decomposition_memo(propagator):
        return _ask(op, args, slots, mesh, shape, propagator, info, prune)


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


def _ask(op, args, slots, mesh, shape, propagator, info, prune):
    """sample_claims' loop over every input tuple (each tensor's placements
    a tuple, one per mesh dim)."""
    rules, not_judged, rejected = set(), {}, collections.Counter()
    # The arguments an overload that returns nothing writes, by name.
    written = set() if op._schema.returns else {
        a.name for a in op._schema.arguments if a.alias_info is not None and a.alias_info.is_write}
    tuples = unmatched = 0
    schema_of = lambda placements: _schema(op, args, slots, mesh, placements, info)
    possible = None
    if prune and _prunable(op, slots, propagator):
        possible = _RuleInputs(propagator, schema_of, _positional(op, slots),
                               [k for k, (_, _, _, is_out) in enumerate(slots) if is_out])
    elif prune and _foreach_prunable(op, slots, propagator):
        possible = _ElementRuleInputs(propagator, schema_of, slots)
    elif prune and dt.registration_kind(op) == "decomposition":
        possible = _TracedInputs(propagator, schema_of)
    for placements in itertools.product(*(tensor_candidates(m, shape) for _, _, m, _ in slots)):
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


def _prunable(op, slots, propagator):
    """True when _RuleInputs applies: a single-dim registration that DTensor
    does not expand per list element (_foreach_prunable's ops called with a
    tensor list); the tensors of a list (cat's, index_put's indices) are
    rule inputs of their own there."""
    return (op in propagator.op_single_dim_strategy_funcs
            and not (op.name().startswith(_FOREACH_PREFIXES)
                     and any(i is not None for _, i, _, _ in slots)))


def _foreach_prunable(op, slots, propagator):
    """True when _ElementRuleInputs applies: a single-dim registration that
    DTensor expands per list element (dtensor_private.
    foreach_element_rules), called with tensor lists only. A tensor
    outside the lists is compared with the first element's strategy alone
    (_sharding_prop.py, the TupleStrategy branch), so elements are not
    independent there: not pruned; nor with a keyword-only list (out=),
    which DTensor does not split per element."""
    keyword = {a.name for a in op._schema.arguments if a.kwarg_only}
    return (op in propagator.op_single_dim_strategy_funcs
            and op.name().startswith(_FOREACH_PREFIXES)
            and bool(slots)
            and all(i is not None and name not in keyword for name, i, _, _ in slots))


# The overloads DTensor expands per list element when they take a tensor
# list (torch 2.13, single_dim_strategy.py _expand_single_dim_strategy_to_mesh).
_FOREACH_PREFIXES = ("aten::_foreach_", "aten::_amp_foreach_", "aten::_fused_")


def _positional(op, slots):
    """The indices of the slots passed positionally: the tensors whose
    placements DTensor compares with the selected strategy's
    (OpSchema.args_spec). Keyword-only tensors (out=) are never
    redistributed, and their placement in a rule is not compared."""
    keyword = {a.name for a in op._schema.arguments if a.kwarg_only}
    return tuple(k for k, (name, _, _, _) in enumerate(slots) if name not in keyword)


class _RuleInputs:
    """Which input tuples DTensor can claim at all, for a single-dim
    registration (_prunable), so that the others need not be asked.

    At run time DTensor's strategies for a tuple are, on each mesh dim, one
    of the registration's rules as dtensor_private.single_dim_rules builds
    them, filtered, never added to; a claim needs the selected strategy's
    inputs to be the given placements, up to a Replicate index taken to
    _MaskPartial (_partitioned), where only positional tensors are compared
    (_positional), and each out= tensor placed as the strategy's output
    (expand_to_full_mesh_op_strategy drops the others, and with none left
    DTensor raises "min() arg is an empty sequence"). So a tuple whose
    positional placements on some mesh dim are those of no rule, or whose
    out= placements there are not the outputs of a rule with those inputs,
    cannot be claimed.
    The rules depend on the tuple only through the shard types its inputs
    use (placeholders are filled with them): ShRT enumerates no
    _StridedShard, so they are built twice at most, for a tuple with a
    Shard and one without, each from the first such tuple's OpSchema.
    """

    def __init__(self, propagator, schema_of, compared, outs):
        """`schema_of(placements)`: the OpSchema of an input tuple;
        `compared`: the slot indices DTensor compares (_positional); `outs`:
        the out= slots' indices, in the order of the outputs they take."""
        self._propagator = propagator
        self._schema_of = schema_of
        self._compared = compared
        self._outs = outs
        self._rules = {}  # has a Shard -> _claimable's table, or None: ask all

    def may_claim(self, placements):
        """False when DTensor cannot claim the input tuple `placements` (one
        tuple of placements per tensor, one per mesh dim)."""
        flat = [p for t in placements for p in t]
        if any(isinstance(p, dt.StridedShard) for p in flat):
            return True  # placeholders fill with its split factor
        kind = any(isinstance(p, dt.Shard) for p in flat)
        if kind not in self._rules:
            self._rules[kind] = self._claimable(placements)
        table = self._rules[kind]
        if table is None:
            return True
        for d in range(len(placements[0])):
            outputs = table.get(tuple(placements[k][d] for k in self._compared))
            if outputs is None:
                return False
            outs = tuple(placements[k][d] for k in self._outs)
            if outs and not any(o[:len(outs)] == outs for o in outputs):
                return False
        return True

    def _claimable(self, placements):
        """_claimable of the rules for `placements`, or None (ask every
        tuple) when DTensor raises building them."""
        try:
            rules = dt.single_dim_rules(self._propagator, self._schema_of(placements))
        except dt.DTensorApiMissing:
            raise  # another torch: say so, never fall back silently
        except Exception:  # DTensor raises on these arguments: ask, and count it
            return None
        return _claimable(rules, len(placements), self._compared)


def _claimable(rules, count, compared):
    """{compared input placements: set of output placement tuples} of
    `rules` ((outputs, inputs) pairs, inputs `count` placements), at the
    positions `compared`, each _MaskPartial also read as the Replicate it is
    taken from (_partitioned); None (ask every tuple) when a rule's length
    or a None input leaves its positions unclear."""
    table = collections.defaultdict(set)
    for outputs, inputs in rules:
        if len(inputs) != count:
            return None
        key = tuple(inputs[k] for k in compared)
        if None in key:
            return None
        table[key].add(outputs)
        table[tuple(dt.Replicate() if isinstance(p, dt.MaskPartial) else p
                    for p in key)].add(outputs)
    return table


class _ElementRuleInputs:
    """_RuleInputs per list element, for a foreach op (_foreach_prunable).

    DTensor builds and selects each element's strategy on its own and claims
    a call only when no element is redistributed
    (dtensor_private.foreach_element_rules), so a tuple in which some
    element's tensors, on some mesh dim, are placed as the inputs of none
    of that element's rules cannot be claimed. An element's rules depend on
    the tuple only through the shard types its own inputs use: they are
    built at most twice per element, as in _RuleInputs.
    """

    def __init__(self, propagator, schema_of, slots):
        """`schema_of(placements)`: the OpSchema of an input tuple; `slots`:
        the call's tensor slots (_tensor_slots), all list elements."""
        self._propagator = propagator
        self._schema_of = schema_of
        self._elements = collections.defaultdict(list)  # element -> its slot indices
        for k, (_, i, _, _) in enumerate(slots):
            self._elements[i].append(k)
        self._rules = {}  # (element, has a Shard) -> _claimable's table, or None

    def may_claim(self, placements):
        """False when DTensor cannot claim the input tuple `placements`."""
        for i, members in self._elements.items():
            flat = [p for k in members for p in placements[k]]
            if any(isinstance(p, dt.StridedShard) for p in flat):
                continue
            key = (i, any(isinstance(p, dt.Shard) for p in flat))
            if key not in self._rules:
                self._rules[key] = self._claimable(i, members, placements)
            table = self._rules[key]
            if table is None:
                continue
            if not all(tuple(placements[k][d] for k in members) in table
                       for d in range(len(placements[0]))):
                return False
        return True

    def _claimable(self, index, members, placements):
        try:
            rules = dt.foreach_element_rules(self._propagator, self._schema_of(placements), index)
        except dt.DTensorApiMissing:
            raise
        except Exception:  # DTensor raises on these arguments: ask, and count it
            return None
        return _claimable(rules, len(members), range(len(members)))


class _TracedInputs:
    """Which input tuples DTensor can claim at all for an overload it
    shards through its decomposition, so that the others need not be asked.

    The strategies of the decomposition path are its candidate single-dim
    tuples that trace (dtensor_private.decomposition_traces), expanded to
    the mesh and filtered, never added to; a claim needs the selected
    strategy's inputs to be the given placements, so a tuple whose
    placements on some mesh dim do not trace cannot be claimed. Asking
    every tuple costs the expansion and the min-cost selection over all
    candidates per tuple; most tuples (a Partial where the decomposition
    would redistribute) do not trace.
    """

    def __init__(self, propagator, schema_of):
        """`schema_of(placements)`: the OpSchema of an input tuple."""
        self._propagator = propagator
        self._schema_of = schema_of

    def may_claim(self, placements):
        """False when DTensor cannot claim the input tuple `placements`."""
        schema = self._schema_of(placements)
        return all(dt.decomposition_traces(self._propagator, schema, d)
                   for d in range(len(placements[0])))


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
