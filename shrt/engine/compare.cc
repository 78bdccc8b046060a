#include "shrt/engine/compare.h"

#include <cmath>

#include "ATen/Dispatch.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "shrt/spec/aten_functions.h"

namespace shrt {
namespace {

struct PrecisionEntry {
  c10::ScalarType dtype;
  Tolerance tol;
};
// torch/testing/_comparison.py, _DTYPE_PRECISIONS.
constexpr PrecisionEntry kPrecisions[] = {
    {c10::ScalarType::Half, {1e-3, 1e-5}},
    {c10::ScalarType::BFloat16, {1.6e-2, 1e-5}},
    {c10::ScalarType::Float, {1.3e-6, 1e-5}},
    {c10::ScalarType::Double, {1e-7, 1e-7}},
};

std::string IndexText(int64_t flat, at::IntArrayRef sizes) {
  std::vector<int64_t> idx(sizes.size());
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    idx[d] = sizes[d] == 0 ? 0 : flat % sizes[d];
    flat = sizes[d] == 0 ? 0 : flat / sizes[d];
  }
  return absl::StrCat("[", absl::StrJoin(idx, ", "), "]");
}

}  // namespace

at::Tensor RealView(const at::Tensor& t) {
  if (!t.defined() || !c10::isComplexType(t.scalar_type())) return t;
  return ViewAsReal(t.resolve_conj().contiguous());
}

double Epsilon(c10::ScalarType dtype) {
  switch (c10::toRealValueType(dtype)) {
    case c10::ScalarType::Half: return 0x1p-10;
    case c10::ScalarType::BFloat16: return 0x1p-7;
    case c10::ScalarType::Float: return 0x1p-23;
    case c10::ScalarType::Double: return 0x1p-52;
    default: return 0;
  }
}

double FiniteMaxAbs(const at::Tensor& t) {
  if (t.numel() == 0) return 0;
  const at::Tensor c = RealView(t).contiguous();
  double m = 0;
  AT_DISPATCH_ALL_TYPES_AND3(at::kHalf, at::kBFloat16, at::kBool, c.scalar_type(), "FiniteMaxAbs",
                             [&] {
                               const scalar_t* p = c.data_ptr<scalar_t>();
                               const int64_t n = c.numel();
                               // In a register, not through the capture.
                               double max = 0;
                               for (int64_t i = 0; i < n; ++i) {
                                 const double v = std::abs(static_cast<double>(p[i]));
                                 if (std::isfinite(v)) max = std::max(max, v);
                               }
                               m = max;
                             });
  return m;
}

c10::ScalarType ComputationDtype(const std::vector<c10::ScalarType>& inputs,
                                 c10::ScalarType output) {
  if (Epsilon(output) == 0) return output;
  c10::ScalarType least = output;
  for (c10::ScalarType t : inputs) {
    if (Epsilon(t) > Epsilon(least)) least = t;
  }
  return least;
}

Tolerance DefaultTolerance(c10::ScalarType dtype) {
  for (const auto& e : kPrecisions) {
    if (e.dtype == c10::toRealValueType(dtype)) return e.tol;
  }
  return {0, 0};
}

namespace {

// The mismatches of one element loop, counted in locals and written to a
// Comparison once (Into): counted through the Comparison's reference, each
// mismatch's count and maximum waited on the last one's store (perf
// annotate). T is the loop's value type, as the first mismatch prints it.
template <typename T>
class Mismatches {
 public:
  explicit Mismatches(const Comparison& c) : max_abs_diff_(c.max_abs_diff) {}

  void Note(int64_t i, double diff, T x, T y) {
    if (count_++ == 0) {
      first_ = i;
      first_x_ = x;
      first_y_ = y;
    }
    max_abs_diff_ = std::max(max_abs_diff_, diff);
  }

  // Adds these to `c`; names the first mismatch (at expected's `sizes`)
  // unless `c` has one already.
  void Into(Comparison& c, at::IntArrayRef sizes) const {
    if (count_ == 0) return;
    if (c.mismatches == 0) {
      c.detail = absl::StrCat("at ", IndexText(first_, sizes), ": ", first_x_, " vs expected ",
                              first_y_);
    }
    c.mismatches += count_;
    c.max_abs_diff = max_abs_diff_;
    c.equal = false;
  }

