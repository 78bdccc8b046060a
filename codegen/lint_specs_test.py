"""Every spec file is named by the naming function, no two specs map to one
test target (over op_specs/ and the example specs in testing/), no spec of
op_specs/ writes another's samples again (its samples may not begin with all
of another spec's: it names that spec in samples_from, which may form a
chain, and writes only the rest), and the target names in op_specs/groups.bzl (written by
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
        specs = {}  # op -> (path, spec, its own samples as text)
        for path, text in spec_files():
            if path.parts[0] != "op_specs":
                continue  # tables/ and testing/ hold examples, each whole on its own
            spec = text_format.Parse(text, spec_pb2.OpSpec())
            specs[spec.op] = (path, spec, [text_format.MessageToString(s, as_one_line=True)
                                           for s in spec.sample])

        def samples(op):  # the samples_from chain's, then its own
            _, spec, own = specs[op]
            return (samples(spec.samples_from) if spec.samples_from in specs else []) + own

        # A spec whose samples begin with all of another's, more than its
        # samples_from gives it, writes that other's samples again: it can
        # name that spec and write only the rest.
        for op, (path, spec, own) in specs.items():
            if not own:
                continue
            mine = samples(op)
            taken = len(mine) - len(own)
            for other, (other_path, _, other_own) in specs.items():
                theirs = samples(other) if other != op and other_own else []
                # Of two specs with the same samples, the later file names the earlier.
                later = len(theirs) < len(mine) or other_path < path
                if taken < len(theirs) <= len(mine) and mine[:len(theirs)] == theirs and later:
                    self.fail(f"{path} writes the samples of {other_path} again: write "
                              f"samples_from: \"{other}\" and only the samples after them")

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
