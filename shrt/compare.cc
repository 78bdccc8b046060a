#include "shrt/compare.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

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

Tolerance DefaultTolerance(c10::ScalarType dtype) {
  for (const auto& e : kPrecisions) {
    if (e.dtype == dtype) return e.tol;
  }
  return {0, 0};
}

Comparison CompareTensors(const at::Tensor& actual, const at::Tensor& expected, Tolerance tol,
                          const at::Tensor& slack) {
  Comparison c;
  if (actual.sizes() != expected.sizes()) {
    c.equal = false;
    c.mismatches = 1;
    c.max_abs_diff = INFINITY;
    c.detail = absl::StrCat("shape [", absl::StrJoin(actual.sizes(), ", "), "] vs expected [",
                            absl::StrJoin(expected.sizes(), ", "), "]");
    return c;
  }
  // Integers (and bool) compare exactly in int64; anything involving a
  // floating tensor compares in float64 (an integer P(avg) reduction is
  // float64 against an integer expectation).
  const bool exact = !at::isFloatingType(actual.scalar_type()) &&
                     !at::isFloatingType(expected.scalar_type());
  const at::ScalarType common = exact ? at::kLong : at::kDouble;
  const at::Tensor a = actual.to(common).contiguous();
  const at::Tensor e = expected.to(common).contiguous();
  const at::Tensor s = slack.defined() ? slack.to(at::kDouble).contiguous() : at::Tensor();
  const int64_t n = a.numel();
  auto note = [&](int64_t i, double diff, const std::string& av, const std::string& ev) {
    if (c.mismatches++ == 0) {
      c.detail = absl::StrCat("at ", IndexText(i, expected.sizes()), ": ", av, " vs expected ", ev);
    }
    c.max_abs_diff = std::max(c.max_abs_diff, diff);
    c.equal = false;
  };
  if (exact) {
    const int64_t* ap = a.data_ptr<int64_t>();
    const int64_t* ep = e.data_ptr<int64_t>();
    for (int64_t i = 0; i < n; ++i) {
      if (ap[i] != ep[i]) {
        note(i, std::abs(static_cast<double>(ap[i]) - static_cast<double>(ep[i])),
             absl::StrCat(ap[i]), absl::StrCat(ep[i]));
      }
    }
    return c;
  }
  const double* ap = a.data_ptr<double>();
  const double* ep = e.data_ptr<double>();
  const double* sp = s.defined() ? s.data_ptr<double>() : nullptr;
  for (int64_t i = 0; i < n; ++i) {
    const double x = ap[i], y = ep[i];
    if (std::isnan(x) || std::isnan(y)) {
      if (std::isnan(x) != std::isnan(y)) note(i, INFINITY, absl::StrCat(x), absl::StrCat(y));
      continue;
    }
    if (std::isinf(x) || std::isinf(y)) {
      if (x != y) note(i, INFINITY, absl::StrCat(x), absl::StrCat(y));
      continue;
    }
    const double diff = std::abs(x - y);
    const double allowed = tol.atol + tol.rtol * std::abs(y) + (sp ? sp[i] : 0.0);
    if (diff > allowed) note(i, diff, absl::StrCat(x), absl::StrCat(y));
  }
  return c;
}

}  // namespace shrt
