"""Every spec file is named by the naming function, and no two specs map to
one test target (over op_specs/ and the example specs in testing/)."""

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
            key = (str(package), target_name(spec.op))
            self.assertNotIn(key, seen, f"{path} and {seen.get(key)} map to one target {key[1]}")
            seen[key] = path


if __name__ == "__main__":
    unittest.main()
