#include "shrt/spec/generators.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ATen/Dispatch.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "shrt/spec/aten_functions.h"
#include "shrt/spec/rng.h"

namespace shrt {
namespace {

using Values = std::vector<double>;

// One function per generator kind: fills `v` for input `i`.
void Arange(const ArangeGen& g, int i, Rng&, Values& v) {
  const double step = g.step() == 0 ? 1 : g.step();
  for (size_t k = 0; k < v.size(); ++k) {
    v[k] = g.start() + step * static_cast<double>(k) + g.per_input_offset() * i;
  }
}
void Normal(const NormalGen& g, int, Rng& rng, Values& v) {
  const double std = g.std() == 0 ? 1 : g.std();
  for (double& x : v) x = g.mean() + std * rng.Normal();
}
void Uniform(const UniformGen& g, int, Rng& rng, Values& v) {
  for (double& x : v) x = (g.random_sign() ? rng.Sign() : 1.0) * rng.Uniform(g.low(), g.high());
}
void Constant(const ConstantGen& g, int i, Rng&, Values& v) {
  std::fill(v.begin(), v.end(), g.value() + g.per_input_step() * i);
}
void Sparse(const SparseGen& g, int i, Rng& rng, Values& v) {
  for (double& x : v) {
    x = rng.Uniform() < g.density() ? rng.Sign() * rng.Uniform(g.low(), g.high()) : 0.0;
  }
  if (!v.empty() && i == 0) v[rng.Index(static_cast<int64_t>(v.size()))] = rng.Uniform(g.low(), g.high());
}
void Magnitude(const MagnitudeGen& g, int, Rng& rng, Values& v) {
  for (double& x : v) {
    x = (g.positive() ? 1.0 : rng.Sign()) * std::pow(10.0, rng.Uniform(g.min_exp(), g.max_exp()));
  }
}
void Ties(const TiesGen& g, int, Rng& rng, Values& v) {
  for (double& x : v) x = g.values(static_cast<int>(rng.Index(g.values_size())));
}
void Mask(const MaskGen& g, int i, Rng& rng, Values& v) {
  for (size_t k = 0; k < v.size(); ++k) {
    v[k] = g.alternating() ? static_cast<double>((k + i) % 2) : (rng.Uniform() < g.density() ? 1 : 0);
  }
}

// Standard normal draws, each element of a floating (complex) tensor
// special with probability g.density(); then as many of the special
// values as the tensor has elements (all of them, or a 0-d tensor one), in
// consecutive positions from a random start, from a random one of them on
// (recipe.proto SpecialGen).
void Special(const Generator& gen, c10::ScalarType dtype, Rng& rng, Values& v) {
  if (!DrawsSpecialValues(gen, dtype)) {
    for (double& x : v) x = rng.Normal();
    return;
  }
  const SpecialGen& g = gen.special();
  std::vector<double> specials;
  for (int s : g.values()) specials.push_back(SpecialValueOf(static_cast<SpecialValue>(s), dtype));
  if (specials.empty()) return;
  const int64_t n = static_cast<int64_t>(specials.size());
  for (double& x : v) {
    const double normal = rng.Normal();
    x = rng.Uniform() < g.density() ? specials[rng.Index(n)] : normal;
  }
  if (!v.empty()) {
    const size_t start = rng.Index(static_cast<int64_t>(v.size()));
    const size_t first = rng.Index(n);
    for (size_t k = 0; k < std::min(v.size(), specials.size()); ++k) {
      v[(start + k) % v.size()] = specials[(first + k) % specials.size()];
    }
  }
}

// SpecialValueOf for the C++ type T of a floating dtype.
template <typename T>
double SpecialOf(SpecialValue s) {
  using Limits = std::numeric_limits<T>;
  switch (s) {
    case POSITIVE_INFINITY: return std::numeric_limits<double>::infinity();
    case NEGATIVE_INFINITY: return -std::numeric_limits<double>::infinity();
    case NOT_A_NUMBER: return std::numeric_limits<double>::quiet_NaN();
    case NEGATIVE_ZERO: return -0.0;
    case LARGEST_FINITE: return static_cast<double>(Limits::max());
    case LOWEST_FINITE: return static_cast<double>(Limits::lowest());
    case SMALLEST_NORMAL: return static_cast<double>(Limits::min());
    default: return static_cast<double>(Limits::denorm_min());
  }
}

// The shape of a complex tensor's real view (ViewAsReal): `shape` and 2.
std::vector<int64_t> RealViewShape(at::IntArrayRef shape) {
  std::vector<int64_t> real(shape.begin(), shape.end());
  real.push_back(2);
  return real;
}

// A A^H / n + I for each n x n matrix in the last two dims of `shape`, A's
// elements standard normal draws (recipe.proto PositiveDefiniteGen); for a
// complex dtype, both parts of each element, interleaved as in the
// tensor's real view.
absl::StatusOr<Values> PositiveDefinite(at::IntArrayRef shape, bool complex, Rng& rng) {
  const size_t ndim = shape.size();
  if (ndim < 2 || shape[ndim - 1] != shape[ndim - 2]) {
    return absl::InvalidArgumentError(
        absl::StrCat("positive_definite needs square matrices in the last two dims, not shape [",
                     absl::StrJoin(shape, ", "), "]"));
  }
  const int64_t n = shape[ndim - 1];
  const int64_t parts = complex ? 2 : 1;
  int64_t numel = 1;
  for (int64_t s : shape) numel *= s;
  Values out(static_cast<size_t>(numel * parts));
  if (n == 0) return out;
  Values a(static_cast<size_t>(n * n * parts));
  auto part = [&](int64_t row, int64_t col, int64_t p) { return a[(row * n + col) * parts + p]; };
  for (int64_t m = 0; m < numel / (n * n); ++m) {
    for (double& x : a) x = rng.Normal();
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double re = 0, im = 0;  // sum over k of a_ik conj(a_jk)
        for (int64_t k = 0; k < n; ++k) {
          const double ar = part(i, k, 0), br = part(j, k, 0);
          const double ai = complex ? part(i, k, 1) : 0, bi = complex ? part(j, k, 1) : 0;
          re += ar * br + ai * bi;
          im += ai * br - ar * bi;
        }
        const int64_t at = ((m * n + i) * n + j) * parts;
        out[at] = re / static_cast<double>(n) + (i == j ? 1.0 : 0.0);
        if (complex) out[at + 1] = im / static_cast<double>(n);
      }
    }
  }
  return out;
}

