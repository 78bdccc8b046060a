"""The one home of DTensor's private APIs that ShRT reaches (DESIGN.md §11).

DTensor's sharding propagator, specs and schemas are private to PyTorch and
change between releases; every other module of tools/dtensor/ imports them
from here, so that a torch without one of them fails in one place, with an
error naming the torch version and the missing name, never with a bare
ImportError deep in a run.

Names, as of torch 2.13.0 (torch/distributed/tensor/):
  DTensor                  _api.py; DTensor._op_dispatcher.sharding_propagator
                           is the ShardingPropagator DTensor dispatches with
                           (_sharding_prop.py), whose op_single_dim_strategy_funcs
                           and op_strategy_funcs hold the registered rules.
  DTensorSpec, TensorMeta  _dtensor_spec.py
  OpSchema                 _op_schema.py
  Replicate, Shard, Partial, _StridedShard, _MaskPartial
                           placement_types.py
  _NormPartial             _ops/_math_ops.py
  DecompShardingStrategy   _decompositions.py: the rules of ops DTensor
                           shards through their decomposition;
                           ShardingPropagator.decomp_strategy is the one its
                           dispatch uses, _propagate_through_decomp its
                           trace of the decomposition for one candidate
                           tuple, _get_fake_mesh the one-rank mesh it traces
                           on, and _extract_input_specs the inputs whose
                           flattened leaves the candidates place.
  _PreparedSingleDimStrategy
                           _ops/single_dim_strategy.py: a single-dim
                           registration's rules on one mesh dim as DTensor's
                           run-time expansion builds them
                           (_expand_single_dim_strategy_to_mesh).
  _resolve_foreach_elementwise_overload
                           _ops/single_dim_strategy.py: the overload a
                           foreach op's list elements are expanded as.
  TupleStrategy            _op_schema.py: a tensor list's strategies, one
                           child per element.
  ShardingPropagator._wrap_with_op_strategy
                           _sharding_prop.py: the OpSchema of OpStrategies
                           that strategy functions receive.
  ShardingPropagator._propagate_tensor_meta_non_cached
                           _sharding_prop.py: the output metadata of a call,
                           from fake tensors of the global shapes.
  FakeStore                torch/testing/_internal/distributed/fake_pg.py: the
                           store of the "fake" process-group backend, on which
                           a DeviceMesh of any size lives in one process.
"""
import contextlib
import importlib
import os

import torch


class DTensorApiMissing(ImportError):
    """A private DTensor API ShRT needs is missing from the installed torch."""


def _load(module, name):
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as e:
        raise DTensorApiMissing(
            "torch %s has no %s.%s, which ShRT's DTensor claims need (written against "
            "torch 2.13.0; see tools/dtensor/dtensor_private.py): %s"
            % (torch.__version__, module, name, e)) from e


_T = "torch.distributed.tensor"
DTensor = _load(_T, "DTensor")
DTensorSpec = _load(_T + "._dtensor_spec", "DTensorSpec")
TensorMeta = _load(_T + "._dtensor_spec", "TensorMeta")
OpSchema = _load(_T + "._op_schema", "OpSchema")
Replicate = _load(_T + ".placement_types", "Replicate")
Shard = _load(_T + ".placement_types", "Shard")
Partial = _load(_T + ".placement_types", "Partial")
StridedShard = _load(_T + ".placement_types", "_StridedShard")
MaskPartial = _load(_T + ".placement_types", "_MaskPartial")
NormPartial = _load(_T + "._ops._math_ops", "_NormPartial")
DeviceMesh = _load("torch.distributed.device_mesh", "DeviceMesh")
DecompShardingStrategy = _load(_T + "._decompositions", "DecompShardingStrategy")
extract_input_specs = _load(_T + "._decompositions", "_extract_input_specs")
FakeStore = _load("torch.testing._internal.distributed.fake_pg", "FakeStore")
PreparedSingleDimStrategy = _load(_T + "._ops.single_dim_strategy", "_PreparedSingleDimStrategy")
resolve_foreach_elementwise_overload = _load(_T + "._ops.single_dim_strategy",
                                             "_resolve_foreach_elementwise_overload")
TupleStrategy = _load(_T + "._op_schema", "TupleStrategy")


def _method(obj, name):
    """obj.name, or DTensorApiMissing naming the torch version."""
    try:
        return getattr(obj, name)
    except AttributeError as e:
        owner = obj.__name__ if isinstance(obj, type) else type(obj).__name__
        raise DTensorApiMissing("torch %s: %s.%s is missing (%s)"
                                % (torch.__version__, owner, name, e)) from e


