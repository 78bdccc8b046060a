"""The one Python interpreter of ShRT's build and tools.

Debian's /usr/bin/python3 (3.11 on bookworm): it imports python3-jinja2 and
python3-protobuf (codegen) and the pinned torch that tools/setup.sh installs
(tools/requirements.txt). py_binary/py_test run with it
(third_party/python/BUILD.bazel), and @libtorch asks it where torch lives
(third_party/libtorch.bzl).
"""

PYTHON3 = "/usr/bin/python3"
