"""@libtorch: the libtorch of the pinned torch wheel, found by asking Python.

torch's wheel carries libtorch itself: the C++ headers (torch/include, with
the C++ frontend under torch/include/torch/csrc/api/include), the shared
libraries (torch/lib) and share/cmake/Torch. This repository rule asks the
tools' interpreter (third_party/python/interpreter.bzl) where its torch
package lives and which version it is, refuses any version but the one
tools/requirements.txt pins, and links the headers and libraries into the
repository; the BUILD file comes from third_party/libtorch.BUILD.tpl. No
path of one machine is written into the source tree.

Only the header trees ShRT's code includes are linked (ATen, c10, caffe2,
torch): the wheel's include/ also holds its own copy of protobuf's headers
(include/google), which must never shadow Debian's libprotobuf-dev that
ShRT's protos are compiled and linked against.
"""

load("//third_party/python:interpreter.bzl", "PYTHON3")

# importlib.metadata reads the installed distribution without importing
# torch (seconds, and numpy) at fetch time.
_QUERY = """
import importlib.metadata, importlib.util, os
spec = importlib.util.find_spec("torch")
if spec is None:
    raise SystemExit("no module named torch")
print(importlib.metadata.version("torch"))
print(os.path.realpath(list(spec.submodule_search_locations)[0]))
"""

_HEADER_TREES = ["ATen", "c10", "caffe2", "torch"]

# libtorch_cpu.so needs the wheel's libgomp.so.1 through its RUNPATH
# ($ORIGIN), so it sits beside the others.
_LIBRARIES = ["libc10.so", "libtorch_cpu.so", "libtorch.so", "libgomp.so.1"]

def _pinned_version(ctx):
    """The X.Y.Z of the `torch==X.Y.Z` line of tools/requirements.txt."""
    path = ctx.path(ctx.attr.requirements)
    for line in ctx.read(path).splitlines():
        line = line.strip()
        if line.startswith("torch=="):
            return line[len("torch=="):].strip()
    fail("%s: no line 'torch==X.Y.Z'" % path)

def _libtorch_repository_impl(ctx):
    pinned = _pinned_version(ctx)
    found = ctx.execute([PYTHON3, "-c", _QUERY])
    if found.return_code != 0:
        fail(("@libtorch: %s cannot find torch (%s); tools/setup.sh installs " +
              "torch==%s from tools/requirements.txt") %
             (PYTHON3, found.stderr.strip() or found.stdout.strip(), pinned))
    version, root = found.stdout.strip().splitlines()[-2:]

    # A local build label (2.13.0+cpu) is the same release.
    if version.split("+")[0] != pinned:
        fail(("@libtorch: %s has torch %s at %s, but tools/requirements.txt " +
              "pins torch==%s; run tools/setup.sh") % (PYTHON3, version, root, pinned))
    for tree in _HEADER_TREES:
        ctx.symlink(root + "/include/" + tree, "include/" + tree)
    for lib in _LIBRARIES:
        ctx.symlink(root + "/lib/" + lib, "lib/" + lib)
    ctx.template("BUILD.bazel", ctx.attr.build_file_template, {
        "%{torch_version}": version,
        "%{torch_root}": root,
    })

libtorch_repository = repository_rule(
    implementation = _libtorch_repository_impl,
    attrs = {
        "build_file_template": attr.label(mandatory = True, allow_single_file = True),
        "requirements": attr.label(mandatory = True, allow_single_file = True),
    },
    # Re-evaluated when Bazel's server starts: an upgraded or reinstalled
    # torch is found again. Its files are declared inputs of every action
    # that uses them (libtorch.BUILD.tpl), so their content keys the cache.
    local = True,
)
