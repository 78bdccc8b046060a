"""Which input tuples DTensor cannot claim, so that runtime_claims need not
ask it about them (the claims equal those of asking every tuple:
runtime_claims_test UnmatchedTuplesTest).

tuple_filter picks the filter for a call: RuleInputs for a single-dim
registration (its rules' inputs, and their outputs for out= tensors),
_ElementRuleInputs for a foreach op (the same per list element),
_TracedInputs for an overload DTensor shards through its decomposition (the
tuples that trace); None for an op strategy, whose function may read the
input placements (every tuple is asked).
"""
import collections
import itertools

import dtensor_private as dt


def tuple_filter(op, slots, propagator, schema_of):
    """An object whose may_claim(placements) is False for the input tuples
    of OpOverload `op` DTensor cannot claim, or None (ask every tuple).
    `slots`: the call's tensor slots (runtime_claims._tensor_slots: argument
    name, list index or None, meta, is_out); `schema_of(placements)`: the
    OpSchema DTensor's dispatch builds for an input tuple."""
    if _prunable(op, slots, propagator):
        return RuleInputs(propagator, schema_of, _positional(op, slots),
                           [k for k, (_, _, _, is_out) in enumerate(slots) if is_out])
    if _foreach_prunable(op, slots, propagator):
        return _ElementRuleInputs(propagator, schema_of, slots, _keyword(op))
    if dt.registration_kind(op) == "decomposition":
        return _TracedInputs(propagator, schema_of)
    return None


def prunes_by_rules(op, slots, propagator):
    """True when tuple_filter leaves out the tuples DTensor cannot claim by
    looking its single-dim rules up (RuleInputs, _ElementRuleInputs), at
    about the cost of a table lookup per tuple."""
    return _prunable(op, slots, propagator) or _foreach_prunable(op, slots, propagator)


def factors_outs(op, slots, propagator):
    """True when tuple_filter gives a RuleInputs, whose claimable never
    enumerates the out= tensors' placements."""
    return _prunable(op, slots, propagator)


def _prunable(op, slots, propagator):
    """True when RuleInputs applies: a single-dim registration that DTensor
    does not expand per list element (_foreach_prunable's ops called with a
    tensor list); the tensors of a list (cat's, index_put's indices) are
    rule inputs of their own there."""
    return (op in propagator.op_single_dim_strategy_funcs
            and not (op.name().startswith(_FOREACH_PREFIXES)
                     and any(i is not None for _, i, _, _ in slots)))


def _foreach_prunable(op, slots, propagator):
    """True when _ElementRuleInputs applies: a single-dim registration that
    DTensor expands per list element (dtensor_private.
    foreach_element_rules), called with positional tensor lists, beside
    which single tensors may be passed (the fused optimizers' lr); not with
    a keyword-only list (out=), which DTensor does not split per element."""
    keyword = _keyword(op)
    return (op in propagator.op_single_dim_strategy_funcs
            and op.name().startswith(_FOREACH_PREFIXES)
            and any(i is not None for _, i, _, _ in slots)
            and not any(i is not None and name in keyword for name, i, _, _ in slots))


def _keyword(op):
    """The names of `op`'s keyword-only arguments."""
    return {a.name for a in op._schema.arguments if a.kwarg_only}


# The overloads DTensor expands per list element when they take a tensor
# list (torch 2.13, single_dim_strategy.py _expand_single_dim_strategy_to_mesh).
_FOREACH_PREFIXES = ("aten::_foreach_", "aten::_amp_foreach_", "aten::_fused_")


def _positional(op, slots):
    """The indices of the slots passed positionally: the tensors whose
    placements DTensor compares with the selected strategy's
    (OpSchema.args_spec). Keyword-only tensors (out=) are never
    redistributed, and their placement in a rule is not compared."""
    keyword = _keyword(op)
    return tuple(k for k, (name, _, _, _) in enumerate(slots) if name not in keyword)