absl::Status Index(const IndexGen& g, Rng& rng, const GenContext& ctx, Values& v) {
  absl::StatusOr<int64_t> n = IndexBound(g, ctx);
  if (!n.ok()) return n.status();
  for (double& x : v) x = static_cast<double>(rng.Index(*n));
  return absl::OkStatus();
}

// Converts one double to T by the rules in the header.
template <typename T>
T Convert(double x) {
  if constexpr (std::is_same_v<T, bool>) {
    return std::fmod(std::abs(std::nearbyint(x)), 2.0) != 0.0;
  } else if constexpr (std::is_integral_v<T>) {
    // The bounds as doubles are exact, or round up to 2^63 (int64's max):
    // every integral double strictly between them converts.
    const double r = std::nearbyint(x);
    if (std::isnan(r)) return 0;
    if (r <= static_cast<double>(std::numeric_limits<T>::lowest())) return std::numeric_limits<T>::lowest();
    if (r >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
    return static_cast<T>(r);
  } else {
    return static_cast<T>(static_cast<float>(x));
  }
}

template <>
double Convert<double>(double x) {
  return x;
}

}  // namespace

double SpecialValueOf(SpecialValue v, c10::ScalarType dtype) {
  double out = 0;
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, c10::toRealValueType(dtype),
                                  "SpecialValueOf", [&] { out = SpecialOf<scalar_t>(v); });
  return out;
}

bool DrawsSpecialValues(const Generator& gen, c10::ScalarType dtype) {
  return gen.kind_case() == Generator::kSpecial && c10::isFloatingType(c10::toRealValueType(dtype));
}

