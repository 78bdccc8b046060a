#include "shrt/engine/fused_partial.h"

#include <cmath>
#include <complex>
#include <cstdint>

#include "ATen/Dispatch.h"
#include "c10/util/complex.h"
#include "shrt/engine/rounding_slack.h"

namespace shrt {
namespace {

// A contiguous tensor with no conjugate or negative bit: what data_ptr
// reads as the values.
// Returns `t` itself when it is one already: resolve_conj and resolve_neg
// are dispatched calls even on a tensor without the bit.
at::Tensor Plain(const at::Tensor& t) {
  if (!t.is_conj() && !t.is_neg() && t.is_contiguous()) return t;
  return t.resolve_conj().resolve_neg().contiguous();
}

// The reduction of one element's parts by `kOp`, as ReducePartial makes it
// in float64: maximum and minimum propagate NaN. A template on the op, so
// that the element loops below hold no switch.
template <ReduceOp kOp>
double Reduce2(double acc, double x) {
  if constexpr (kOp == ReduceOp::kSum || kOp == ReduceOp::kAvg) {
    return acc + x;
  } else if constexpr (kOp == ReduceOp::kMax) {
    return (std::isnan(acc) || std::isnan(x)) ? NAN : std::max(acc, x);
  } else if constexpr (kOp == ReduceOp::kMin) {
    return (std::isnan(acc) || std::isnan(x)) ? NAN : std::min(acc, x);
  } else {
    static_assert(kOp == ReduceOp::kProduct, "_NormP is never fused");
    return acc * x;
  }
}

// The mean of element i's parts as sum_r part_r / W: ReducePartial's
// P(avg) where the sum of the parts overflows float64 but their mean does
// not (parts near float64's largest value).
template <typename T>
double MeanOfParts(const std::vector<const T*>& parts, int64_t i) {
  double mean = 0;
  for (const T* part : parts) mean += static_cast<double>(part[i]) / static_cast<double>(parts.size());
  return mean;
}

// Floating locals (and P(avg) of integers), reduced in float64 as
// ReducePartial does.
template <typename T, ReduceOp kOp>
Comparison FusedReal(const at::Tensor& full, const std::vector<at::Tensor>& locals,
                     Tolerance tol, double eps, double input_scale, bool special) {
  const int64_t n = full.numel();
  const int w = static_cast<int>(locals.size());
  std::vector<const T*> parts;
  for (const at::Tensor& l : locals) parts.push_back(l.data_ptr<T>());
  const T* ep = full.data_ptr<T>();
  // Rank by rank over all elements, each element's parts still reduced in
  // rank order (the same sums, bit for bit, as element by element).
  std::vector<double> reduced(n), want(n), slack(n);
  double* acc = reduced.data();
  double* abs_sum = slack.data();  // each element's sum of |part| until its slack replaces it
  for (int64_t i = 0; i < n; ++i) {
    acc[i] = static_cast<double>(parts[0][i]);
    abs_sum[i] = std::abs(acc[i]);
  }
  for (int r = 1; r < w; ++r) {
    const T* part = parts[r];
    for (int64_t i = 0; i < n; ++i) {
      const double x = static_cast<double>(part[i]);
      acc[i] = Reduce2<kOp>(acc[i], x);
      abs_sum[i] += std::abs(x);
    }
  }
  for (int64_t i = 0; i < n; ++i) {
    if constexpr (kOp == ReduceOp::kAvg) {
      acc[i] /= w;
      if (std::isinf(acc[i])) acc[i] = MeanOfParts(parts, i);
    }
    // A non-finite full element is no evidence (output_check.h), nor, in a
    // case of special values, an overflow: an infinite part (its |part|
    // summed to inf) or reduction.
    const bool overflow = special && (std::isinf(abs_sum[i]) || std::isinf(acc[i]));
    slack[i] = PartialRoundingSlack(kOp, abs_sum[i], std::abs(acc[i]), w, eps, input_scale);
    want[i] = static_cast<double>(ep[i]);
    if (!std::isfinite(want[i]) || overflow) acc[i] = want[i];
  }
  return CompareValues(n, reduced.data(), want.data(), slack.data(), tol, full.sizes());
}

// FusedReal<T, op> for the op named at run time.
template <typename T>
Comparison FusedRealOf(const at::Tensor& full, const std::vector<at::Tensor>& locals, ReduceOp op,
                       Tolerance tol, double eps, double input_scale, bool special) {
  switch (op) {
    case ReduceOp::kSum: return FusedReal<T, ReduceOp::kSum>(full, locals, tol, eps, input_scale, special);
    case ReduceOp::kAvg: return FusedReal<T, ReduceOp::kAvg>(full, locals, tol, eps, input_scale, special);
    case ReduceOp::kMax: return FusedReal<T, ReduceOp::kMax>(full, locals, tol, eps, input_scale, special);
    case ReduceOp::kMin: return FusedReal<T, ReduceOp::kMin>(full, locals, tol, eps, input_scale, special);
    case ReduceOp::kProduct:
      return FusedReal<T, ReduceOp::kProduct>(full, locals, tol, eps, input_scale, special);
    case ReduceOp::kNorm: break;
  }
  TORCH_INTERNAL_ASSERT(false, "FusedRealOf: _NormP is never fused (FusedPartialComparison)");
}

// Complex locals under P(sum) or P(avg), reduced in complex128; compared
// through their real views (compare.h CompareTensors), each element's slack
// from the parts' moduli (at::abs, in the locals' precision) for both of
// its parts.
template <typename T>
Comparison FusedComplex(const at::Tensor& full, const std::vector<at::Tensor>& locals,
                        ReduceOp op, Tolerance tol, double eps, double input_scale, bool special) {
  using Real = typename T::value_type;
  const int64_t n = full.numel();
  const int w = static_cast<int>(locals.size());
  std::vector<const T*> parts;
  for (const at::Tensor& l : locals) parts.push_back(l.data_ptr<T>());
  const T* ep = full.data_ptr<T>();
  std::vector<double> reduced(2 * n), want(2 * n), slack(2 * n);
  auto modulus = [](T z) {
    return static_cast<double>(std::abs(std::complex<Real>(z.real(), z.imag())));
  };
  for (int64_t i = 0; i < n; ++i) {
    double re = 0, im = 0, abs_sum = 0;
    for (int r = 0; r < w; ++r) {
      re += static_cast<double>(parts[r][i].real());
      im += static_cast<double>(parts[r][i].imag());
      abs_sum += modulus(parts[r][i]);
    }
    if (op == ReduceOp::kAvg) {
      re /= w;
      im /= w;
    }
    const double s = PartialRoundingSlack(op, abs_sum, 0, w, eps, input_scale);  // P(sum), P(avg)
    const double fre = static_cast<double>(ep[i].real()), fim = static_cast<double>(ep[i].imag());
    const bool overflow =
        special && (std::isinf(abs_sum) || std::isinf(re) || std::isinf(im));
    const bool finite = std::isfinite(fre) && std::isfinite(fim) && !overflow;
    reduced[2 * i] = finite ? re : fre;
    reduced[2 * i + 1] = finite ? im : fim;
    want[2 * i] = fre;
    want[2 * i + 1] = fim;
    slack[2 * i] = slack[2 * i + 1] = s;
  }
  std::vector<int64_t> sizes = full.sizes().vec();
  sizes.push_back(2);
  return CompareValues(2 * n, reduced.data(), want.data(), slack.data(), tol, sizes);
}

// Integer and bool locals under P(sum), P(max), P(min) or P(product),
// reduced in their own dtype (sums and products wrap, as ATen's add and mul
// on the dtype do; bool's add is or, its mul and) and compared exactly.
template <typename T>
Comparison FusedExact(const at::Tensor& full, const std::vector<at::Tensor>& locals,
                      ReduceOp op) {
  const int64_t n = full.numel();
  std::vector<const T*> parts;
  for (const at::Tensor& l : locals) parts.push_back(l.data_ptr<T>());
  const T* ep = full.data_ptr<T>();
  std::vector<int64_t> reduced(n), want(n);
  // Modulo 2^64, then cast to T: the dtype's wrapping (C++20 conversions
  // are modular), and a bool's nonzero is true.
  auto wide = [](T x) { return static_cast<uint64_t>(x); };
  for (int64_t i = 0; i < n; ++i) {
    T acc = parts[0][i];
    for (size_t r = 1; r < parts.size(); ++r) {
      const T x = parts[r][i];
      switch (op) {
        case ReduceOp::kSum: acc = static_cast<T>(wide(acc) + wide(x)); break;
        case ReduceOp::kProduct: acc = static_cast<T>(wide(acc) * wide(x)); break;
        case ReduceOp::kMax: acc = std::max(acc, x); break;
        case ReduceOp::kMin: acc = std::min(acc, x); break;
        default: break;  // P(avg) and _NormP: not here
      }
    }
    reduced[i] = static_cast<int64_t>(acc);
    want[i] = static_cast<int64_t>(ep[i]);
  }
  return CompareIntegers(n, reduced.data(), want.data(), full.sizes());
}

}  // namespace

std::optional<Comparison> FusedPartialComparison(const at::Tensor& full,
                                                 const std::vector<at::Tensor>& locals,
                                                 ReduceOp op, Tolerance tol, double eps,
                                                 double input_scale, bool special) {
  if (op == ReduceOp::kNorm || locals.empty()) return std::nullopt;
  const at::ScalarType t = full.scalar_type();
  const bool floating = at::isFloatingType(t);
  const bool complex = t == at::kComplexFloat || t == at::kComplexDouble;
  const bool integral =
      t == at::kByte || t == at::kChar || t == at::kShort || t == at::kInt || t == at::kLong ||
      t == at::kBool;
  const bool floating_known = t == at::kFloat || t == at::kDouble || t == at::kHalf ||
                              t == at::kBFloat16;
  if (floating && !floating_known) return std::nullopt;
  if (complex && op != ReduceOp::kSum && op != ReduceOp::kAvg) return std::nullopt;
  if (!floating && !complex && !integral) return std::nullopt;
  const at::Tensor expected = Plain(full);
  std::vector<at::Tensor> plain;
  for (const at::Tensor& l : locals) plain.push_back(Plain(l));
  Comparison c;
  if (floating || (integral && op == ReduceOp::kAvg)) {
    AT_DISPATCH_ALL_TYPES_AND3(at::kHalf, at::kBFloat16, at::kBool, t, "FusedReal", [&] {
      c = FusedRealOf<scalar_t>(expected, plain, op, tol, eps, input_scale, special);
    });
  } else if (complex) {
    AT_DISPATCH_COMPLEX_TYPES(t, "FusedComplex", [&] {
      c = FusedComplex<scalar_t>(expected, plain, op, tol, eps, input_scale, special);
    });
  } else {
    AT_DISPATCH_INTEGRAL_TYPES_AND(at::kBool, t, "FusedExact",
                                   [&] { c = FusedExact<scalar_t>(expected, plain, op); });
  }
  return c;
}

}  // namespace shrt
