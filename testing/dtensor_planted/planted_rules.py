"""DTensor strategies for the custom operators of planted_ops.cc, registered
as a custom-op author registers them (torch 2.13:
torch/distributed/tensor/_ops/single_dim_strategy.py
register_single_dim_strategy): each entry lists the output placement, then
the input's; _ShardingPlaceholder(d) is "sharded on dim d" (Shard, or
_StridedShard on meshes).

Three rules are planted wrong:
- cumsum0 runs along dim 0, so sharding dim 0 gives each rank the
  cumulative sums of its own chunk only; its sibling on dim 1 is correct,
  as is twice's on dim 0.
- posinf_to's P(max) -> P(max) holds on finite inputs only (there the op
  is the identity): a Partial(max) inf is inf on one rank and finite on
  the others, and inf maps to `value`, below the larger finite parts. Its
  P(min) -> P(min) holds on every input (the parts of +inf are all +inf).
- scaled_gap's P(max) -> P(max) holds for lo <= hi only: self * (hi - lo)
  turns a max into a min for hi < lo. Its P(sum) -> P(sum) holds for both
  orders (linear).

Run by `shrt validate --dtensor --dtensor_rules=<this file>` in the process
that asks DTensor, after --load's library.
"""
import torch
from torch.distributed.tensor import Partial
from torch.distributed.tensor._ops.single_dim_strategy import (
    _ShardingPlaceholder,
    register_single_dim_strategy,
)


@register_single_dim_strategy(torch.ops.shrt_planted.cumsum0.default, allow_uneven_sharding=True)
def cumsum0_strategy(op, args_schema, kwargs_schema):
    return [
        [_ShardingPlaceholder(0), _ShardingPlaceholder(0)],  # planted: wrong
        [_ShardingPlaceholder(1), _ShardingPlaceholder(1)],  # correct
    ]


@register_single_dim_strategy(torch.ops.shrt_planted.twice.default, allow_uneven_sharding=True)
def twice_strategy(op, args_schema, kwargs_schema):
    return [[_ShardingPlaceholder(0), _ShardingPlaceholder(0)]]  # correct


@register_single_dim_strategy(torch.ops.shrt_planted.posinf_to.default, allow_uneven_sharding=True)
def posinf_to_strategy(op, args_schema, kwargs_schema):
    return [
        [_ShardingPlaceholder(0), _ShardingPlaceholder(0)],  # correct
        [Partial("max"), Partial("max")],  # planted: wrong on inf
        [Partial("min"), Partial("min")],  # correct
    ]


@register_single_dim_strategy(torch.ops.shrt_planted.scaled_gap.default, allow_uneven_sharding=True)
def scaled_gap_strategy(op, args_schema, kwargs_schema):
    return [
        [_ShardingPlaceholder(0), _ShardingPlaceholder(0)],  # correct
        [Partial("max"), Partial("max")],  # planted: wrong for hi < lo
        [Partial("sum"), Partial("sum")],  # correct
    ]
