"""Tests of python_strategy: the table language in Python, and the module it writes (no torch imported)."""
import unittest

import python_strategy

_REPORT = {
    "op": "aten::sum.dim_IntList",
    "world_size": 4,
    "spec": "op_specs/reductions/aten_sum_dim_IntList.textproto",
    "samples": [{"name": "s", "description": "self=Float[7, 5], dim=[0], keepdim=False, dtype=None"}],
    "rules": [
        {"placements": "S(d) -> P(sum)", "condition": "d in dim"},
        {"placements": "P(sum) -> P(sum)", "condition": "keepdim"},
        {"placements": "S(d) -> S(d - count_lt(dim, d))", "condition": "!(d in dim) && !keepdim"},
        {"placements": "S(0) -> P(max)", "condition": "size(self, 0) >= ws"},
        {"placements": "R, S(dim) -> S(dim)"},
    ],
}


class PythonStrategyTest(unittest.TestCase):
    def test_conditions_in_python(self):
        self.assertEqual(python_strategy._python("!(d in dim) && !keepdim", ["d"]),
                         "not (d in a('dim')) and not a('keepdim')")
        self.assertEqual(python_strategy._python("d != dim && size(self, d) == size(index, d)", ["d"]),
                         "d != a('dim') and _size(a('self'), d) == _size(a('index'), d)")
        self.assertEqual(python_strategy._python("d - count_lt(dim, d)", ["d"]), "d - _count_lt(a('dim'), d)")
        with self.assertRaisesRegex(ValueError, "world size"):
            python_strategy._python("size(self, 0) >= ws", [])

    def test_module(self):
        text = python_strategy.render(_REPORT)
        compile(text, "strategy.py", "exec")  # valid Python
        self.assertIn("@register_single_dim_strategy(_OVERLOAD, schema_info=_SCHEMA_INFO)", text)
        self.assertIn("_OVERLOAD = torch.ops.aten.sum.dim_IntList", text)
        self.assertIn("lambda a, d: [Partial('sum'), _ShardingPlaceholder(d)]", text)
        self.assertIn("lambda a, d: [_ShardingPlaceholder(d - _count_lt(a('dim'), d)), _ShardingPlaceholder(d)]",
                      text)
        self.assertIn("lambda a, d: not (d in a('dim')) and not a('keepdim')),  # if !(d in dim) && !keepdim",
                      text)
        # An argument in a shard dim is no free variable; its rule has two inputs.
        self.assertIn("('R, S(dim) -> S(dim)', 2, False,", text)
        # A world-size condition cannot be a single-dim rule: left out, said so.
        self.assertIn("# left out: 'S(0) -> P(max)' if 'size(self, 0) >= ws' reads the world size", text)

    def test_bad_input(self):
        with self.assertRaisesRegex(python_strategy.BadReport, "not a discovery report"):
            python_strategy.render({"rules": []})
        with self.assertRaisesRegex(python_strategy.BadReport, "no single-dim DTensor equivalent"):
            python_strategy.render({"op": "aten::x", "rules": [{"placements": "_NormP(2) -> R"}]})


if __name__ == "__main__":
    unittest.main()
