"""The Python interpreters of ShRT's build and tools.

PYTHON3 is Debian's /usr/bin/python3 (3.11 on bookworm): it imports
python3-jinja2 and python3-protobuf (codegen) and the pinned torch that
tools/setup.sh installs (tools/requirements.txt). py_binary/py_test run with
it (third_party/python/BUILD.bazel).

TORCH_PYTHON_ENV names the repository environment variable that chooses the
torch ShRT is built against and whose DTensor `validate --dtensor` asks:
`--repo_env=SHRT_PYTHON=/path/to/python` (a venv's, or the one a PyTorch
checkout is installed in with `pip install -e`). Unset, it is PYTHON3.
@libtorch (third_party/libtorch.bzl) asks that interpreter where its torch
lives, and tools/dtensor runs DTensor's side with it. A repository variable,
not a flag of `shrt`, because the C++ ground truth is compiled and linked
against that torch's libtorch: Bazel fetches @libtorch again, and rebuilds
what depends on it, when the variable changes.
"""

PYTHON3 = "/usr/bin/python3"

TORCH_PYTHON_ENV = "SHRT_PYTHON"
