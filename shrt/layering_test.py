"""Each layer of shrt/ includes only the layers it may use (README "Layout").

Visibility (shrt/BUILD.bazel's package groups) guards the Bazel dependencies
between the layers, but `strategies` and `op_test` are public, for
downstream workspaces, so it cannot keep spec or engine from them. This test
reads every source of every layer and fails on an `#include "shrt/<layer>/..."`
of a layer that shrt/layers.bzl's LAYERS does not allow, whatever the
visibility.

It also keeps the compile firewall of shrt/spec/aten_functions.h: no
source of a layer, library or test, includes a header that declares ATen's
functions (an ATen/ops/ header, ATen/ATen.h, ATen/Functions.h,
ATen/TensorOperators.h, torch/torch.h), each of which costs a translation
unit seconds of parsing, except the firewall's two homes
(aten_functions.cc, and test_tensors.cc for the tests' factories) and
torch_runtime_test.cc, which calls two kernels by name.
"""

import pathlib
import re
import unittest

# shrt/layers.bzl: each layer and the layers its sources may include.
_BZL = {}
exec(pathlib.Path("shrt/layers.bzl").read_text(), _BZL)  # literals and one def
LAYERS = {layer: set(uses) for layer, uses in _BZL["LAYERS"].items()}

_INCLUDE = re.compile(r'^#include "shrt/(\w+)/', re.MULTILINE)

# Headers that declare ATen's functions (shrt/spec/aten_functions.h).
_ATEN_FUNCTIONS = re.compile(
    r'^#include [<"](ATen/ops/\w+\.h|ATen/ATen\.h|ATen/Functions\.h|ATen/TensorOperators\.h|'
    r'torch/torch\.h|torch/all\.h)[>"]', re.MULTILINE)
_FIREWALL = "shrt/spec/aten_functions.cc"
_MAY_INCLUDE_ATEN_FUNCTIONS = {
    _FIREWALL,
    "shrt/engine/test_tensors.cc",
    "shrt/engine/torch_runtime_test.cc",  # binary_cross_entropy_backward, ...
}


def firewall_violations(path, text):
    """The includes of `text`, a layer's source, that only the firewall's
    files may make."""
    if str(path) in _MAY_INCLUDE_ATEN_FUNCTIONS:
        return []
    return [f"{path}: includes {header}: call the op as an at::Tensor method, or add it to "
            f"shrt/spec/aten_functions.h" for header in _ATEN_FUNCTIONS.findall(text)]


def violations(layer, path, text):
    """The includes of `text` (a source of `layer`) that LAYERS forbids."""
    return [f"{path}: includes shrt/{used}/, which {layer} may not use"
            for used in _INCLUDE.findall(text)
            if used in LAYERS and used not in LAYERS[layer]]


class LayeringTest(unittest.TestCase):
    def test_every_layer_includes_only_what_it_may_use(self):
        found = []
        checked = 0
        for layer in LAYERS:
            for path in sorted(pathlib.Path("shrt", layer).glob("*.[ch]*")):
                found += violations(layer, path, path.read_text())
                checked += 1
        self.assertGreater(checked, 100)
        self.assertEqual(found, [])

    def test_only_the_firewall_includes_aten_functions(self):
        found = []
        for layer in LAYERS:
            for path in sorted(pathlib.Path("shrt", layer).glob("*.[ch]*")):
                found += firewall_violations(path, path.read_text())
        self.assertEqual(found, [])
        self.assertRegex(pathlib.Path(_FIREWALL).read_text(), _ATEN_FUNCTIONS)

    def test_a_planted_aten_functions_include_fails(self):
        self.assertEqual(
            firewall_violations("shrt/engine/x.cc",
                                '#include "ATen/ops/add.h"\n#include <ATen/ATen.h>\n'),
            ["shrt/engine/x.cc: includes ATen/ops/add.h: call the op as an at::Tensor method, or "
             "add it to shrt/spec/aten_functions.h",
             "shrt/engine/x.cc: includes ATen/ATen.h: call the op as an at::Tensor method, or "
             "add it to shrt/spec/aten_functions.h"])
        self.assertEqual(len(firewall_violations("shrt/engine/x_test.cc",
                                                 '#include "ATen/TensorOperators.h"\n')), 1)
        self.assertEqual(
            firewall_violations("shrt/engine/x.cc", '#include "ATen/core/Tensor.h"\n'), [])

    def test_a_planted_upward_include_fails(self):
        self.assertEqual(
            violations("engine", "shrt/engine/x.cc", '#include "shrt/strategies/registry.h"\n'),
            ["shrt/engine/x.cc: includes shrt/strategies/, which engine may not use"])
        self.assertEqual(violations("spec", "x.h", '#include "shrt/vocab/limits.h"\n'), [])


if __name__ == "__main__":
    unittest.main()
