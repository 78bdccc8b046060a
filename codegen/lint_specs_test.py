"""Every spec file is named by the naming function, no two specs map to one
test target (over op_specs/ and the example specs in testing/), and the
target names in op_specs/groups.bzl (written by the C++ `shrt groups`,
shrt/ops/overload_name.h TestTargetName) are the naming function's. (That no
sample is written in two spec files is //op_specs:lint_test's.)"""

import pathlib
import unittest

from google.protobuf import text_format

import spec_pb2
from naming import target_name

_ROOTS = ["op_specs", "tables", "testing"]


def spec_files():
    for root in _ROOTS:
        for path in sorted(pathlib.Path(root).rglob("*.textproto")):
            text = path.read_text()
            if "proto-message: shrt.OpSpec" in text:
                yield path, text


class LintSpecsTest(unittest.TestCase):
    def test_file_names_follow_the_naming_function(self):
        count = 0
        for path, text in spec_files():
            spec = text_format.Parse(text, spec_pb2.OpSpec())
            self.assertEqual(path.name, f"{target_name(spec.op)}.textproto",
                             f"{path}: a spec of {spec.op} must be named "
                             f"{target_name(spec.op)}.textproto")
            count += 1
        self.assertGreater(count, 30)

    def test_no_two_specs_in_a_package_map_to_one_target(self):
        seen = {}
        for path, text in spec_files():
            spec = text_format.Parse(text, spec_pb2.OpSpec())
            # Specs of one BUILD package share a target namespace.
            package = path.parent.parent if path.parts[0] == "op_specs" else path.parent
            for op in [spec.op, *spec.alias]:  # an alias's group is tested from this file too
                key = (str(package), target_name(op))
                self.assertNotIn(key, seen, f"{path} and {seen.get(key)} map to one target {key[1]}")
                seen[key] = path

    def test_manifest_targets_follow_the_naming_function(self):
        manifest = {}
        exec(pathlib.Path("op_specs/groups.bzl").read_text(), manifest)  # a dict literal
        groups = manifest["OP_GROUPS"]
        self.assertGreater(len(groups), 30)
        for path, group in groups.items():
            self.assertEqual(group["targets"], [target_name(o) for o in group["overloads"]], path)
            self.assertEqual(pathlib.Path(path).name, f"{group['targets'][0]}.textproto", path)


if __name__ == "__main__":
    unittest.main()
