// torch._prims' operators in libtorch's dispatcher, so that C++ ground truth
// can call the prims DTensor has sharding rules for.
//
// PyTorch defines the prims namespace from Python only
// (torch/_prims/__init__.py: `torch.library.Library("prims", "DEF")`; each
// prim's CompositeExplicitAutograd kernel `_make_prim._prim_impl` runs the
// prim's meta function for its checks, then its `impl_aten`), so a process
// without Python has no prims::sum to call. DTensor on torch 2.13 registers
// rules for 38 prims (torch/distributed/tensor/_ops/_pointwise_ops.py and
// _math_ops.py), which it meets when it shards through a decomposition.
//
// Linking //shrt/ops:prims defines those 38 with the schemas torch gives
// them (TORCH_LIBRARY(prims)), each with a kernel that does what
// `_prim_impl` does on dense CPU tensors:
//   - the meta function's checks: an elementwise prim's tensors share one
//     dtype and, 0-d tensors aside, one shape, with no broadcasting
//     (`_prim_elementwise_meta`: check_same_dtype, check_same_shape); a
//     reduction's dims lie in [0, ndim) and are not None
//     (`_reduction_meta`: compute_reduction_output_shape); `copy_to`'s two
//     tensors have as many elements (`_copy_to_meta`);
//   - then the aten operator `impl_aten` calls, its trailing arguments at
//     their defaults. Where impl_aten is more than one call:
//     `div` truncates on integer dtypes (`_div_aten`: div with
//     rounding_mode "trunc", true division otherwise, bool included);
//     `prod` multiplies over each dim in turn, the highest first, and is a
//     copy for dims = [] (`_prod_aten`); an `output_dtype` other than None
//     raises, as impl_aten receives it as a keyword it does not take.
// Like impl_aten (not like the meta function), `sum` and `var` reduce every
// dim for dims = [] (torch.sum's and torch.var's empty dim list).
//
// The table is also the prims' strategies' (shrt/strategies/prims.cc):
// a prim's rules are its aten operator's.
#ifndef SHRT_OPS_PRIMS_H_
#define SHRT_OPS_PRIMS_H_

#include <string>
#include <vector>

namespace shrt {

// How a prim's kernel calls its aten operator.
enum class PrimKind {
  kElementwise,  // meta's same dtype and shape checks, then `aten`
  kPlain,        // `aten`, no check of its own
  kCopyTo,       // meta's equal numel check, then `aten`
  kReduction,    // the dims checks, output_dtype None, then `aten`
  kDiv,          // elementwise checks, then `aten` with rounding_mode
                 // "trunc" on integer dtypes, None on the others
  kProd,         // the dims checks, then `aten` once per dim, highest first
};

// One prim: its schema as torch/_prims/__init__.py defines it, without the
// namespace ("sum(Tensor inp, int[]? dims, *, ScalarType? output_dtype=None)
// -> Tensor"), and the aten overload its impl_aten calls
// ("aten::sum.dim_IntList"), whose arguments are the prim's in order,
// with the aten overload's own defaults after them.
struct PrimOp {
  const char* schema;
  const char* aten;
  PrimKind kind;
};

// The 38 prims DTensor registers rules for on torch 2.13, sorted by name.
const std::vector<PrimOp>& PrimOps();

// The prim's overload name, its namespace included: "prims::sum".
std::string PrimName(const PrimOp& prim);

}  // namespace shrt

#endif  // SHRT_OPS_PRIMS_H_
