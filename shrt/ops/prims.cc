#include "shrt/ops/prims.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "ATen/core/Tensor.h"
#include "ATen/core/dispatch/Dispatcher.h"
#include "ATen/core/stack.h"
#include "absl/status/statusor.h"
#include "c10/util/Exception.h"
#include "shrt/ops/overload_name.h"
#include "torch/library.h"

namespace shrt {

const std::vector<PrimOp>& PrimOps() {
  using K = PrimKind;
  static const auto* ops = new std::vector<PrimOp>{
      {"abs(Tensor self) -> Tensor", "aten::abs", K::kElementwise},
      {"bessel_i0e(Tensor self) -> Tensor", "aten::special_i0e", K::kElementwise},
      {"bessel_i1(Tensor self) -> Tensor", "aten::special_i1", K::kElementwise},
      {"bessel_i1e(Tensor self) -> Tensor", "aten::special_i1e", K::kElementwise},
      {"bessel_j0(Tensor self) -> Tensor", "aten::special_bessel_j0", K::kElementwise},
      {"bessel_j1(Tensor self) -> Tensor", "aten::special_bessel_j1", K::kElementwise},
      {"bitwise_not(Tensor self) -> Tensor", "aten::bitwise_not", K::kElementwise},
      {"conj_physical(Tensor self) -> Tensor", "aten::_conj_physical", K::kElementwise},
      // _convert_element_type_aten: empty_like(a, dtype=dtype), then copy_to.
      {"convert_element_type(Tensor a, ScalarType dtype) -> Tensor", "aten::_to_copy", K::kPlain},
      {"copy_to(Tensor(a!) a, Tensor b) -> Tensor(a!)", "aten::copy_", K::kCopyTo},
      {"digamma(Tensor self) -> Tensor", "aten::digamma", K::kElementwise},
      {"div(Tensor self, Tensor other) -> Tensor", "aten::div.Tensor_mode", K::kDiv},
      {"erfcx(Tensor self) -> Tensor", "aten::special_erfcx", K::kElementwise},
      {"exp2(Tensor self) -> Tensor", "aten::special_exp2", K::kElementwise},
      {"fmax(Tensor self, Tensor other) -> Tensor", "aten::fmax", K::kElementwise},
      {"fmin(Tensor self, Tensor other) -> Tensor", "aten::fmin", K::kElementwise},
      {"frexp(Tensor self) -> (Tensor mantissa, Tensor exponent)", "aten::frexp.Tensor",
       K::kElementwise},
      {"gcd(Tensor self, Tensor other) -> Tensor", "aten::gcd", K::kElementwise},
      {"hypot(Tensor self, Tensor other) -> Tensor", "aten::hypot", K::kElementwise},
      {"igamma(Tensor self, Tensor other) -> Tensor", "aten::special_gammainc", K::kElementwise},
      {"igammac(Tensor self, Tensor other) -> Tensor", "aten::special_gammaincc",
       K::kElementwise},
      {"log2(Tensor self) -> Tensor", "aten::log2", K::kElementwise},
      {"maximum(Tensor self, Tensor other) -> Tensor", "aten::maximum", K::kElementwise},
      {"minimum(Tensor self, Tensor other) -> Tensor", "aten::minimum", K::kElementwise},
      {"ndtri(Tensor self) -> Tensor", "aten::special_ndtri", K::kElementwise},
      {"ne(Tensor self, Tensor other) -> Tensor", "aten::ne.Tensor", K::kElementwise},
      {"nextafter(Tensor self, Tensor other) -> Tensor", "aten::nextafter", K::kElementwise},
      {"prod(Tensor inp, int[]? dims, *, ScalarType? output_dtype=None) -> Tensor",
       "aten::prod.dim_int", K::kProd},
      {"reciprocal(Tensor self) -> Tensor", "aten::reciprocal", K::kElementwise},
      {"rsqrt(Tensor self) -> Tensor", "aten::rsqrt", K::kElementwise},
      {"sign(Tensor self) -> Tensor", "aten::sign", K::kElementwise},
      {"signbit(Tensor self) -> Tensor", "aten::signbit", K::kElementwise},
      {"spherical_bessel_j0(Tensor self) -> Tensor", "aten::special_spherical_bessel_j0",
       K::kElementwise},
      {"sum(Tensor inp, int[]? dims, *, ScalarType? output_dtype=None) -> Tensor",
       "aten::sum.dim_IntList", K::kReduction},
      {"trunc(Tensor self) -> Tensor", "aten::trunc", K::kElementwise},
      {"var(Tensor inp, int[]? dims, float? correction=1, *, ScalarType? output_dtype=None) -> "
       "Tensor",
       "aten::var.correction", K::kReduction},
      // _view_of_aten: a.view(a.shape), an alias of a.
      {"view_of(Tensor(a) a) -> Tensor(a)", "aten::alias", K::kPlain},
      {"zeta(Tensor self, Tensor other) -> Tensor", "aten::special_zeta", K::kElementwise},
  };
  return *ops;
}

namespace {

// The prim's name in its namespace: its schema up to "(".
std::string NameOf(const PrimOp& prim) {
  const std::string schema = prim.schema;
  return schema.substr(0, schema.find('('));
}

}  // namespace

std::string PrimName(const PrimOp& prim) { return "prims::" + NameOf(prim); }

namespace {

// A prim's row and its aten operator, found once per process: the kernel
// runs on every operator call of ground truth.
struct Resolved {
  const PrimOp* prim;
  c10::OperatorHandle aten;
};

const Resolved& ResolvedOf(const c10::OperatorHandle& op) {
  static const auto* table = [] {
    auto* t = new std::map<std::string, Resolved>;
    for (const PrimOp& prim : PrimOps()) {
      const absl::StatusOr<c10::OperatorName> aten = ParseOverloadName(prim.aten);
      TORCH_CHECK(aten.ok(), aten.status().ToString());
      t->emplace(PrimName(prim),
                 Resolved{&prim, c10::Dispatcher::singleton().findSchemaOrThrow(
                                     aten->name.c_str(), aten->overload_name.c_str())});
    }
    return t;
  }();
  const auto it = table->find(op.operator_name().name);  // "prims::abs"
  TORCH_CHECK(it != table->end(), op.operator_name().name,
              " is not in shrt/ops/prims.cc's table");
  return it->second;
}

// _prim_elementwise_meta: check_same_dtype, then check_same_shape with
// allow_cpu_scalar_tensors (a 0-d tensor goes with any shape).
void CheckElementwise(const std::string& name, c10::ArrayRef<c10::IValue> args) {
  const at::Tensor* first = nullptr;
  const at::Tensor* shaped = nullptr;
  for (const c10::IValue& v : args) {
    if (!v.isTensor()) continue;
    const at::Tensor& t = v.toTensor();
    if (first == nullptr) first = &t;
    TORCH_CHECK(t.scalar_type() == first->scalar_type(), "prims::", name, ": Tensor with dtype ",
                t.scalar_type(), " is not the expected dtype of ", first->scalar_type(), "!");
    if (t.dim() == 0) continue;
    if (shaped == nullptr) shaped = &t;
    TORCH_CHECK(t.sizes() == shaped->sizes(), "prims::", name, ": Shape ", t.sizes(),
                " is not the expected shape ", shaped->sizes(), "!");
  }
}

// _reduction_meta: compute_reduction_output_shape iterates dims and
// validate_idx asserts 0 <= d < ndim (or d == 0); impl_aten refuses an
// output_dtype (torch.sum(..., output_dtype=) is a TypeError).
void CheckReduction(const std::string& name, c10::ArrayRef<c10::IValue> args) {
  TORCH_CHECK(!args[1].isNone(), "prims::", name, ": dims None: 'NoneType' object is not iterable");
  const int64_t rank = args[0].toTensor().dim();
  for (const int64_t d : args[1].toIntVector()) {
    TORCH_CHECK((d >= 0 && d < rank) || d == 0, "prims::", name, ": idx ", d,
                " is out of bounds for rank ", rank);
  }
  TORCH_CHECK(args.back().isNone(), "prims::", name,
              ": impl_aten takes no keyword argument 'output_dtype'");
}

// Calls `aten` on the prim's arguments left on `stack`, its further
// arguments at their defaults.
void CallWithDefaults(const c10::OperatorHandle& aten, torch::jit::Stack* stack, size_t given) {
  const std::vector<c10::Argument>& params = aten.schema().arguments();
  for (size_t i = given; i < params.size(); ++i) {
    TORCH_CHECK(params[i].default_value().has_value(), aten.operator_name(), "'s argument ",
                params[i].name(), " has no default");
    torch::jit::push(*stack, *params[i].default_value());
  }
  aten.callBoxed(stack);
}

void RunPrim(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
  const Resolved& resolved = ResolvedOf(op);
  const PrimOp& prim = *resolved.prim;
  const c10::OperatorHandle& aten = resolved.aten;
  const std::string name = NameOf(prim);
  const size_t n = op.schema().arguments().size();
  const c10::ArrayRef<c10::IValue> args = torch::jit::last(*stack, n);
  switch (prim.kind) {
    case PrimKind::kElementwise:
      CheckElementwise(name, args);
      return CallWithDefaults(aten, stack, n);
    case PrimKind::kPlain:
      return CallWithDefaults(aten, stack, n);
    case PrimKind::kCopyTo:
      TORCH_CHECK(args[0].toTensor().numel() == args[1].toTensor().numel(), "prims::", name,
                  ": Attempting to copy ", args[1].toTensor().numel(),
                  " elements to a tensor with ", args[0].toTensor().numel(), " elements!");
      return CallWithDefaults(aten, stack, n);
    case PrimKind::kDiv: {
      CheckElementwise(name, args);
      const bool integer = c10::isIntegralType(args[0].toTensor().scalar_type(), false);
      torch::jit::push(*stack, integer ? c10::IValue(std::string("trunc")) : c10::IValue());
      return CallWithDefaults(aten, stack, n + 1);
    }
    case PrimKind::kReduction:
      CheckReduction(name, args);
      torch::jit::pop(*stack);  // output_dtype, None
      return CallWithDefaults(aten, stack, n - 1);
    case PrimKind::kProd: {
      CheckReduction(name, args);
      at::Tensor result = args[0].toTensor();
      std::vector<int64_t> dims = args[1].toIntVector();
      torch::jit::drop(*stack, n);
      if (dims.empty()) {
        result = result.clone();
      } else {
        std::sort(dims.rbegin(), dims.rend());
        for (const int64_t d : dims) {
          torch::jit::push(*stack, result, d);
          CallWithDefaults(aten, stack, 2);
          result = torch::jit::pop(*stack).toTensor();
        }
      }
      torch::jit::push(*stack, std::move(result));
      return;
    }
  }
}

void PrimKernel(const c10::OperatorHandle& op, c10::DispatchKeySet, torch::jit::Stack* stack) {
  RunPrim(op, stack);
}

TORCH_LIBRARY(prims, m) {
  for (const PrimOp& prim : PrimOps()) m.def(prim.schema);
}

TORCH_LIBRARY_IMPL(prims, CompositeExplicitAutograd, m) {
  for (const PrimOp& prim : PrimOps()) {
    m.impl(NameOf(prim).c_str(), torch::CppFunction::makeFromBoxedFunction<&PrimKernel>());
  }
}

}  // namespace
}  // namespace shrt
