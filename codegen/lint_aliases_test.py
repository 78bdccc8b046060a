"""No op that torch documents as an alias of another has a spec file of its
own beside that op's: an alias is listed in its op's spec (spec.proto
OpSpec.alias), which checks the alias's group with the same samples, so a
second file would only repeat the first (one spec per op group).

The aliases come from torch's own docstrings, "Alias for
:func:`torch.acos`." on torch.arccos (and in torch.special and
torch.linalg), as the installed torch (2.13) states them. An alias whose
schema takes other arguments than its op's cannot share its samples; those
few are named in _UNSHARED with the reason."""

import pathlib
import re
import unittest

import torch
from google.protobuf import text_format

import spec_pb2

# Python namespace -> the aten name prefix of its functions.
_NAMESPACES = {"torch": (torch, ""), "torch.special": (torch.special, "special_"),
               "torch.linalg": (torch.linalg, "linalg_")}
_ALIAS_DOC = re.compile(r"Alias for :(?:func|meth):`(torch(?:\.special|\.linalg)?)\.(\w+)`")

# Aliases whose samples cannot be their op's, by aten name, with why.
_UNSHARED = {
    "swapaxes": "its arguments are axis0 and axis1, transpose's dim0 and dim1",
}


def documented_aliases():
    """{alias: op} by aten name ("arccos": "acos"), from torch's docstrings."""
    out = {}
    for module, prefix in _NAMESPACES.values():
        for name in dir(module):
            doc = getattr(getattr(module, name, None), "__doc__", None)
            match = _ALIAS_DOC.search(doc) if isinstance(doc, str) else None
            if match:
                out[prefix + name] = _NAMESPACES[match.group(1)][1] + match.group(2)
    return out


def spec_files_by_name():
    """{aten name: [spec path, ...]} of op_specs/, by each spec's `op`."""
    out = {}
    for path in sorted(pathlib.Path("op_specs").rglob("*.textproto")):
        text = path.read_text()
        if "proto-message: shrt.OpSpec" in text:
            op = text_format.Parse(text, spec_pb2.OpSpec()).op
            out.setdefault(op.split("::")[1].split(".")[0], []).append(str(path))
    return out


def violations(aliases, specs):
    """The messages for each alias in `aliases` ({alias: op}) that has a spec
    file of its own in `specs` ({aten name: [path, ...]}) beside its op's."""
    out = []
    for alias, op in sorted(aliases.items()):
        if alias in _UNSHARED or alias not in specs or op not in specs:
            continue
        out.append(f"{specs[alias][0]}: aten::{alias} is an alias of aten::{op} (torch documents "
                   f"it as one), whose spec is {specs[op][0]}: one spec checks both, the other op "
                   "in its `alias` list (spec.proto OpSpec.alias)")
    return out


class LintAliasesTest(unittest.TestCase):
    def test_torch_documents_aliases(self):
        aliases = documented_aliases()
        # A torch that documents none would make the lint pass vacuously.
        self.assertEqual(aliases.get("arccos"), "acos")
        self.assertEqual(aliases.get("special_psi"), "special_digamma")
        self.assertGreater(len(aliases), 30)

    def test_no_alias_has_a_spec_file_beside_its_ops(self):
        self.assertEqual(violations(documented_aliases(), spec_files_by_name()), [])

    def test_a_planted_alias_file_is_found(self):
        specs = {"acos": ["op_specs/unary/aten_acos.textproto"],
                 "arccos": ["op_specs/unary/aten_arccos.textproto"],
                 "swapaxes": ["s"], "transpose": ["t"]}
        found = violations({"arccos": "acos", "swapaxes": "transpose", "fix": "trunc"}, specs)
        self.assertEqual(len(found), 1)
        self.assertTrue(found[0].startswith("op_specs/unary/aten_arccos.textproto: aten::arccos is an "
                                            "alias of aten::acos"), found[0])

    def test_unshared_aliases_are_still_aliases(self):
        aliases = documented_aliases()
        for alias in _UNSHARED:
            self.assertIn(alias, aliases, f"_UNSHARED names {alias}, which torch no longer "
                                          "documents as an alias: remove the entry")


if __name__ == "__main__":
    unittest.main()
