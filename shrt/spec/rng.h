// A tiny, fully specified pseudo-random generator for reproducible inputs.
//
// ShRT's inputs must be identical on every machine and library version so
// that a failure reproduces from its seed. ATen's generators and the
// <random> distributions are not specified bit-for-bit across versions, so
// generators and partial constructions draw from SplitMix64 (Steele, Lea
// and Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014)
// instead.
#ifndef SHRT_SPEC_RNG_H_
#define SHRT_SPEC_RNG_H_

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <string_view>

namespace shrt {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}

  // The next 64 random bits.
  uint64_t NextU64() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1), 53 bits of precision.
  double Uniform() { return static_cast<double>(NextU64() >> 11) * 0x1.0p-53; }
  // Uniform in [lo, hi).
  double Uniform(double lo, double hi) { return lo + (hi - lo) * Uniform(); }
  // Uniform integer in [0, n); n > 0: the next bits modulo n. For a power
  // of two (a world size of 2 or 4) that is a mask, the same value without
  // a 64-bit division, which costs tens of cycles per draw.
  int64_t Index(int64_t n) {
    const uint64_t bits = NextU64(), m = static_cast<uint64_t>(n);
    return static_cast<int64_t>((m & (m - 1)) == 0 ? bits & (m - 1) : bits % m);
  }
  // Standard normal (Box-Muller, one of the pair).
  double Normal() {
    const double u = 1.0 - Uniform();  // (0, 1]
    return std::sqrt(-2.0 * std::log(u)) * std::cos(6.283185307179586 * Uniform());
  }
  // +1 or -1 with equal probability.
  double Sign() { return (NextU64() & 1) ? 1.0 : -1.0; }

 private:
  uint64_t state_;
};

// Combines seed components into one seed, order-sensitively.
inline uint64_t MixSeed(std::initializer_list<uint64_t> parts) {
  uint64_t h = 0x243f6a8885a308d3ULL;
  for (uint64_t p : parts) h = Rng(h ^ (p * 0x9e3779b97f4a7c15ULL)).NextU64();
  return h;
}

// A seed of a text, e.g. a sample's name: the same on every machine and in
// every run (std::hash and absl::Hash are neither), and different for any
// two texts of different length or bytes but for MixSeed's collisions.
inline uint64_t TextSeed(std::string_view text) {
  uint64_t h = MixSeed({text.size()});
  for (unsigned char c : text) h = MixSeed({h, c});
  return h;
}

// The seed of case `case_index` (0, 1, ...: shrt/engine/full_case.h
// CaseMaker) of the sample named `sample`, in a run seeded `run_seed`.
// Every input value and Partial draw of the case derives from it. It
// depends on the sample's name, never on where a spec lists the sample, so
// a spec that reorders its samples or takes them from another spec
// (spec.proto samples_from) draws the same values for each of them.
inline uint64_t CaseSeed(uint64_t run_seed, std::string_view sample, uint64_t case_index) {
  return MixSeed({run_seed, TextSeed(sample), case_index});
}

}  // namespace shrt

#endif  // SHRT_SPEC_RNG_H_
