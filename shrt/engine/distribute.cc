#include "shrt/engine/distribute.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "ATen/Dispatch.h"
#include "absl/types/span.h"
#include "c10/util/BFloat16.h"
#include "c10/util/Half.h"
#include "shrt/engine/compare.h"
#include "shrt/engine/shard_chunks.h"
#include "shrt/engine/torch_runtime.h"
#include "shrt/spec/aten_functions.h"
#include "shrt/spec/generators.h"
#include "shrt/spec/rng.h"
#include "shrt/vocab/mesh.h"

namespace shrt {
namespace {

// Rounds a double to the nearest value representable in a floating dtype:
// the identity for float64 and for integers (their parts are rounded with
// nearbyint where they are drawn).
struct RoundToFloat {
  double operator()(double x) const { return static_cast<float>(x); }
};
struct RoundToHalf {
  double operator()(double x) const { return static_cast<float>(c10::Half(static_cast<float>(x))); }
};
struct RoundToBFloat16 {
  double operator()(double x) const {
    return static_cast<float>(c10::BFloat16(static_cast<float>(x)));
  }
};
struct RoundToDouble {
  double operator()(double x) const { return x; }
};

// Calls f(round) with the rounding of `dtype` above: a type per dtype, so
// that the parts' element loops call no function per element.
template <typename F>
void WithRounding(c10::ScalarType dtype, F&& f) {
  switch (dtype) {
    case c10::ScalarType::Float: return f(RoundToFloat{});
    case c10::ScalarType::Half: return f(RoundToHalf{});
    case c10::ScalarType::BFloat16: return f(RoundToBFloat16{});
    default: return f(RoundToDouble{});
  }
}

// The values of `t` in row-major order, read directly (no ATen temporary
// unless `t` is not contiguous).
std::vector<double> ToDoubles(const at::Tensor& t) {
  const at::Tensor c = t.contiguous();
  std::vector<double> out;
  out.reserve(static_cast<size_t>(c.numel()));
  AT_DISPATCH_ALL_TYPES_AND3(at::kHalf, at::kBFloat16, at::kBool, c.scalar_type(), "ToDoubles", [&] {
    const scalar_t* p = c.data_ptr<scalar_t>();
    for (int64_t k = 0; k < c.numel(); ++k) out.push_back(static_cast<double>(p[k]));
  });
  return out;
}

// The W parts of one Partial placement, rank-major in one buffer: element
// e of rank r is at(r, e). Not initialised: the draws below write every
// element.
class Parts {
 public:
  Parts(int w, size_t n) : n_(n), size_(static_cast<size_t>(w) * n), v_(new double[size_]) {}
  double& at(int r, size_t e) { return v_[static_cast<size_t>(r) * n_ + e]; }
  absl::Span<const double> values() const { return absl::MakeConstSpan(v_.get(), size_); }
  absl::Span<const double> row(int r) const { return values().subspan(static_cast<size_t>(r) * n_, n_); }

