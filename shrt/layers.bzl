"""The layers of shrt/ and what each may use: the one list of them.

shrt/BUILD.bazel makes each layer's package group of users from it (the
visibility of the restricted layers), and //shrt:layering_test checks every
layer's includes against it. README "Layout" draws it. Plain literals and
functions, so that the test can read this file with Python's exec.
"""

# Each layer (the package shrt/<layer>) and the layers its sources may use,
# itself included.
LAYERS = {
    "vocab": ["vocab"],
    "ops": ["vocab", "ops"],
    "strategies": ["vocab", "ops", "strategies"],
    "spec": ["vocab", "spec"],
    "engine": ["vocab", "ops", "spec", "engine"],
    "report": ["vocab", "ops", "spec", "engine", "report", "strategies"],
    "op_test": ["vocab", "ops", "spec", "engine", "report", "strategies", "op_test"],
}

# ShRT's packages outside the layers that may use any of them: the CLI and
# its tools, the test helpers, tables and specs, the fuzz targets.
CONSUMERS = [
    "//op_specs",
    "//shrt/fuzz",
    "//tables/...",
    "//testing/...",
    "//tools/...",
]

def users_of(layer):
    """The packages that may depend on `layer`: the layers that list it, and CONSUMERS."""
    return sorted(["//shrt/" + other for other in LAYERS if other != layer and layer in LAYERS[other]]) + CONSUMERS

def layer_sources():
    """Declares :sources, the layer's .cc and .h files, for //shrt:layering_test."""
    native.filegroup(
        name = "sources",
        srcs = native.glob([
            "*.cc",
            "*.h",
        ]),
        visibility = ["//shrt:__pkg__"],
    )

ABSL_STRINGS = [
    "@com_google_absl//:strings",
    "@com_google_absl//:str_format",
]

ABSL_STATUS = [
    "@com_google_absl//:status",
    "@com_google_absl//:statusor",
]
