"""The strategy families: the one list of them.

Each family is the source file shrt/strategies/<family>.cc (plus, for a
family too long for one file, the files FAMILY_SRCS lists), built as the
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
    "fft",
    "foreach",
    "indexing",
    "interpolation",
    "linalg",
    "losses",
    "matrix",
    "normalization",
    "pooling",
    "prims",
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

# A family's sources besides <family>.cc, by family: more strategy sources
# (each registers its own overloads) and the internal headers they share.
FAMILY_SRCS = {
    "foreach": [
        "foreach_list.cc",
        "foreach_list.h",
        "foreach_optimizers.cc",
    ],
    "indexing": [
        "indexing_advanced.cc",
        "indexing_rules.cc",
        "indexing_rules.h",
        "indexing_scatter.cc",
    ],
    "matrix": [
        "matrix_einsum.cc",
        "matrix_product.cc",
        "matrix_product.h",
    ],
    "normalization": [
        "normalization_backward.cc",
        "normalization_rules.h",
    ],
}

# The families a family's strategies query through the registry, by family:
# the foreach family applies the element op's registered strategy per list
# position (foreach.cc), and a prim takes its aten operator's rules
# (prims.cc), so their libraries link the families of those ops. A label
# ("//...") is a further library: the prims' definitions
# (shrt/ops/prims.h), which the prims family's specs run, and whose
# prims::prod has its row in the reductions family's table.
FAMILY_DEPS = {
    "foreach": ["binary", "clamp", "copy", "matrix", "reductions", "ternary", "unary"],
    "prims": ["binary", "bitwise", "comparison", "copy", "reductions", "unary", "views"],
    "reductions": ["//shrt/ops:prims"],
}