 private:
  size_t n_;
  size_t size_;
  std::unique_ptr<double[]> v_;
};

// The draws below take their Rng by value, the one draw sequence of their
// Partial placement: through a reference, each draw's state waited on the
// last one's store (perf annotate). Their element loops do not branch on
// the holder, the rank drawn per element: it is random, so such a branch
// is mispredicted about once per element (BENCHMARKS.md "Issue 28, Partial
// parts drawn without a branch on the holder; where the last bounds
// stand"). The draws, and so the parts, are those of the branching loops,
// in the same order (PartialTest.PartsForAFixedSeedDoNotChange).

// The k-th rank other than `holder` (k = 0 .. w - 2), in rank order.
inline int OtherRank(int k, int holder) { return k + (k >= holder ? 1 : 0); }

// True for a value beyond a quarter of the dtype's range, inf or nan: one
// whose parts must not grow past it (the noise of the others takes its
// sign). The values of the default recipe's other generators are ordinary.
inline bool Large(double x, double finite_max) { return !(std::abs(x) <= finite_max / 4); }

// Parts summing to `target` (see header), of a floating dtype whose
// largest finite value is `finite_max`. The noise scale comes from the
// ordinary values (not Large). A Large value's noise takes its sign, so
// that its holder's part, the value minus the noise, is no larger: inf
// stays inf on the holder, the others finite (DTensor's Partial(sum) of
// inf: LocalTensorMode's _local_reduce adds the parts). A finite value
// whose holder's part would still overflow (P(avg)'s W * largest finite)
// is split W ways instead: every part the value over W.
template <typename Round>
void SumParts(const std::vector<double>& target, int w, double finite_max, Round round, Rng rng,
              Parts& parts) {
  double max_abs = 0;
  for (double x : target) {
    if (!Large(x, finite_max)) max_abs = std::max(max_abs, std::abs(x));
  }
  for (size_t e = 0; e < target.size(); ++e) {
    const int holder = static_cast<int>(rng.Index(w));
    const double x = target[e];
    const bool large = Large(x, finite_max);
    double rest = x;
    for (int k = 0; k + 1 < w; ++k) {
      double noise = rng.Uniform(-2, 2) * (max_abs + 1);
      if (large) noise = std::copysign(noise, x);
      noise = round(noise);
      parts.at(OtherRank(k, holder), e) = noise;
      rest -= noise;
    }
    parts.at(holder, e) = rest;
    if (large && std::isfinite(x) && !std::isfinite(round(rest))) {
      for (int r = 0; r < w; ++r) parts.at(r, e) = x / w;
    }
  }
}

// Parts of P(max) (`is_max`) or P(min) (see header). Gaps come from the
// range of the ordinary finite values. Every part of a finite value is
// finite: a gap that would overflow stops at the dtype's end. An element
// whose value is +inf under P(max) (-inf under P(min)) or nan has the
// value on its holder and finite values on either side of the largest
// (smallest) finite value on the others (above it on even ranks, below on
// odd ones): any finite value lies below inf,
// and torch.maximum, by which LocalTensorMode reduces P(max)
// (torch/distributed/_local_tensor/_c10d.py _local_reduce), propagates
// nan. Under P(max) every part of -inf is -inf, as nothing lies below it.
template <typename Round>
void ExtremeParts(const std::vector<double>& target, int w, bool is_max, double finite_max,
                  Round round, Rng rng, Parts& parts) {
  double lo = 0, hi = 0;
  bool any = false;
  for (double x : target) {
    if (!std::isfinite(x) || Large(x, finite_max)) continue;
    lo = any ? std::min(lo, x) : x;
    hi = any ? std::max(hi, x) : x;
    any = true;
  }
  const double range = hi - lo + 1;
  const double far = is_max ? std::numeric_limits<double>::infinity()
                            : -std::numeric_limits<double>::infinity();
  for (size_t e = 0; e < target.size(); ++e) {
    const int holder = static_cast<int>(rng.Index(w));
    const double x = target[e];
    const bool unbounded = std::isnan(x) || x == far;
    const double base = unbounded ? (is_max ? hi : lo) : x;
    // Every rank draws a gap, the holder's unused; the holder's part is
    // written last, over what the loop wrote for it.
    for (int r = 0; r < w; ++r) {
      double gap = rng.Uniform(0.5, 2) * range;
      // Above the base on even ranks, below on odd ones: at W >= 3 some
      // other rank lies on each side.
      if (unbounded && r % 2 == 0) gap = -gap;
      // Keep the bound strict after rounding to the dtype.
      double v = round(base + (is_max ? -gap : gap));
      if (!std::isfinite(v) && std::isfinite(base)) v = is_max ? -finite_max : finite_max;
      if (is_max ? v > x : v < x) v = x;
      parts.at(r, e) = v;
    }
    parts.at(holder, e) = x;
  }
}

// Parts of P(product) (see header). A finite non-zero value whose holder's
// part would overflow or fall below `smallest_normal`, the dtype's
// smallest normal value (the dtype's extremes over factors of 0.5 .. 2:
// a subnormal part rounds, or vanishes, and its reciprocal overflows where
// the value's does not), gets factors of +-1 instead, with the same signs:
// its holder holds +-value, exactly. inf and nan stay on
// the holder; +-0 divides into a zero of the sign that keeps the product's.
template <typename Round>
void ProductParts(const std::vector<double>& target, int w, double smallest_normal, Round round,
                  Rng rng, Parts& parts) {
  for (size_t e = 0; e < target.size(); ++e) {
    const int holder = static_cast<int>(rng.Index(w));
    double others = 1;
    for (int k = 0; k + 1 < w; ++k) {
      const double f = round(rng.Sign() * rng.Uniform(0.5, 2));
      parts.at(OtherRank(k, holder), e) = f;
      others *= f;
    }
    const double x = target[e];
    double h = x / others;
    const double rounded = round(h);
    if (std::isfinite(x) && x != 0 &&
        !(std::abs(rounded) >= smallest_normal && std::isfinite(rounded))) {
      others = 1;
      for (int k = 0; k + 1 < w; ++k) {
        double& f = parts.at(OtherRank(k, holder), e);
        f = std::copysign(1.0, f);
        others *= f;
      }
      h = x / others;
    }
    parts.at(holder, e) = h;
  }
}

// The range of integer `dtype`, in int64.
struct IntRange {
  int64_t lowest = 0, max = 0;
};
IntRange RangeOf(c10::ScalarType dtype) {
  IntRange r;
  AT_DISPATCH_INTEGRAL_TYPES(dtype, "RangeOf", [&] {
    r = {static_cast<int64_t>(std::numeric_limits<scalar_t>::lowest()),
         static_cast<int64_t>(std::numeric_limits<scalar_t>::max())};
  });
  return r;
}

// a - b with two's-complement wrapping (through uint64: no signed
// overflow).
inline int64_t WrapSub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}

// The largest noise scale of integer parts, 2^40: sums of a few parts stay
// exact in float64, where P(avg) of integers is reduced (ReducePartial).
inline constexpr double kIntNoiseScale = 1099511627776.0;

// The W parts of integer `full` under reduce op `op` (not _NormP), exact
// in int64 for any value, the dtype's extremes included: sums and
// products wrap back to `full` in the dtype, as ATen's integer add and mul
// wrap; P(max)/P(min) gaps stop at the dtype's range. The draws are those
// of the floating parts, in the same order. P(avg) parts sum to W * full,
// or, where that is not exact in float64 (beyond 2^50), are `full` on
// every rank. Rank-major in one int64 tensor of shape (W, numel).
at::Tensor IntegerParts(const at::Tensor& full, ReduceOp op, int w, Rng rng) {
  const at::Tensor x64 = full.to(at::kLong).contiguous();
  const int64_t* x = x64.data_ptr<int64_t>();
  const int64_t n = x64.numel();
  const IntRange range = RangeOf(full.scalar_type());
  at::Tensor parts = Empty({w, n}, at::TensorOptions().dtype(at::kLong));
  int64_t* out = parts.data_ptr<int64_t>();
  auto at = [&](int r, int64_t e) -> int64_t& { return out[r * n + e]; };
  switch (op) {
    case ReduceOp::kSum:
    case ReduceOp::kAvg: {
      std::vector<int64_t> target(x, x + n);
      std::vector<bool> whole(static_cast<size_t>(n), false);
      if (op == ReduceOp::kAvg) {
        for (int64_t e = 0; e < n; ++e) {
          int64_t t = 0;
          whole[e] = __builtin_mul_overflow(x[e], static_cast<int64_t>(w), &t) ||
                     std::abs(static_cast<double>(t)) > 1125899906842624.0;  // 2^50
          if (!whole[e]) target[e] = t;
        }
      }
      double max_abs = 0;
      for (int64_t t : target) max_abs = std::max(max_abs, std::abs(static_cast<double>(t)));
      const double scale = std::min(max_abs + 1, kIntNoiseScale);
      for (int64_t e = 0; e < n; ++e) {
        const int holder = static_cast<int>(rng.Index(w));
        int64_t rest = target[e];
        for (int k = 0; k + 1 < w; ++k) {
          const int64_t noise = static_cast<int64_t>(std::nearbyint(rng.Uniform(-2, 2) * scale));
          at(OtherRank(k, holder), e) = noise;
          rest = WrapSub(rest, noise);
        }
        at(holder, e) = rest;
        if (whole[e]) {
          for (int r = 0; r < w; ++r) at(r, e) = x[e];
        }
      }
      break;
    }
    case ReduceOp::kMax:
    case ReduceOp::kMin: {
      const bool is_max = op == ReduceOp::kMax;
      double lo = 0, hi = 0;
      for (int64_t e = 0; e < n; ++e) {
        lo = e == 0 ? static_cast<double>(x[e]) : std::min(lo, static_cast<double>(x[e]));
        hi = e == 0 ? static_cast<double>(x[e]) : std::max(hi, static_cast<double>(x[e]));
      }
      const double spread = hi - lo + 1;
      for (int64_t e = 0; e < n; ++e) {
        const int holder = static_cast<int>(rng.Index(w));
        for (int r = 0; r < w; ++r) {
          const double gap = std::max(1.0, std::nearbyint(rng.Uniform(0.5, 2) * spread));
          // Gaps past 2^62 reach the dtype's end anyway.
          const int64_t g = gap >= 4611686018427387904.0 ? int64_t{1} << 62 : static_cast<int64_t>(gap);
          int64_t v = 0;
          if (is_max) {
            v = __builtin_sub_overflow(x[e], g, &v) || v < range.lowest ? range.lowest : v;
          } else {
            v = __builtin_add_overflow(x[e], g, &v) || v > range.max ? range.max : v;
          }
          at(r, e) = v;
        }
        at(holder, e) = x[e];
      }
      break;
    }
    case ReduceOp::kProduct:
      for (int64_t e = 0; e < n; ++e) {
        const int holder = static_cast<int>(rng.Index(w));
        bool negate = false;
        for (int k = 0; k + 1 < w; ++k) {
          const double f = rng.Sign();
          at(OtherRank(k, holder), e) = f < 0 ? -1 : 1;
          negate ^= f < 0;
        }
        at(holder, e) = negate ? WrapSub(0, x[e]) : x[e];
      }
      break;
    case ReduceOp::kNorm:
      TORCH_CHECK(false, "IntegerParts: _NormP applies to floating tensors only");
  }
  return parts;
}

// _NormP(p) parts: x_r = v * u_r ** (1 / p) with u_r > 0 drawn per element
// and normalised to sum 1, so sum_r x_r ** p = v ** p (see header).
template <typename Round>
void NormParts(const std::vector<double>& target, int w, double p, Round round, Rng rng,
               Parts& parts) {
  std::vector<double> u(w);
  for (size_t e = 0; e < target.size(); ++e) {
    double total = 0;
    for (double& x : u) total += (x = rng.Uniform(0.05, 1));
    for (int r = 0; r < w; ++r) {
      parts.at(r, e) = round(target[e] * std::pow(u[r] / total, 1 / p));
    }
  }
}

}  // namespace

