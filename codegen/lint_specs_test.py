"""Every spec file is named by the naming function, no two specs map to one
test target (over op_specs/ and the example specs in testing/), no spec of
op_specs/ writes the samples another writes on the same base (one writes
them, the others name it in samples_from, which may form a chain), and the target names in op_specs/groups.bzl (written by
the C++ `shrt groups`, shrt/ops/overload_name.h TestTargetName) are the
naming function's."""

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

    def test_no_spec_repeats_another_specs_samples(self):
        first = {}
        for path, text in spec_files():
            if path.parts[0] != "op_specs":
                continue  # tables/ and testing/ hold examples, each whole on its own
            spec = text_format.Parse(text, spec_pb2.OpSpec())
            if not spec.sample:
                continue
            # A spec's samples are its samples_from chain's, then its own:
            # two specs that write the same samples on the same base have
            # the same samples, and the second can name the first.
            key = (spec.samples_from,
                   tuple(text_format.MessageToString(s, as_one_line=True) for s in spec.sample))
            if key in first:
                on = f" on those of {spec.samples_from}" if spec.samples_from else ""
                self.fail(f"{path} writes the samples {first[key][0]} writes{on}: "
                          f"write samples_from: \"{first[key][1]}\" instead")
            first[key] = (path, spec.op)

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