bool DrawsFromSeed(const Generator& gen) {
  switch (gen.kind_case()) {
    case Generator::kArange:
    case Generator::kConstant:
    case Generator::KIND_NOT_SET:
      return false;
    default:
      return true;
  }
}

absl::StatusOr<int64_t> IndexBound(const IndexGen& g, const GenContext& ctx) {
  if (!g.size_arg().empty()) {
    const std::optional<int64_t> n = ctx.int_of(g.size_arg());
    if (!n.has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat("indices: the sample has no int argument '", g.size_arg(), "'"));
    }
    if (*n < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("indices: '", g.size_arg(), "' is ", *n, ", so no index exists"));
    }
    return *n;
  }
  const std::optional<std::vector<int64_t>> shape = ctx.shape_of(g.of_arg());
  if (!shape.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat("indices: the sample has no tensor argument '", g.of_arg(), "'"));
  }
  int64_t dim = g.dim();
  if (g.along_case() == IndexGen::kDimArg) {
    const std::optional<int64_t> d = ctx.int_of(g.dim_arg());
    if (!d.has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat("indices: the sample has no int argument '", g.dim_arg(), "'"));
    }
    dim = *d;
  }
  const int64_t ndim = static_cast<int64_t>(shape->size());
  const int64_t given = dim;
  if (dim < 0) dim += ndim;
  if (dim < 0 || dim >= std::max<int64_t>(ndim, 1)) {
    return absl::InvalidArgumentError(absl::StrCat("indices: dim ", given, " is out of range for '",
                                                   g.of_arg(), "' with ", ndim, " dims"));
  }
  const int64_t n = ndim == 0 ? 1 : (*shape)[dim];
  if (n < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("indices: '", g.of_arg(), "' has size 0 at dim ", dim, ", so no index exists"));
  }
  return n;
}

absl::StatusOr<ValueRange> GeneratedRange(const Generator& gen, int64_t numel, int input_index,
                                          const GenContext& context) {
  const double i = input_index;
  const double last = static_cast<double>(std::max<int64_t>(numel - 1, 0));
  auto either_sign = [](double a, double b) {
    const double m = std::max(std::abs(a), std::abs(b));
    return ValueRange{-m, m};
  };
  switch (gen.kind_case()) {
    case Generator::kArange: {
      const ArangeGen& g = gen.arange();
      const double first = g.start() + g.per_input_offset() * i;
      const double end = first + (g.step() == 0 ? 1 : g.step()) * last;
      return ValueRange{std::min(first, end), std::max(first, end)};
    }
    case Generator::kNormal: {
      const double spread = kNormalBound * (gen.normal().std() == 0 ? 1 : std::abs(gen.normal().std()));
      return ValueRange{gen.normal().mean() - spread, gen.normal().mean() + spread};
    }
    case Generator::kUniform:
      if (gen.uniform().random_sign()) return either_sign(gen.uniform().low(), gen.uniform().high());
      return ValueRange{gen.uniform().low(), gen.uniform().high()};
    case Generator::kConstant: {
      const double v = gen.constant().value() + gen.constant().per_input_step() * i;
      return ValueRange{v, v};
    }
    case Generator::kSparse:
      return either_sign(gen.sparse().low(), gen.sparse().high());
    case Generator::kMagnitude: {
      const double top = std::pow(10.0, gen.magnitude().max_exp());
      if (gen.magnitude().positive()) return ValueRange{std::pow(10.0, gen.magnitude().min_exp()), top};
      return ValueRange{-top, top};
    }
    case Generator::kTies: {
      const auto [lo, hi] = std::minmax_element(gen.ties().values().begin(), gen.ties().values().end());
      if (lo == gen.ties().values().end()) return ValueRange{};
      return ValueRange{*lo, *hi};
    }
    case Generator::kMask:
      return ValueRange{0, 1};
    case Generator::kSpecial: {
      ValueRange r{-kNormalBound, kNormalBound};
      for (int v : gen.special().values()) {
        const double x = SpecialValueOf(static_cast<SpecialValue>(v), at::kDouble);
        if (std::isnan(x)) continue;
        r.lo = std::min(r.lo, x);
        r.hi = std::max(r.hi, x);
      }
      return r;
    }
    case Generator::kIndex: {
      absl::StatusOr<int64_t> n = IndexBound(gen.index(), context);
      if (!n.ok()) return n.status();
      return ValueRange{0, static_cast<double>(*n - 1)};
    }
    case Generator::kPositiveDefinite: {
      // Each part of a_ik conj(a_jk) is a sum of two products of draws.
      const double bound = 2 * kNormalBound * kNormalBound;
      return ValueRange{-bound, bound + 1};
    }
    case Generator::KIND_NOT_SET:
      break;
  }
  return ValueRange{};
}

