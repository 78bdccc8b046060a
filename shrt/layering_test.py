"""Each layer of shrt/ includes only the layers it may use (README "Layout").

Visibility (shrt/BUILD.bazel's package groups) guards the Bazel dependencies
between the layers, but `strategies` and `op_test` are public, for
downstream workspaces, so it cannot keep spec or engine from them. This test
reads every source of every layer and fails on an `#include "shrt/<layer>/..."`
of a layer that shrt/layers.bzl's LAYERS does not allow, whatever the
visibility.
"""

import pathlib
import re
import unittest

# shrt/layers.bzl: each layer and the layers its sources may include.
_BZL = {}
exec(pathlib.Path("shrt/layers.bzl").read_text(), _BZL)  # literals and one def
LAYERS = {layer: set(uses) for layer, uses in _BZL["LAYERS"].items()}

_INCLUDE = re.compile(r'^#include "shrt/(\w+)/', re.MULTILINE)


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

    def test_a_planted_upward_include_fails(self):
        self.assertEqual(
            violations("engine", "shrt/engine/x.cc", '#include "shrt/strategies/registry.h"\n'),
            ["shrt/engine/x.cc: includes shrt/strategies/, which engine may not use"])
        self.assertEqual(violations("spec", "x.h", '#include "shrt/vocab/limits.h"\n'), [])


if __name__ == "__main__":
    unittest.main()
