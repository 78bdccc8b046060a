"""A --dtensor_rules module (planted_test.sh) that replaces DTensor's own
registration of aten::neg with the non-decreasing rules: the report must say
whose rules were judged ("overridden by override_neg.py for aten::neg") and
find P(max) -> P(max) incorrect."""
import torch
from torch.distributed.tensor._ops import _pointwise_ops as pointwise

pointwise._register_single_dim_pointwise(
    torch.ops.aten.neg.default, pointwise._UNARY_LINEAR_RULES + pointwise._NON_DECREASING_RULES)