class RuleInputs:
    """Which input tuples DTensor can claim at all, for a single-dim
    registration (_prunable), so that the others need not be asked.

    At run time DTensor's strategies for a tuple are, on each mesh dim, one
    of the registration's rules as dtensor_private.single_dim_rules builds
    them, filtered, never added to; a claim needs the selected strategy's
    inputs to be the given placements, up to a Replicate index taken to
    _MaskPartial (runtime_claims._partitioned), where only positional tensors are compared
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

    def claimable(self, candidates):
        """The tuples of itertools.product(*candidates) (`candidates`: per
        slot, its candidate placement tuples) that may_claim accepts, in
        that order when the out= slots come last (they are keyword-only).
        The product of the out= slots is never enumerated: for each tuple
        of the other slots, only the out= placements some rule outputs for
        them are tried (_out_tuples), so an out= overload costs about what
        its functional does."""
        if not self._outs:
            return [p for p in itertools.product(*candidates) if self.may_claim(p)]
        outs = set(self._outs)
        rest = [k for k in range(len(candidates)) if k not in outs]
        every = [candidates[k] for k in self._outs]
        rank = [{c: i for i, c in enumerate(cands)} for cands in every]
        found = []
        for head in itertools.product(*(candidates[k] for k in rest)):
            placements = [None] * len(candidates)
            for k, p in zip(rest, head):
                placements[k] = p
            for tail in self._out_tuples(placements, every, rank):
                for k, p in zip(self._outs, tail):
                    placements[k] = p
                if self.may_claim(placements):
                    found.append(tuple(placements))
        return found

    def _out_tuples(self, placements, every, rank):
        """The out= slots' candidate tuples (`every`: per out= slot, its
        candidate placement tuples; `rank`: per out= slot, each candidate's
        position in it), in product order, that on every
        mesh dim are placed as the outputs of some rule whose compared
        inputs are `placements`' (its out= entries are ignored): a superset
        of those may_claim accepts, taken from the rules of both shard
        types where the other slots hold no Shard (an out= Shard selects
        the other rules); every candidate when a table is unknown (DTensor
        raised building it) or a _StridedShard is placed."""
        others = [p for k, t in enumerate(placements) if k not in self._outs for p in t]
        if any(isinstance(p, dt.StridedShard) for p in others):
            return itertools.product(*every)
        kinds = [True] if any(isinstance(p, dt.Shard) for p in others) else [True, False]
        tables = []
        for kind in kinds:
            if kind not in self._rules:
                sample = self._sample_outs(placements, every, kind)
                if sample is None:
                    continue  # no out= candidate makes this shard type
                self._rules[kind] = self._claimable(sample)
            if self._rules[kind] is None:
                return itertools.product(*every)
            tables.append(self._rules[kind])
        n = len(self._outs)
        per_dim = []  # per mesh dim, the out= placements some rule outputs
        for d in range(len(placements[self._compared[0]]) if self._compared else 0):
            key = tuple(placements[k][d] for k in self._compared)
            per_dim.append({o[:n] for table in tables for o in table.get(key, ())})
        tails = []
        for combo in itertools.product(*per_dim):
            tail = tuple(tuple(combo[d][j] for d in range(len(combo))) for j in range(n))
            if all(tail[j] in rank[j] for j in range(n)):
                tails.append(tail)
        return sorted(tails, key=lambda tail: [rank[j][tail[j]] for j in range(n)])

    def _sample_outs(self, placements, every, kind):
        """`placements` with out= candidates that, with the other slots,
        make a tuple with a Shard (`kind`) or without one; None when none
        does."""
        for tail in itertools.product(*every):
            full = list(placements)
            for k, p in zip(self._outs, tail):
                full[k] = p
            if any(isinstance(p, dt.StridedShard) for t in full for p in t):
                continue
            if any(isinstance(p, dt.Shard) for t in full for p in t) == kind:
                return full
        return None

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
    taken from (runtime_claims._partitioned); None (ask every tuple) when a rule's length
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
    """RuleInputs per list element, for a foreach op (_foreach_prunable).

    DTensor builds and selects each element's strategy on its own and claims
    a call only when no element is redistributed
    (dtensor_private.foreach_element_rules). It compares each list element
    with its own element's strategy, a positional tensor outside the lists
    with the first element's strategy alone, and a keyword-only one (the
    fused optimizers' lr) with none (torch 2.13, _sharding_prop.py
    propagate_op_sharding_non_cached, the TupleStrategy branch); each
    element's rules take the tensors outside the lists as inputs too. So a
    tuple in which some element's compared tensors, on some mesh dim, are
    placed as those inputs of none of that element's rules cannot be
    claimed. An element's rules depend on the tuple only through the shard
    types its tensors use: they are built at most twice per element, as in
    RuleInputs.
    """

    def __init__(self, propagator, schema_of, slots, keyword):
        """`schema_of(placements)`: the OpSchema of an input tuple; `slots`:
        the call's tensor slots (_tensor_slots); `keyword`: the names of the
        op's keyword-only arguments."""
        self._propagator = propagator
        self._schema_of = schema_of
        shared = [k for k, (_, i, _, _) in enumerate(slots) if i is None]
        lists = collections.defaultdict(list)
        for k, (_, i, _, _) in enumerate(slots):
            if i is not None:
                lists[i].append(k)
        first = min(lists)
        # element -> (its tensors' slot indices, positions compared among them)
        self._elements = {}
        for i, own in lists.items():
            members = sorted(own + shared)
            compared = [j for j, k in enumerate(members)
                        if slots[k][1] is not None or (i == first and slots[k][0] not in keyword)]
            self._elements[i] = (members, compared)
        self._rules = {}  # (element, has a Shard) -> _claimable's table, or None

    def may_claim(self, placements):
        """False when DTensor cannot claim the input tuple `placements`."""
        for i, (members, compared) in self._elements.items():
            flat = [p for k in members for p in placements[k]]
            if any(isinstance(p, dt.StridedShard) for p in flat):
                continue
            key = (i, any(isinstance(p, dt.Shard) for p in flat))
            if key not in self._rules:
                self._rules[key] = self._claimable(i, len(members), compared, placements)
            table = self._rules[key]
            if table is None:
                continue
            if not all(tuple(placements[members[j]][d] for j in compared) in table
                       for d in range(len(placements[0]))):
                return False
        return True

    def _claimable(self, index, count, compared, placements):
        try:
            rules = dt.foreach_element_rules(self._propagator, self._schema_of(placements), index)
        except dt.DTensorApiMissing:
            raise
        except Exception:  # DTensor raises on these arguments: ask, and count it
            return None
        return _claimable(rules, count, compared)


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
