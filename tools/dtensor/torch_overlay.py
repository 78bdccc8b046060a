"""A patched copy of the installed torch's Python sources, at the cost of a few files.

A fix to DTensor (dtensor/fixes/*.patch) is a unified diff against torch's
own files (`a/torch/distributed/tensor/_ops/_math_ops.py`). To judge DTensor
with the fix applied, ShRT asks a torch in which only those files differ:
`make` builds a directory `ROOT` whose `ROOT/torch` mirrors the installed
torch package through symbolic links, except that each file the patches
touch is a real copy (and each directory above it a real directory of links),
patched with GNU patch, with no fuzz: a fix applies to
exactly the lines it was written against. With `PYTHONPATH=ROOT`, Python imports `torch` from
`ROOT/torch`: the same compiled libraries (libtorch_cpu.so, torch._C) through
the links, the patched Python files through the copies. The installed torch
is never written: the copied directories leave out `__pycache__`, so Python
writes the patched files' bytecode inside ROOT.

Only Python sources can be patched this way; a patch touching a compiled
library or a file outside `torch/` is refused.
"""
import os
import re
import subprocess

# "+++ b/torch/distributed/tensor/_ops/_math_ops.py" (git diff, diff -u).
_TARGET = re.compile(r"^\+\+\+ (?:b/)?(\S+)", re.M)


class OverlayError(Exception):
    """A patch that cannot be applied: named file, one line of why."""


def installed_torch_dir():
    """The directory of the torch package this interpreter imports, without importing it."""
    import importlib.util
    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        raise OverlayError("this interpreter has no torch package")
    return spec.submodule_search_locations[0]


def patched_files(patch_path):
    """The files a unified diff changes, as paths relative to torch's parent (e.g. torch/...)."""
    with open(patch_path) as f:
        text = f.read()
    files = _TARGET.findall(text)
    if not files:
        raise OverlayError(f"{patch_path}: not a unified diff (no '+++ b/...' line)")
    for path in files:
        if not path.startswith("torch/") or not path.endswith(".py") or ".." in path.split("/"):
            raise OverlayError(f"{patch_path}: patches {path}; only torch's Python files can be patched")
    return files


def _make_real_dir(path, source):
    """Turns `path` (a link to `source`, or absent) into a directory of links to `source`'s entries."""
    if os.path.islink(path):
        os.unlink(path)
    if os.path.isdir(path):
        return
    os.mkdir(path)
    for entry in os.listdir(source):
        if entry != "__pycache__":
            os.symlink(os.path.join(source, entry), os.path.join(path, entry))


def make(patches, root, torch_dir=None):
    """Builds ROOT/torch: the installed torch with `patches` applied to copies of the files they touch.

    Args:
      patches: unified diffs (paths), applied in order with `patch -p1`.
      root: an empty or absent directory; ROOT is what PYTHONPATH must hold.
      torch_dir: the torch package to mirror (default: this interpreter's).
    Returns:
      root.
    Raises:
      OverlayError: a patch is not a unified diff, touches something other
        than a Python file under torch/, or does not apply (patch's output).
    """
    torch_dir = torch_dir or installed_torch_dir()
    site = os.path.dirname(torch_dir)
    os.makedirs(root, exist_ok=True)
    _make_real_dir(os.path.join(root, "torch"), torch_dir)
    for patch in patches:
        for rel in patched_files(patch):
            parts = rel.split("/")
            for depth in range(2, len(parts)):
                sub = "/".join(parts[:depth])
                _make_real_dir(os.path.join(root, sub), os.path.join(site, sub))
            target = os.path.join(root, rel)
            if os.path.islink(target):
                os.unlink(target)
                with open(os.path.join(site, rel), "rb") as src, open(target, "wb") as dst:
                    dst.write(src.read())
        done = subprocess.run(
            ["patch", "-p1", "--batch", "--forward", "--fuzz=0", "--no-backup-if-mismatch", "-d", root, "-i",
             os.path.abspath(patch)], capture_output=True, text=True)
        if done.returncode != 0:
            why = (done.stdout + done.stderr).strip().splitlines()
            raise OverlayError(f"{patch}: does not apply to {torch_dir}: {why[-1] if why else 'patch failed'}")
    return root
