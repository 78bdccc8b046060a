"""aten::_log_softmax_backward_data on CPU reads past the end of `output`.

torch 2.13.0 (CPU wheel). The CPU kernel (aten/src/ATen/native/cpu/
SoftMaxKernel.cpp, log_softmax_backward_kernel_impl, reached from
structured_log_softmax_backward_cpu_out) does not check that grad_output
and output have the same shape; the meta function does ("Attempting to
broadcast a dimension of length 15"). With grad_output [15, 5] and output
[4, 5] it returns a [15, 5] result computed from memory past output's 20
elements: two calls on unchanged inputs differ when the bytes after output
change. When output owns its storage, valgrind reports "Invalid read of
size 32" in log_softmax_backward_kernel_impl.

Found by ShRT: the overload's ground truth depended on the heap (4,133
combination checks with glibc's malloc, 4,141 with TCMalloc) until
shrt/engine/torch_runtime.h fixed the bytes after every buffer.

Exits 1 while the bug exists, 0 once the CPU kernel rejects the shapes.
Run: /usr/bin/python3 docs/repros/log_softmax_backward_over_read.py
"""
import sys

import torch

aten = torch.ops.aten
torch.manual_seed(0)
grad = torch.randn(15, 5, dtype=torch.float64)
storage = torch.randn(15, 5, dtype=torch.float64).log_softmax(1)
out = storage[:4]  # a [4, 5] tensor; the rest of the storage is not part of it
try:
    before = aten._log_softmax_backward_data(grad, out, 1, torch.float64)
except RuntimeError as e:
    print(f"torch {torch.__version__}: the CPU kernel rejects the shapes: {e}")
    sys.exit(0)
storage[4:] = 0.0  # no element of `out` changes
after = aten._log_softmax_backward_data(grad, out, 1, torch.float64)
print(f"torch {torch.__version__}: grad_output {tuple(grad.shape)}, output {tuple(out.shape)} "
      f"-> result {tuple(before.shape)}; same inputs, same result: {torch.equal(before, after)}")
sys.exit(1)