def sharding_propagator():
    """The ShardingPropagator that DTensor's dispatch uses (a process-wide
    singleton): DTensor._op_dispatcher.sharding_propagator."""
    return _method(_method(DTensor, "_op_dispatcher"), "sharding_propagator")


def registration_kind(op):
    """How DTensor registers a strategy for `op` (an OpOverload):
    "single_dim" (register_single_dim_strategy), "op_strategy"
    (register_op_strategy), "decomposition" (DTensor's decomposition path),
    or None when DTensor has no strategy for it."""
    propagator = sharding_propagator()
    if op in propagator.op_single_dim_strategy_funcs:
        return "single_dim"
    if op in propagator.op_strategy_funcs:
        return "op_strategy"
    if DecompShardingStrategy.has_decomp(op):
        return "decomposition"
    return None


def composite_implicit(op):
    """True if OpOverload `op` has a CompositeImplicitAutograd kernel: outside
    inference mode it decomposes above the Python dispatch key, so DTensor's
    dispatch sees its decomposition's operators, not `op` (in inference mode
    it sees `op`). torch._C._dispatch_has_kernel_for_dispatch_key."""
    has_kernel = _method(torch._C, "_dispatch_has_kernel_for_dispatch_key")
    return bool(has_kernel(op.name(), "CompositeImplicitAutograd"))


def decomposition_traces(propagator, op_schema, mesh_dim):
    """False when DTensor's decomposition path cannot trace the input
    placements of `op_schema` (an OpSchema of DTensorSpecs) on mesh dim
    `mesh_dim`, so that no strategy it builds has those inputs and it cannot
    claim them; True otherwise.

    DecompShardingStrategy.propagate_strategy (torch 2.13,
    _decompositions.py) builds its strategies from candidate single-dim
    tuples, one placement per flattened input leaf (None for a non-tensor
    leaf; _get_candidate_placements), each traced through the
    decomposition (_propagate_through_decomp); a candidate whose trace
    raises RuntimeError, KeyError or IndexError (a sub-operator that would
    redistribute, a view that cannot) is dropped. The one candidate with the
    given inputs is asked here, as DTensor traces it (with
    decomposition_memo active, the trace is the one DTensor's own call
    reuses). Any other error is left to DTensor's own call (True)."""
    from torch.utils._pytree import tree_flatten
    flat, _ = tree_flatten(list(extract_input_specs(op_schema)))
    candidate = tuple(s.placements[mesh_dim] if isinstance(s, DTensorSpec) else None for s in flat)
    strategy = _method(propagator, "decomp_strategy")
    specs = [s for s in flat if isinstance(s, DTensorSpec)]
    fake_mesh = _method(strategy, "_get_fake_mesh")(specs[0].mesh.device_type)
    try:
        _method(strategy, "_propagate_through_decomp")(op_schema, candidate, fake_mesh)
    except (RuntimeError, KeyError, IndexError):
        return False
    except Exception:  # DTensor's own call raises it, and it is counted there
        return True
    return True


_SETTLED = set()  # ids of the propagators settle() has settled


def settle(propagator):
    """Puts `propagator` (DTensor's ShardingPropagator) in the one state
    ShRT asks DTensor from, so that a claim does not depend on what was
    asked before it in the same process; call before every sample.

    DTensor's answers depend on its history (torch 2.13, seen on
    aten::frobenius_norm.out: the same sample asked twice in one process
    traced 1 and then 18 input tuples through the decomposition): an
    overload without a registered rule gets its RuntimeSchemaInfo only on
    its first call through the decomposition path
    (_sharding_prop.py propagate_op_sharding_non_cached ->
    DecompShardingStrategy.ensure_schema_info), and the OpSchemas built
    before and after differ; and the sub-operators a decomposition traces
    are propagated through ShardingPropagator.propagate_op_sharding, an LRU
    cache whose entries carry over between calls. So: the first time, the
    schema info of every aten and prims overload DTensor shards through its
    decomposition is registered, as after each one's first call (the state
    of a process that has run every operator once); every time, the caches
    of sharding and of output metadata are emptied."""
    if id(propagator) not in _SETTLED:
        strategy = _method(propagator, "decomp_strategy")
        for name in torch._C._dispatch_get_all_op_names():
            namespace, _, rest = name.partition("::")
            if namespace not in ("aten", "prims"):
                continue
            packet, _, overload = rest.partition(".")
            try:
                op = getattr(getattr(getattr(torch.ops, namespace), packet), overload or "default")
            except (AttributeError, RuntimeError):
                continue
            if registration_kind(op) == "decomposition":
                _method(strategy, "ensure_schema_info")(op)
        _SETTLED.add(id(propagator))
    _method(propagator, "propagate_op_sharding").cache_clear()
    _method(type(propagator), "_propagate_tensor_meta_cached").cache_clear()


