"""DTensor strategies for the custom operators of planted_ops.cc, registered
as a custom-op author registers them (torch 2.13:
torch/distributed/tensor/_ops/single_dim_strategy.py
register_single_dim_strategy): each entry lists the output placement, then
the input's; _ShardingPlaceholder(d) is "sharded on dim d" (Shard, or
_StridedShard on meshes).

One rule is planted wrong: cumsum0 runs along dim 0, so sharding dim 0
gives each rank the cumulative sums of its own chunk only; its sibling on
dim 1 is correct, as is twice's on dim 0.

Run by `shrt validate --dtensor --dtensor_rules=<this file>` in the process
that asks DTensor, after --load's library.
"""
import torch
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
