#include "shrt/generators.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ATen/Dispatch.h"
#include "ATen/ops/empty.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "c10/util/irange.h"
#include "shrt/rng.h"

namespace shrt {
namespace {

using Values = std::vector<double>;

// --- default recipe -------------------------------------------------------

void Arange(int i, Rng&, Values& v) {
  for (size_t k = 0; k < v.size(); ++k) v[k] = static_cast<double>(k) + 1 + 7 * i;
}
void Randn(int, Rng& rng, Values& v) {
  for (double& x : v) x = rng.Normal();
}
// Input 0 is all zeros; later inputs are arange-like so inputs differ.
void Zeros(int i, Rng&, Values& v) {
  for (size_t k = 0; k < v.size(); ++k) v[k] = i == 0 ? 0.0 : static_cast<double>(k % 5) + i;
}
void Ones(int i, Rng&, Values& v) { std::fill(v.begin(), v.end(), 1.0 + i); }
void Negative(int i, Rng&, Values& v) { std::fill(v.begin(), v.end(), -2.0 - i); }
// About 15% non-zeros of mixed sign at seeded places. The first input has at
// least one non-zero; later inputs may be all zero (a 0-d `other` that is
// exactly 0 is what exposes rules like logical_or's `R, P(sum) -> R`).
void Sparse(int i, Rng& rng, Values& v) {
  for (double& x : v) x = rng.Uniform() < 0.15 ? rng.Sign() * rng.Uniform(1, 10) : 0.0;
  if (!v.empty() && i == 0) v[rng.Index(static_cast<int64_t>(v.size()))] = rng.Uniform(1, 10);
}
// Mixed signs, magnitudes spread over 1e-3 .. 1e3.
void MixedMagnitude(int, Rng& rng, Values& v) {
  for (double& x : v) x = rng.Sign() * std::pow(10.0, rng.Uniform(-3, 3));
}
// Few distinct values (-2..2) so argmax, sort and max meet ties.
void Ties(int, Rng& rng, Values& v) {
  for (double& x : v) x = static_cast<double>(rng.Index(5)) - 2;
}

// --- positive recipe ------------------------------------------------------

void PositiveUniform(int, Rng& rng, Values& v) {
  for (double& x : v) x = rng.Uniform(0.25, 4);
}
void PositiveArange(int i, Rng&, Values& v) {
  for (size_t k = 0; k < v.size(); ++k) v[k] = 0.5 * static_cast<double>(k) + 1 + 3 * i;
}
void PositiveMagnitude(int, Rng& rng, Values& v) {
  for (double& x : v) x = std::pow(10.0, rng.Uniform(-3, 3));
}
void PositiveTies(int, Rng& rng, Values& v) {
  for (double& x : v) x = static_cast<double>(rng.Index(3)) + 1;
}

// --- nonzero recipe: mixed signs, never zero (divisors) ---------------------

void NonzeroRandn(int, Rng& rng, Values& v) {
  for (double& x : v) x = rng.Sign() * (0.25 + std::abs(rng.Normal()));
}
void NonzeroArange(int i, Rng&, Values& v) {
  for (size_t k = 0; k < v.size(); ++k) {
    v[k] = (k % 2 ? -1.0 : 1.0) * (static_cast<double>(k) + 1 + 3 * i);
  }
}
void NonzeroMagnitude(int, Rng& rng, Values& v) {
  for (double& x : v) x = rng.Sign() * std::pow(10.0, rng.Uniform(-2, 3));
}
void NonzeroTies(int, Rng& rng, Values& v) {
  for (double& x : v) x = rng.Sign() * static_cast<double>(rng.Index(2) + 1);
}

// --- bool_mask recipe -----------------------------------------------------

void MaskRandom(int, Rng& rng, Values& v) {
  for (double& x : v) x = rng.Uniform() < 0.5 ? 1 : 0;
}
void MaskSparse(int, Rng& rng, Values& v) {
  for (double& x : v) x = rng.Uniform() < 0.15 ? 1 : 0;
}
void MaskDense(int, Rng& rng, Values& v) {
  for (double& x : v) x = rng.Uniform() < 0.85 ? 1 : 0;
}
void MaskAlternating(int i, Rng&, Values& v) {
  for (size_t k = 0; k < v.size(); ++k) v[k] = static_cast<double>((k + i) % 2);
}

constexpr Generator kGenerators[] = {
    {"arange", "0-based arange + 1, offset 7 per input", Arange},
    {"randn", "standard normal", Randn},
    {"zeros", "zeros (first input), small arange-like values (others)", Zeros},
    {"ones", "constant 1 + input index", Ones},
    {"negative", "constant -2 - input index", Negative},
    {"sparse", "~15% non-zeros of mixed sign", Sparse},
    {"mixed_magnitude", "mixed signs, magnitudes 1e-3 .. 1e3", MixedMagnitude},
    {"ties", "integers in [-2, 2], many ties", Ties},
    {"positive_uniform", "uniform in [0.25, 4)", PositiveUniform},
    {"positive_arange", "0.5 * arange + 1, offset 3 per input", PositiveArange},
    {"positive_magnitude", "positive, magnitudes 1e-3 .. 1e3", PositiveMagnitude},
    {"positive_ties", "integers in [1, 3], many ties", PositiveTies},
    {"nonzero_randn", "+-(0.25 + |normal|)", NonzeroRandn},
    {"nonzero_arange", "+-(arange + 1), alternating sign, offset 3 per input", NonzeroArange},
    {"nonzero_magnitude", "mixed signs, magnitudes 1e-2 .. 1e3", NonzeroMagnitude},
    {"nonzero_ties", "values in {-2, -1, 1, 2}, many ties", NonzeroTies},
    {"mask_random", "0/1, half ones", MaskRandom},
    {"mask_sparse", "0/1, ~15% ones", MaskSparse},
    {"mask_dense", "0/1, ~85% ones", MaskDense},
    {"mask_alternating", "0/1 alternating, phase per input", MaskAlternating},
};

struct Recipe {
  absl::string_view name;
  std::vector<absl::string_view> generators;
};

const std::vector<Recipe>& Recipes() {
  static const auto* recipes = new std::vector<Recipe>{
      {"bool_mask", {"mask_random", "mask_sparse", "mask_dense", "mask_alternating"}},
      {"default",
       {"arange", "randn", "zeros", "ones", "negative", "sparse", "mixed_magnitude", "ties"}},
      {"nonzero", {"nonzero_randn", "nonzero_arange", "nonzero_magnitude", "nonzero_ties"}},
      {"positive", {"positive_uniform", "positive_arange", "positive_magnitude", "positive_ties"}},
  };
  return *recipes;
}

const Generator* FindGenerator(absl::string_view name) {
  for (const Generator& g : kGenerators) {
    if (g.name == name) return &g;
  }
  return nullptr;
}

// Converts one double to T by the rules documented in Generate.
template <typename T>
T Convert(double x) {
  if constexpr (std::is_same_v<T, bool>) {
    return std::fmod(std::abs(std::nearbyint(x)), 2.0) != 0.0;
  } else if constexpr (std::is_integral_v<T>) {
    const double r = std::nearbyint(x);
    const double lo = static_cast<double>(std::numeric_limits<T>::lowest());
    const double hi = static_cast<double>(std::numeric_limits<T>::max());
    return static_cast<T>(std::clamp(r, lo, hi));
  } else {
    return static_cast<T>(x);
  }
}

}  // namespace

absl::StatusOr<std::vector<const Generator*>> RecipeGenerators(absl::string_view name) {
  for (const Recipe& r : Recipes()) {
    if (r.name != name) continue;
    std::vector<const Generator*> out;
    for (absl::string_view g : r.generators) out.push_back(FindGenerator(g));
    return out;
  }
  return absl::NotFoundError(absl::StrCat("unknown recipe '", name, "' (known: ",
                                          absl::StrJoin(RecipeNames(), ", "), ")"));
}

std::vector<std::string> RecipeNames() {
  std::vector<std::string> names;
  for (const Recipe& r : Recipes()) names.emplace_back(r.name);
  std::sort(names.begin(), names.end());
  return names;
}

at::Tensor ValuesToTensor(const std::vector<double>& values, at::IntArrayRef shape,
                          c10::ScalarType dtype) {
  at::Tensor t = at::empty(shape, at::TensorOptions().dtype(dtype));
  TORCH_CHECK(static_cast<int64_t>(values.size()) == t.numel(), "ValuesToTensor: size mismatch");
  AT_DISPATCH_ALL_TYPES_AND3(at::kHalf, at::kBFloat16, at::kBool, dtype, "ValuesToTensor", [&] {
    scalar_t* out = t.data_ptr<scalar_t>();
    for (size_t k = 0; k < values.size(); ++k) {
      if constexpr (std::is_same_v<scalar_t, at::Half> || std::is_same_v<scalar_t, at::BFloat16>) {
        out[k] = static_cast<scalar_t>(static_cast<float>(values[k]));
      } else {
        out[k] = Convert<scalar_t>(values[k]);
      }
    }
  });
  return t;
}

at::Tensor Generate(const Generator& gen, at::IntArrayRef shape, c10::ScalarType dtype,
                    int input_index, uint64_t seed) {
  int64_t numel = 1;
  for (int64_t s : shape) numel *= s;
  std::vector<double> values(static_cast<size_t>(numel));
  Rng rng(MixSeed({seed, static_cast<uint64_t>(input_index)}));
  gen.fn(input_index, rng, values);
  return ValuesToTensor(values, shape, dtype);
}

}  // namespace shrt