def registered_overloads():
    """Every overload DTensor's sharding propagator holds a rule for, as
    (OpOverload, kind) pairs, kind "single_dim" (register_single_dim_strategy)
    or "op_strategy" (register_op_strategy); an overload with both is
    "single_dim", which DTensor's dispatch tries first
    (ShardingPropagator.propagate_op_sharding_non_cached, torch 2.13)."""
    propagator = sharding_propagator()
    kinds = {op: "op_strategy" for op in propagator.op_strategy_funcs}
    kinds.update({op: "single_dim" for op in propagator.op_single_dim_strategy_funcs})
    return list(kinds.items())


def effective_registrations():
    """{OpOverload: the registration DTensor's dispatch uses for it}: the
    single-dim strategy info where there is one, else the op strategy
    function (ShardingPropagator.propagate_op_sharding_non_cached tries
    single-dim registrations first, torch 2.13). Compared by identity
    before and after a rule module runs, it names the registrations the
    module replaced (both registries simply overwrite)."""
    propagator = sharding_propagator()
    found = dict(propagator.op_strategy_funcs)
    found.update(propagator.op_single_dim_strategy_funcs)
    return found


def torch_library():
    """The real path of the libtorch_cpu.so this process loaded (torch/lib
    beside the torch package it imported)."""
    return os.path.realpath(os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_cpu.so"))


def dtensor_source_dir():
    """Where DTensor's Python sources were imported from, when that is not
    the torch package's own directory (a patched copy reached through
    PYTHONPATH, tools/dtensor/torch_overlay.py), else None."""
    here = os.path.dirname(os.path.abspath(importlib.import_module(_T).__file__))
    real = os.path.join(os.path.dirname(os.path.realpath(torch.__file__)), "distributed", "tensor")
    return None if here == real else here


def _rules(prepared):
    """The (outputs, inputs) placement tuples of a _PreparedSingleDimStrategy's
    expanded rules (each rule is its outputs' placements, then its inputs')."""
    n = _method(prepared, "num_outputs")
    return [(tuple(r[:n]), tuple(r[n:])) for r in _method(prepared, "expanded_strategies")]


def single_dim_rules(propagator, op_schema):
    """Every rule, on one mesh dim, from which DTensor's run time builds its
    strategies for `op_schema` (an OpSchema of DTensorSpecs for an op with a
    single-dim registration): a list of (outputs, inputs), one placement (or
    None) per output, and per tensor input in schema order, out= tensors
    included.

    They are _PreparedSingleDimStrategy.expanded_strategies, built as
    ShardingPropagator.propagate_op_sharding_non_cached builds them (torch
    2.13, _sharding_prop.py; single_dim_strategy.py
    _expand_single_dim_strategy_to_mesh.expanded_strategy): the registered
    function's rules on the tensors' metadata, the implicit all-Replicate
    rule inserted, sharding placeholders filled with the shard types the
    inputs of `op_schema` use. expand_to_full_mesh_op_strategy takes one of
    these rules on each mesh dim, then only filters (mixed Partials, in-place
    self, an out= tensor placed otherwise than the rule's output,
    shardability: _ops/utils.py). Not for foreach ops, which DTensor expands
    per list element (foreach_element_rules)."""
    info = propagator.op_single_dim_strategy_funcs[op_schema.op]
    out_meta = _method(propagator, "_propagate_tensor_meta_non_cached")(op_schema)
    strategy_schema = _method(propagator, "_wrap_with_op_strategy")(op_schema)
    return _rules(PreparedSingleDimStrategy(info, strategy_schema, out_meta))


def foreach_element_rules(propagator, op_schema, index):
    """single_dim_rules for list element `index` of a foreach op
    (`op_schema`: an OpSchema of DTensorSpecs whose tensor arguments are all
    lists): every rule DTensor's run time builds for that element, inputs
    one placement (or None) per tensor of the element.

    DTensor expands a single-dim registration of an aten::_foreach_*,
    aten::_amp_foreach_* or aten::_fused_* op per list element (torch 2.13,
    single_dim_strategy.py _expand_single_dim_strategy_to_mesh,
    expanded_foreach_strategy and _translate_list_op_schema): the element's
    schema takes child `index` of every TupleStrategy argument, the overload
    _resolve_foreach_elementwise_overload names (the foreach op itself when
    it names none), the foreach op's keyword arguments, and output metadata
    `index`; the foreach op's registered function gives its rules. Each
    element's strategy is selected on its own and the call is claimed only
    when no element is redistributed (_sharding_prop.py,
    propagate_op_sharding_non_cached, the TupleStrategy branch), so an
    element placed as the inputs of none of these rules cannot be claimed."""
    from torch.utils._pytree import tree_map_only
    info = propagator.op_single_dim_strategy_funcs[op_schema.op]
    out_meta = _method(propagator, "_propagate_tensor_meta_non_cached")(op_schema)
    strategy_schema = _method(propagator, "_wrap_with_op_strategy")(op_schema)
    element_args = tree_map_only(TupleStrategy, lambda x: x.children[index],
                                 strategy_schema.args_schema,
                                 is_leaf=lambda x: isinstance(x, TupleStrategy))
    element_op = resolve_foreach_elementwise_overload(op_schema.op) or op_schema.op
    element_schema = OpSchema(element_op, args_schema=tuple(element_args),
                              kwargs_schema=strategy_schema.kwargs_schema)
    element_meta = out_meta[index] if out_meta is not None else None
    return _rules(PreparedSingleDimStrategy(info, element_schema, element_meta))


def _without_placements(value):
    """A hashable key of OpSchema arguments with each DTensorSpec's
    placements left out (its tensor metadata kept)."""
    if isinstance(value, DTensorSpec):
        return ("spec", value.tensor_meta)
    if isinstance(value, (list, tuple)):
        return tuple(_without_placements(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _without_placements(v)) for k, v in value.items()))
    return value


