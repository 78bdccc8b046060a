"""Tests of export_claims.py (the request and claims files, the askers it
forks, the per-sample limits) under the installed torch."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import torch

import export_claims

W = 4


class ExportTest(unittest.TestCase):
    REQUEST = {"world_size": W, "samples": [
        {"op": "aten::mm", "name": "square", "args": {
            "self": {"tensor": {"shape": [8, 6], "stride": [6, 1], "dtype": "float32"}},
            "mat2": {"tensor": {"shape": [6, 4], "stride": [4, 1], "dtype": "float32"}}}},
        {"op": "aten::cat", "name": "pair", "args": {
            "tensors": {"tensors": [{"shape": [4, 3], "stride": [3, 1], "dtype": "float32"},
                                    {"shape": [4, 3], "stride": [3, 1], "dtype": "float32"}]},
            "dim": 1}}]}

    def test_export(self):
        claims = export_claims.export(self.REQUEST)
        self.assertEqual(claims["strategy_source"], "DTensor, torch " + torch.__version__.split("+")[0])
        mm, cat = claims["samples"]
        self.assertEqual(mm["registration"], "single_dim")
        self.assertIn("S(1), S(0) -> P(sum)", mm["rules"])
        self.assertIn("S(0), S(0) -> S(0)", cat["rules"])
        self.assertNotIn("composite_implicit", mm)

    def test_forked_askers_answer_as_one(self):
        # Two processes forked after the import, each taking whole overloads:
        # the same answers, in the request's order.
        one = export_claims.export(self.REQUEST)
        two = export_claims.export(dict(self.REQUEST, jobs=2))
        for a, b in zip(one["samples"], two["samples"]):
            a.pop("seconds")
            b.pop("seconds")
        self.assertEqual(one, two)

    def test_a_bad_sample_in_a_forked_asker_is_a_bad_request(self):
        request = dict(self.REQUEST, jobs=2)
        request["samples"] = self.REQUEST["samples"] + [
            {"op": "aten::abs", "name": "typo", "args": {"slef": self.REQUEST["samples"][0]
                                                       ["args"]["self"]}}]
        with self.assertRaisesRegex(export_claims.BadRequest,
                                    r"^request: samples\[2\]\.args: .*'slef'"):
            export_claims.export(request)

    def test_a_decomposition_says_whether_it_is_composite_implicit(self):
        t = {"tensor": {"shape": [4, 3], "stride": [3, 1], "dtype": "float32"}}
        claims = export_claims.export({"world_size": W, "samples": [
            {"op": "aten::absolute", "name": "a", "args": {"self": t}},
            {"op": "aten::hardswish", "name": "h", "args": {"self": t}}]})
        absolute, hardswish = claims["samples"]
        self.assertEqual((absolute["registration"], absolute["composite_implicit"]),
                         ("decomposition", True))
        self.assertEqual((hardswish["registration"], hardswish["composite_implicit"]),
                         ("decomposition", False))
        self.assertIn("S(0) -> S(0)", hardswish["rules"])

    def test_decomposition_samples_past_their_limit_are_not_asked(self):
        t = {"tensor": {"shape": [4, 3], "stride": [3, 1], "dtype": "float32"}}
        claims = export_claims.export({"world_size": W, "max_decomposition_tuples": 7, "samples": [
            {"op": "aten::hardswish", "name": "h", "args": {"self": t}},
            {"op": "aten::abs", "name": "a", "args": {"self": t}}]})
        hardswish, abs_ = claims["samples"]
        self.assertEqual(hardswish["unasked"], "8 input tuples, more than the 7 asked per sample "
                         "of an overload sharded through its decomposition")
        self.assertNotIn("unasked", abs_)  # a registered rule: max_tuples only

    def test_single_dim_samples_count_only_the_tuples_they_could_claim(self):
        t = lambda shape: {"tensor": {"shape": shape, "stride": [shape[1], 1], "dtype": "float32"}}
        sample = {"op": "aten::mm", "name": "m", "args": {"self": t([7, 5]), "mat2": t([5, 3])}}
        (mm,) = export_claims.export({"world_size": W, "max_tuples": 20,
                                      "samples": [sample]})["samples"]
        self.assertNotIn("unasked", mm)
        self.assertEqual(mm["tuples"] + mm["unmatched"], 64)  # 8 candidates each
        self.assertLessEqual(mm["tuples"], 20)
        (mm,) = export_claims.export({"world_size": W, "max_tuples": 2,
                                      "samples": [sample]})["samples"]
        self.assertEqual(mm["unasked"], "more than 2 of its 64 input tuples DTensor could "
                         "claim, the most asked per sample")

    def test_a_tagged_inf_is_a_float(self):
        # shrt/request.cc writes inf as {"float": "inf"}: JSON has no inf.
        request = {"world_size": W, "samples": [
            {"op": "aten::linalg_vector_norm", "name": "inf", "args": {
                "self": {"tensor": {"shape": [8, 4], "stride": [4, 1], "dtype": "float32"}},
                "ord": {"float": "inf"}}}]}
        (norm,) = export_claims.export(request)["samples"]
        self.assertEqual(norm["rejected"], {})
        self.assertIn("S(0) -> P(max)", norm["rules"])
        request["samples"][0]["args"]["ord"] = {"float": "Infinity"}
        with self.assertRaisesRegex(export_claims.BadRequest, r"args\.ord\.float: expected"):
            export_claims.export(request, "r.json")

    def test_bad_requests_name_the_field(self):
        bad = json.loads(json.dumps(self.REQUEST))
        bad["samples"][1]["args"]["tensors"]["tensors"][1]["dtype"] = "flaot32"
        with self.assertRaisesRegex(export_claims.BadRequest,
                                    r"^r.json: samples\[1\]\.args\.tensors\.tensors\[1\]\.dtype: "
                                    r"unknown dtype 'flaot32'"):
            export_claims.export(bad, "r.json")
        bad = json.loads(json.dumps(self.REQUEST))
        bad["samples"][0]["op"] = "aten::mmm"
        with self.assertRaisesRegex(export_claims.BadRequest, r"samples\[0\]\.op: no such overload 'aten::mmm'"):
            export_claims.export(bad, "r.json")
        bad = json.loads(json.dumps(self.REQUEST))
        bad["samples"][0]["args"]["input"] = 1
        with self.assertRaisesRegex(export_claims.BadRequest, r"samples\[0\]\.args: .*no argument 'input'"):
            export_claims.export(bad, "r.json")

    def test_command_line(self):
        with tempfile.TemporaryDirectory() as d:
            request, claims = os.path.join(d, "req.json"), os.path.join(d, "claims.json")
            with open(request, "w") as f:
                json.dump(self.REQUEST, f)
            script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "export_claims.py")
            done = subprocess.run([sys.executable, script, request, claims], capture_output=True, text=True)
            self.assertEqual(done.returncode, 0, done.stderr)
            with open(claims) as f:
                self.assertEqual(len(json.load(f)["samples"]), 2)
            with open(request, "w") as f:
                f.write("{")
            done = subprocess.run([sys.executable, script, request, claims], capture_output=True, text=True)
            self.assertEqual(done.returncode, 2)
            self.assertIn(request, done.stderr)


if __name__ == "__main__":
    unittest.main()