at::Tensor MaskOf(const at::Tensor& index, const Placement& p, int world_size, int rank) {
  const ChunkRange c = ChunkOf(p.mask_size(), world_size, rank);
  return index.lt(c.begin).logical_or(index.ge(c.end));
}

at::Tensor ApplyMask(const at::Tensor& local, const at::Tensor& mask) {
  // MaskBuffer.apply_mask: tensor[mask] = 0 (gather), or tensor[mask, :] = 0
  // for an output with more dims than the mask (embedding): the mask
  // covers the leading dims, and a set element zeroes the row it indexes.
  at::Tensor m = mask;
  while (m.dim() < local.dim()) m = m.unsqueeze(-1);
  return local.new_zeros({}).where(m, local);  // where(m, 0, local)
}

std::vector<at::Tensor> Distribute(const at::Tensor& full, const Placement& p, int world_size,
                                   uint64_t seed, double* max_abs_part) {
  const UnfilledScope unfilled;  // every local is written in full
  std::vector<at::Tensor> locals;
  locals.reserve(world_size);
  switch (p.kind()) {
    case Placement::Kind::kReplicate:
      for (int r = 0; r < world_size; ++r) locals.push_back(full.clone(at::MemoryFormat::Contiguous));
      return locals;
    case Placement::Kind::kShard:
    case Placement::Kind::kStridedShard:
      for (int r = 0; r < world_size; ++r) locals.push_back(ShardCopy(full, p, world_size, r));
      return locals;
    case Placement::Kind::kPartial:
      break;
  }
  if (p.is_mask_partial()) {
    // _MaskPartial._partition_value: index - begin, 0 where masked.
    for (int r = 0; r < world_size; ++r) {
      const ChunkRange c = ChunkOf(p.mask_size(), world_size, r);
      const at::Tensor shifted = full.sub(c.begin);
      locals.push_back(ApplyMask(shifted, MaskOf(full, p, world_size, r))
                           .clone(at::MemoryFormat::Contiguous));
    }
    return locals;
  }
  if (c10::isComplexType(full.scalar_type())) {
    // Complex parts: the real and imaginary parts split independently
    // (a sum or mean of complex numbers is one of each).
    for (const at::Tensor& part : Distribute(RealView(full), p, world_size, seed, max_abs_part)) {
      locals.push_back(ViewAsComplex(part.contiguous()));
    }
    return locals;
  }
  const c10::ScalarType dtype = full.scalar_type();
  Rng rng(seed);
  if (c10::isIntegralType(dtype, /*includeBool=*/false)) {
    const at::Tensor parts = IntegerParts(full, p.reduce_op(), world_size, rng);
    if (max_abs_part != nullptr && parts.numel() > 0) {
      *max_abs_part = std::max(*max_abs_part, parts.abs().max().item<double>());
    }
    // Each rank's part a buffer of its own, wrapped into the dtype.
    for (int r = 0; r < world_size; ++r) {
      locals.push_back(parts.select(0, r).reshape(full.sizes()).to(dtype, false, /*copy=*/true));
    }
    return locals;
  }
  std::vector<double> target = ToDoubles(full);
  Parts parts(world_size, target.size());
  const double finite_max = SpecialValueOf(LARGEST_FINITE, dtype);
  WithRounding(dtype, [&](auto round) {
    switch (p.reduce_op()) {
      case ReduceOp::kSum:
        SumParts(target, world_size, finite_max, round, rng, parts);
        break;
      case ReduceOp::kAvg:
        for (double& x : target) x *= world_size;
        SumParts(target, world_size, finite_max, round, rng, parts);
        break;
      case ReduceOp::kMax:
      case ReduceOp::kMin:
        ExtremeParts(target, world_size, p.reduce_op() == ReduceOp::kMax, finite_max, round, rng,
                     parts);
        break;
      case ReduceOp::kProduct:
        ProductParts(target, world_size, SpecialValueOf(SMALLEST_NORMAL, dtype), round, rng,
                     parts);
        break;
      case ReduceOp::kNorm:
        NormParts(target, world_size, p.norm_type(), round, rng, parts);
        break;
    }
  });
  if (max_abs_part != nullptr) {
    // Four running maxima in registers: through the pointer, each
    // element's max waited on the last one's store (perf annotate: half of
    // Distribute's time); an array m[k % 4] is indexed at run time, so it
    // lived on the stack and still stored once per element (perf annotate:
    // a fifth of Distribute's time); one chain of maxsd waits on the last.
    const absl::Span<const double> v = parts.values();
    auto fold = [](double m, double x) { return std::isfinite(x) ? std::max(m, std::abs(x)) : m; };
    double m0 = *max_abs_part, m1 = m0, m2 = m0, m3 = m0;
    size_t k = 0;
    for (; k + 4 <= v.size(); k += 4) {
      m0 = fold(m0, v[k]);
      m1 = fold(m1, v[k + 1]);
      m2 = fold(m2, v[k + 2]);
      m3 = fold(m3, v[k + 3]);
    }
    for (; k < v.size(); ++k) m0 = fold(m0, v[k]);
    *max_abs_part = std::max(std::max(m0, m1), std::max(m2, m3));
  }
  // Each rank's part is a buffer of its own.
  for (int r = 0; r < world_size; ++r) {
    locals.push_back(ValuesToTensor(parts.row(r), full.sizes(), dtype));
  }
  return locals;
}

