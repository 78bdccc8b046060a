"""The libtorch settings of the eager-PyTorch reference
(tools/bench/reference.py) and of tools/bench/differential.py, those of the
C++ ground truth: one intra-op thread, uninitialised memory filled
deterministically, and no c10 backtraces on exceptions (below).
"""

import ctypes
import hashlib
import os
import subprocess
import sys
import tempfile

import torch


# ---------------------------------------------------------------------------
# c10 backtraces. Every c10::Error symbolises a C++ backtrace when it is
# built (several ms each: most of this benchmark's time goes to the ranks
# that raise). ShRT's C++ switches that off once with
# c10::SetStackTraceFetcher (shrt/engine/ground_truth.cc); Python has no API for it, so
# the same call is made from a tiny shim linked against the very libc10 that
# torch loaded. --cpp_backtraces keeps the stock behaviour.

_SHIM_SRC = r"""
#include <string>
#include "c10/util/Logging.h"
extern "C" void shrt_no_backtraces() {
  c10::SetStackTraceFetcher([] { return std::string(); });
}
"""


def use_ground_truth_runtime():
    """The libtorch settings of the C++ ground truth (shrt/engine/torch_runtime.h)
    that Python can make: one intra-op thread, deterministic algorithms in
    warn-only mode, and uninitialised memory filled, so that an output a
    kernel leaves unwritten does not depend on what the allocator last held.
    The C++ side fills every CPU buffer with 0xFF bytes through its own
    allocator (NaN in floating dtypes, -1 in signed integers), which Python
    cannot install; here libtorch's fill does it for at::empty and resize_
    (NaN, or the dtype's largest value in integral ones: TensorFactories.h
    fill_empty_deterministic_)."""
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True, warn_only=True)
    torch.utils.deterministic.fill_uninitialized_memory = True


def disable_c10_backtraces():
    """True when c10 stopped fetching backtraces; False (and why on stderr) if not."""
    key = hashlib.sha1((_SHIM_SRC + torch.__version__).encode()).hexdigest()[:12]
    cache = os.path.join(tempfile.gettempdir(), "shrt_reference_%d" % os.getuid())
    lib = os.path.join(cache, "no_backtraces_%s.so" % key)
    try:
        if not os.path.exists(lib):
            os.makedirs(cache, exist_ok=True)
            src = os.path.join(cache, "no_backtraces_%s.cc" % key)
            with open(src, "w") as f:
                f.write(_SHIM_SRC)
            tmp = lib + ".%d" % os.getpid()
            # torch's own headers and libc10 (the wheel's, not the system's).
            from torch.utils import cpp_extension
            flags = ["-I" + d for d in cpp_extension.include_paths()]
            for d in cpp_extension.library_paths():
                flags += ["-L" + d, "-Wl,-rpath," + d]
            subprocess.run(["g++", "-std=c++20", "-O1", "-shared", "-fPIC", "-o", tmp, src]
                           + flags + ["-lc10"], check=True, capture_output=True, text=True)
            os.replace(tmp, lib)
        ctypes.CDLL(lib).shrt_no_backtraces()
        return True
    except (OSError, subprocess.CalledProcessError) as e:
        detail = getattr(e, "stderr", "") or str(e)
        print("reference: c10 backtraces stay on (shim failed: %s)" % detail.strip()[:300],
              file=sys.stderr)
        return False
