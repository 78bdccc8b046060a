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
                           shards through their decomposition.
  _PreparedSingleDimStrategy
                           _ops/single_dim_strategy.py: a single-dim
                           registration's rules on one mesh dim as DTensor's
                           run-time expansion builds them
                           (_expand_single_dim_strategy_to_mesh).
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
FakeStore = _load("torch.testing._internal.distributed.fake_pg", "FakeStore")
PreparedSingleDimStrategy = _load(_T + "._ops.single_dim_strategy", "_PreparedSingleDimStrategy")


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


def single_dim_rule_inputs(propagator, op_schema):
    """The input placements of every rule, on one mesh dim, from which
    DTensor's run time builds its strategies for `op_schema` (an OpSchema of
    DTensorSpecs for an op with a single-dim registration): a set of tuples,
    one placement (or None) per tensor input in schema order, out= tensors
    included.

    They are the keys of _PreparedSingleDimStrategy.strategy_lookup, built
    as ShardingPropagator.propagate_op_sharding_non_cached builds them
    (torch 2.13, _sharding_prop.py; single_dim_strategy.py
    _expand_single_dim_strategy_to_mesh.expanded_strategy): the registered
    function's rules on the tensors' metadata, the implicit all-Replicate
    rule inserted, sharding placeholders filled with the shard types the
    inputs of `op_schema` use. expand_to_full_mesh_op_strategy takes one of
    these rules on each mesh dim, then only filters (mixed Partials, in-place
    self, out= placement, shardability). Not for foreach ops, which DTensor
    expands per list element."""
    info = propagator.op_single_dim_strategy_funcs[op_schema.op]
    out_meta = _method(propagator, "_propagate_tensor_meta_non_cached")(op_schema)
    strategy_schema = _method(propagator, "_wrap_with_op_strategy")(op_schema)
    prepared = PreparedSingleDimStrategy(info, strategy_schema, out_meta)
    return set(_method(prepared, "strategy_lookup"))


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

    def without_placements(value):
        if isinstance(value, DTensorSpec):
            return ("spec", value.tensor_meta)
        if isinstance(value, (list, tuple)):
            return tuple(without_placements(v) for v in value)
        if isinstance(value, dict):
            return tuple(sorted((k, without_placements(v)) for k, v in value.items()))
        return value

    def memoized(op_schema):
        key = repr((op_schema.op, without_placements(op_schema.args_schema),
                    without_placements(op_schema.kwargs_schema)))
        if key not in memo:
            memo[key] = compute(op_schema)
        return memo[key]

    setattr(propagator, name, memoized)
    try:
        yield
    finally:
        delattr(propagator, name)