at::Tensor WithLayout(const at::Tensor& t, Layout layout) {
  switch (layout) {
    case TRANSPOSED:
      if (t.dim() < 2) return t;
      return t.transpose(-1, -2).contiguous().transpose(-1, -2);
    case STRIDED: {
      if (t.dim() == 0) return t;
      std::vector<int64_t> sizes = t.sizes().vec();
      sizes.back() *= 2;
      at::Tensor buffer = t.new_zeros(sizes);
      at::Tensor view = buffer.slice(-1, 0, sizes.back(), 2);
      view.copy_(t);
      return view;
    }
    default:
      return t;
  }
}

at::Tensor PrivateWithLayout(const at::Tensor& t, Layout layout) {
  at::Tensor laid = WithLayout(t, layout);
  if (!laid.storage().is_alias_of(t.storage())) return laid;
  // t.clone(at::MemoryFormat::Contiguous), without a dispatched clone.
  return WithLayout(CopyOf(WholePiece(t)), layout);
}

at::Tensor ReducePartial(const std::vector<at::Tensor>& locals, const Placement& p) {
  // A _MaskP's locals are reduced after masking (header): by its op here.
  const ReduceOp op = p.reduce_op();
  const c10::ScalarType dtype = locals.front().scalar_type();
  const bool integral = c10::isIntegralType(dtype, /*includeBool=*/true);
  const bool in_double = !integral || op == ReduceOp::kAvg;
  const c10::ScalarType wide = c10::isComplexType(dtype) ? at::kComplexDouble : at::kDouble;
  auto prep = [&](const at::Tensor& t) {
    const at::Tensor x = in_double ? t.to(wide) : t;
    // _NormPartial._pre_reduce_transform: x ** p, summed below.
    return op == ReduceOp::kNorm ? x.pow(p.norm_type()) : x;
  };
  at::Tensor acc = prep(locals.front()).clone();
  for (size_t r = 1; r < locals.size(); ++r) {
    const at::Tensor x = prep(locals[r]);
    switch (op) {
      case ReduceOp::kSum:
      case ReduceOp::kAvg:
      case ReduceOp::kNorm:
        acc = acc.add(x);
        break;
      case ReduceOp::kMax:
        acc = acc.maximum(x);
        break;
      case ReduceOp::kMin:
        acc = acc.minimum(x);
        break;
      case ReduceOp::kProduct:
        acc = acc.mul(x);
        break;
    }
  }
  if (op == ReduceOp::kAvg) {
    const double w = static_cast<double>(locals.size());
    acc = acc.div(w);
    // Parts near float64's largest value: their sum overflows, their mean
    // need not; sum_r part_r / W there.
    if (in_double && acc.isinf().any().item<bool>()) {
      at::Tensor mean = prep(locals.front()).div(w);
      for (size_t r = 1; r < locals.size(); ++r) mean = mean.add(prep(locals[r]).div(w));
      acc = mean.where(acc.isinf(), acc);
    }
  }
  // _NormPartial._post_reduce_transform: the sum ** (1 / p).
  if (op == ReduceOp::kNorm) acc = acc.pow(1 / p.norm_type());
  return acc;
}

}  // namespace shrt