 private:
  int64_t count_ = 0, first_ = -1;
  T first_x_{}, first_y_{};
  double max_abs_diff_;
};

// Compares n elements, read as doubles by a(i) and e(i), allowing
// slack(i) extra; formats only the first mismatch.
template <typename A, typename E, typename S>
void CompareFloats(int64_t n, A a, E e, S slack, Tolerance tol, at::IntArrayRef sizes,
                   Comparison& c) {
  Mismatches<double> m(c);
  for (int64_t i = 0; i < n; ++i) {
    const double x = a(i), y = e(i);
    if (std::isnan(x) || std::isnan(y)) {
      if (std::isnan(x) != std::isnan(y)) m.Note(i, INFINITY, x, y);
      continue;
    }
    if (std::isinf(x) || std::isinf(y)) {
      if (x != y) m.Note(i, INFINITY, x, y);
      continue;
    }
    const double diff = std::abs(x - y);
    if (diff > tol.atol + tol.rtol * std::abs(y) + slack(i)) m.Note(i, diff, x, y);
  }
  m.Into(c, sizes);
}

template <typename A, typename E>
void CompareExact(int64_t n, A a, E e, at::IntArrayRef sizes, Comparison& c) {
  Mismatches<int64_t> m(c);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t x = a(i), y = e(i);
    if (x != y) m.Note(i, std::abs(static_cast<double>(x) - static_cast<double>(y)), x, y);
  }
  m.Into(c, sizes);
}

}  // namespace

Comparison CompareValues(int64_t n, const double* actual, const double* expected,
                         const double* slack, Tolerance tol, at::IntArrayRef sizes) {
  Comparison c;
  CompareFloats(n, [&](int64_t i) { return actual[i]; }, [&](int64_t i) { return expected[i]; },
                [&](int64_t i) { return slack != nullptr ? slack[i] : 0.0; }, tol, sizes, c);
  return c;
}

Comparison CompareIntegers(int64_t n, const int64_t* actual, const int64_t* expected,
                           at::IntArrayRef sizes) {
  Comparison c;
  CompareExact(n, [&](int64_t i) { return actual[i]; }, [&](int64_t i) { return expected[i]; },
               sizes, c);
  return c;
}

std::optional<Comparison> CompareChunk(const at::Tensor& actual, const at::Tensor& expected,
                                       int64_t dim, int64_t begin, Tolerance tol) {
  const at::ScalarType t = actual.scalar_type();
  if (t != expected.scalar_type() || !actual.is_contiguous() || !expected.is_contiguous() ||
      actual.dim() != expected.dim() || dim < 0 || dim >= actual.dim() ||
      !(at::isIntegralType(t, /*includeBool=*/true) || t == at::kFloat || t == at::kDouble)) {
    return std::nullopt;
  }
  for (int64_t d = 0; d < actual.dim(); ++d) {
    if (d != dim && actual.size(d) != expected.size(d)) return std::nullopt;
  }
  const int64_t len = actual.size(dim), full_len = expected.size(dim);
  if (begin < 0 || begin + len > full_len) return std::nullopt;
  int64_t inner = 1;
  for (int64_t d = dim + 1; d < actual.dim(); ++d) inner *= actual.size(d);
  // Flat index i of the chunk -> flat index of expected.
  auto at_full = [=](int64_t i) {
    const int64_t outer = i / (len * inner), rest = i % (len * inner);
    return (outer * full_len + begin) * inner + rest;
  };
  Comparison c;
  const int64_t n = actual.numel();
  if (at::isIntegralType(t, /*includeBool=*/true)) {
    AT_DISPATCH_INTEGRAL_TYPES_AND(at::kBool, t, "CompareChunk", [&] {
      const scalar_t* ap = actual.data_ptr<scalar_t>();
      const scalar_t* ep = expected.data_ptr<scalar_t>();
      CompareExact(n, [&](int64_t i) { return static_cast<int64_t>(ap[i]); },
                   [&](int64_t i) { return static_cast<int64_t>(ep[at_full(i)]); },
                   actual.sizes(), c);
    });
    return c;
  }
  AT_DISPATCH_FLOATING_TYPES(t, "CompareChunk", [&] {
    const scalar_t* ap = actual.data_ptr<scalar_t>();
    const scalar_t* ep = expected.data_ptr<scalar_t>();
    CompareFloats(n, [&](int64_t i) { return static_cast<double>(ap[i]); },
                  [&](int64_t i) { return static_cast<double>(ep[at_full(i)]); },
                  [](int64_t) { return 0.0; }, tol, actual.sizes(), c);
  });
  return c;
}

