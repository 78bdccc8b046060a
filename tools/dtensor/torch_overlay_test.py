"""Tests of torch_overlay.make on a small fake torch package (no torch imported)."""
import os
import subprocess
import sys
import tempfile
import unittest

import torch_overlay

_PATCH = """--- a/torch/distributed/tensor/_ops/_math_ops.py
+++ b/torch/distributed/tensor/_ops/_math_ops.py
@@ -1,2 +1,2 @@
 def dim(d, ndim):
-    return d
+    return d % ndim
"""


class TorchOverlayTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.site = os.path.join(self.tmp.name, "site")
        ops = os.path.join(self.site, "torch", "distributed", "tensor", "_ops")
        os.makedirs(os.path.join(ops, "__pycache__"))
        for package in ("torch", "torch/distributed", "torch/distributed/tensor", "torch/distributed/tensor/_ops"):
            open(os.path.join(self.site, package, "__init__.py"), "w").close()
        with open(os.path.join(ops, "_math_ops.py"), "w") as f:
            f.write("def dim(d, ndim):\n    return d\n")
        with open(os.path.join(ops, "_other.py"), "w") as f:
            f.write("X = 1\n")
        self.torch_dir = os.path.join(self.site, "torch")
        self.patch = self._write("fix.patch", _PATCH)

    def tearDown(self):
        self.tmp.cleanup()

    def _write(self, name, text):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def _import_dim(self, root):
        code = "import torch.distributed.tensor._ops._math_ops as m; print(m.__file__, m.dim(-1, 3))"
        env = dict(os.environ, PYTHONPATH=root)
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                              check=True).stdout.split()

    def test_patched_file_is_a_copy_and_the_rest_links(self):
        root = torch_overlay.make([self.patch], os.path.join(self.tmp.name, "ov"), self.torch_dir)
        ops = os.path.join(root, "torch", "distributed", "tensor", "_ops")
        self.assertFalse(os.path.islink(os.path.join(ops, "_math_ops.py")))
        self.assertTrue(os.path.islink(os.path.join(ops, "_other.py")))
        self.assertFalse(os.path.exists(os.path.join(ops, "__pycache__")))
        self.assertEqual(self._import_dim(root), [os.path.join(ops, "_math_ops.py"), "2"])
        # The installed package is untouched.
        self.assertEqual(self._import_dim(self.site)[1], "-1")

    def test_a_patch_that_does_not_apply_names_the_file(self):
        bad = self._write("bad.patch", _PATCH.replace(" def dim(d, ndim):", " def other(d, ndim):"))
        with self.assertRaisesRegex(torch_overlay.OverlayError, r"bad\.patch: does not apply"):
            torch_overlay.make([bad], os.path.join(self.tmp.name, "ov"), self.torch_dir)

    def test_only_python_files_under_torch(self):
        for target in ("torch/lib/libtorch_cpu.so", "numpy/__init__.py", "torch/../x.py"):
            bad = self._write("bad.patch", _PATCH.replace("torch/distributed/tensor/_ops/_math_ops.py", target))
            with self.assertRaisesRegex(torch_overlay.OverlayError, "only torch's Python files"):
                torch_overlay.make([bad], os.path.join(self.tmp.name, "ov"), self.torch_dir)

    def test_not_a_diff(self):
        bad = self._write("bad.patch", "hello\n")
        with self.assertRaisesRegex(torch_overlay.OverlayError, "not a unified diff"):
            torch_overlay.make([bad], os.path.join(self.tmp.name, "ov"), self.torch_dir)


if __name__ == "__main__":
    unittest.main()
