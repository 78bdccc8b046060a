"""The strategy families: the one list of them.

Each family is one source file shrt/strategies/<family>.cc, built as the
library //shrt/strategies:<family>, and one spec directory
op_specs/<family>/ whose generated tests link that library. A new family is
one more name here.
"""

FAMILIES = [
    "activation_backward",
    "attention",
    "binary",
    "bitwise",
    "clamp",
    "comparison",
    "concat",
    "convolution",
    "copy",
    "embedding",
    "foreach",
    "indexing",
    "losses",
    "matrix",
    "normalization",
    "pooling",
    "reductions",
    "reshape",
    "scans",
    "slicing",
    "softmax",
    "sort",
    "split",
    "tensor_ops",
    "ternary",
    "unary",
    "views",
    "where",
]