Comparison CompareTensors(const at::Tensor& actual, const at::Tensor& expected, Tolerance tol,
                          const at::Tensor& slack, bool reference) {
  Comparison c;
  if (actual.sizes() != expected.sizes()) {
    c.equal = false;
    c.mismatches = 1;
    c.max_abs_diff = INFINITY;
    c.detail = absl::StrCat("shape [", absl::StrJoin(actual.sizes(), ", "), "] vs expected [",
                            absl::StrJoin(expected.sizes(), ", "), "]");
    return c;
  }
  if (c10::isComplexType(actual.scalar_type()) || c10::isComplexType(expected.scalar_type())) {
    // Fast path: one complex dtype, no slack: the real views in place (the
    // same float64 values as converting both first).
    if (!reference && actual.scalar_type() == expected.scalar_type() && !slack.defined()) {
      return CompareTensors(RealView(actual), RealView(expected), tol);
    }
    const at::Tensor a = RealView(actual.to(at::kComplexDouble));
    const at::Tensor e = RealView(expected.to(at::kComplexDouble));
    const at::Tensor s = slack.defined() ? slack.to(at::kDouble).unsqueeze(-1).expand(e.sizes())
                                         : at::Tensor();
    return CompareTensors(a, e, tol, s.defined() ? s.contiguous() : s, reference);
  }
  // Integers (and bool) compare exactly in int64; anything involving a
  // floating tensor compares in float64 (an integer P(avg) reduction is
  // float64 against an integer expectation).
  const bool exact = !at::isFloatingType(actual.scalar_type()) &&
                     !at::isFloatingType(expected.scalar_type());
  const int64_t n = actual.numel();
  const at::IntArrayRef sizes = expected.sizes();
  // Fast path: same dtype, both contiguous, read in place (no conversion).
  const bool direct = !reference && actual.scalar_type() == expected.scalar_type() &&
                      actual.is_contiguous() && expected.is_contiguous() &&
                      (!slack.defined() ||
                       (slack.scalar_type() == at::kDouble && slack.is_contiguous()));
  if (direct && exact) {
    AT_DISPATCH_INTEGRAL_TYPES_AND(at::kBool, actual.scalar_type(), "CompareExact", [&] {
      const scalar_t* ap = actual.data_ptr<scalar_t>();
      const scalar_t* ep = expected.data_ptr<scalar_t>();
      CompareExact(n, [&](int64_t i) { return static_cast<int64_t>(ap[i]); },
                   [&](int64_t i) { return static_cast<int64_t>(ep[i]); }, sizes, c);
    });
    return c;
  }
  const at::ScalarType t = actual.scalar_type();
  if (direct && (t == at::kFloat || t == at::kDouble)) {
    const double* sp = slack.defined() ? slack.data_ptr<double>() : nullptr;
    auto s = [&](int64_t i) { return sp ? sp[i] : 0.0; };
    AT_DISPATCH_FLOATING_TYPES(t, "CompareFloats", [&] {
      const scalar_t* ap = actual.data_ptr<scalar_t>();
      const scalar_t* ep = expected.data_ptr<scalar_t>();
      CompareFloats(n, [&](int64_t i) { return static_cast<double>(ap[i]); },
                    [&](int64_t i) { return static_cast<double>(ep[i]); }, s, tol, sizes, c);
    });
    return c;
  }
  // Reference path: convert both to a common dtype first.
  const at::ScalarType common = exact ? at::kLong : at::kDouble;
  const at::Tensor a = actual.to(common).contiguous();
  const at::Tensor e = expected.to(common).contiguous();
  if (exact) {
    const int64_t* ap = a.data_ptr<int64_t>();
    const int64_t* ep = e.data_ptr<int64_t>();
    CompareExact(n, [&](int64_t i) { return ap[i]; }, [&](int64_t i) { return ep[i]; }, sizes, c);
    return c;
  }
  const at::Tensor sl = slack.defined() ? slack.to(at::kDouble).contiguous() : at::Tensor();
  const double* ap = a.data_ptr<double>();
  const double* ep = e.data_ptr<double>();
  const double* sp = sl.defined() ? sl.data_ptr<double>() : nullptr;
  CompareFloats(n, [&](int64_t i) { return ap[i]; }, [&](int64_t i) { return ep[i]; },
                [&](int64_t i) { return sp ? sp[i] : 0.0; }, tol, sizes, c);
  return c;
}

}  // namespace shrt