@contextlib.contextmanager
def tensor_meta_memo(propagator):
    """Within the context, `propagator`'s output-metadata step
    (ShardingPropagator._propagate_tensor_meta_non_cached, which runs the
    operator on fake tensors of the arguments' global shapes, strides and
    dtypes, whatever their placements) is computed once per operator and
    arguments with placements left out, and reused. For asking about one
    sample under many placements (a third of each propagation's time
    otherwise); keyed, so that the sub-operators a decomposition propagates
    get their own."""
    name = "_propagate_tensor_meta_non_cached"
    compute = _method(propagator, name)
    memo = {}

    def memoized(op_schema):
        key = repr((op_schema.op, _without_placements(op_schema.args_schema),
                    _without_placements(op_schema.kwargs_schema)))
        if key not in memo:
            memo[key] = compute(op_schema)
        return memo[key]

    setattr(propagator, name, memoized)
    try:
        yield
    finally:
        delattr(propagator, name)


@contextlib.contextmanager
def decomposition_memo(propagator):
    """Within the context, `propagator`'s decomposition path traces the
    decomposition of an operator once per arguments and single-dim input
    placements, and reuses the result (or re-raises the error).

    At run time DTensor shards an overload without a registered rule
    through its decomposition (torch 2.13, _decompositions.py,
    DecompShardingStrategy.propagate_strategy): for every candidate tuple
    of single-dim input placements built from the placements the inputs
    use, it traces the decomposition on meta tensors of the global shapes
    on a one-rank mesh (_propagate_through_decomp), then expands the traced
    rules to the real mesh and selects one. Each trace depends only on the
    operator, the arguments' metadata and values, and the candidate tuple,
    not on the placements asked, and the candidates of the input tuples of
    one sample overlap: asking every tuple of a sample traces each
    candidate once instead of once per tuple. The expansion and the
    selection still run for every tuple, as at run time."""
    strategy = _method(propagator, "decomp_strategy")
    name = "_propagate_through_decomp"
    trace = _method(strategy, name)
    memo = {}

    def memoized(op_schema, placement, mesh):
        key = repr((op_schema.op, _without_placements(op_schema.args_schema),
                    _without_placements(op_schema.kwargs_schema), tuple(placement), id(mesh)))
        if key not in memo:
            try:
                memo[key] = (True, trace(op_schema, placement, mesh))
            except Exception as e:  # DTensor's own: re-raised on every use
                memo[key] = (False, e)
        ok, value = memo[key]
        if not ok:
            raise value.with_traceback(None)
        return value

    setattr(strategy, name, memoized)
    try:
        yield
    finally:
        delattr(strategy, name)