at::Tensor ValuesToTensor(absl::Span<const double> values, at::IntArrayRef shape,
                          c10::ScalarType dtype) {
  at::Tensor t = Empty(shape, at::TensorOptions().dtype(dtype));
  TORCH_CHECK(static_cast<int64_t>(values.size()) == t.numel(), "ValuesToTensor: size mismatch");
  AT_DISPATCH_ALL_TYPES_AND3(at::kHalf, at::kBFloat16, at::kBool, dtype, "ValuesToTensor", [&] {
    scalar_t* out = t.data_ptr<scalar_t>();
    for (size_t k = 0; k < values.size(); ++k) out[k] = Convert<scalar_t>(values[k]);
  });
  return t;
}

absl::StatusOr<at::Tensor> Generate(const Generator& gen, at::IntArrayRef shape,
                                    c10::ScalarType dtype, int input_index, uint64_t seed,
                                    const GenContext& context) {
  if (gen.kind_case() == Generator::kPositiveDefinite) {
    // A matrix property, which a complex tensor's real view (below) lacks.
    Rng rng(MixSeed({seed, static_cast<uint64_t>(input_index)}));
    const bool complex = c10::isComplexType(dtype);
    absl::StatusOr<Values> v = PositiveDefinite(shape, complex, rng);
    if (!v.ok()) return v.status();
    if (!complex) return ValuesToTensor(*v, shape, dtype);
    return ViewAsComplex(ValuesToTensor(*v, RealViewShape(shape), c10::toRealValueType(dtype)));
  }
  if (c10::isComplexType(dtype)) {
    // Real and imaginary parts from one draw of twice the values (RealView).
    absl::StatusOr<at::Tensor> real =
        Generate(gen, RealViewShape(shape), c10::toRealValueType(dtype), input_index, seed, context);
    if (!real.ok()) return real.status();
    return ViewAsComplex(*real);
  }
  int64_t numel = 1;
  for (int64_t s : shape) numel *= s;
  Values v(static_cast<size_t>(numel));
  Rng rng(MixSeed({seed, static_cast<uint64_t>(input_index)}));
  const int i = input_index;
  switch (gen.kind_case()) {
    case Generator::kArange: Arange(gen.arange(), i, rng, v); break;
    case Generator::kNormal: Normal(gen.normal(), i, rng, v); break;
    case Generator::kUniform: Uniform(gen.uniform(), i, rng, v); break;
    case Generator::kConstant: Constant(gen.constant(), i, rng, v); break;
    case Generator::kSparse: Sparse(gen.sparse(), i, rng, v); break;
    case Generator::kMagnitude: Magnitude(gen.magnitude(), i, rng, v); break;
    case Generator::kTies: Ties(gen.ties(), i, rng, v); break;
    case Generator::kMask: Mask(gen.mask(), i, rng, v); break;
    case Generator::kSpecial: Special(gen, dtype, rng, v); break;
    case Generator::kIndex:
      if (absl::Status s = Index(gen.index(), rng, context, v); !s.ok()) return s;
      break;
    case Generator::kPositiveDefinite:  // above
    case Generator::KIND_NOT_SET:
      return absl::InvalidArgumentError(absl::StrCat("generator '", gen.name(), "' has no kind"));
  }
  return ValuesToTensor(v, shape, dtype);
}

}  // namespace shrt
