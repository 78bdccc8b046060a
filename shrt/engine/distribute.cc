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

// Parts summing to `target` (see header). For integers the noise is
// integral and the result is later wrapped into the dtype.
template <typename Round>
void SumParts(const std::vector<double>& target, int w, bool integral, Round round, Rng rng,
              Parts& parts) {
  double max_abs = 0;
  for (double x : target) {
    if (std::isfinite(x)) max_abs = std::max(max_abs, std::abs(x));
  }
  for (size_t e = 0; e < target.size(); ++e) {
    const int holder = static_cast<int>(rng.Index(w));
    double rest = target[e];
    for (int k = 0; k + 1 < w; ++k) {
      double noise = rng.Uniform(-2, 2) * (max_abs + 1);
      noise = integral ? std::nearbyint(noise) : round(noise);
      parts.at(OtherRank(k, holder), e) = noise;
      rest -= noise;
    }
    parts.at(holder, e) = rest;
  }
}

template <typename Round>
void ExtremeParts(const std::vector<double>& target, int w, bool is_max, bool integral,
                  Round round, Rng rng, Parts& parts) {
  double lo = 0, hi = 0;
  bool any = false;
  for (double x : target) {
    if (!std::isfinite(x)) continue;
    lo = any ? std::min(lo, x) : x;
    hi = any ? std::max(hi, x) : x;
    any = true;
  }
  const double range = hi - lo + 1;
  for (size_t e = 0; e < target.size(); ++e) {
    const int holder = static_cast<int>(rng.Index(w));
    // Every rank draws a gap, the holder's unused; the holder's part is
    // written last, over what the loop wrote for it.
    for (int r = 0; r < w; ++r) {
      double gap = rng.Uniform(0.5, 2) * range;
      if (integral) gap = std::max(1.0, std::nearbyint(gap));
      double v = target[e] + (is_max ? -gap : gap);
      if (!integral) {
        // Keep the bound strict after rounding to the dtype.
        v = round(v);
        if (is_max ? v > target[e] : v < target[e]) v = target[e];
      }
      parts.at(r, e) = v;
    }
    parts.at(holder, e) = target[e];
  }
}

template <typename Round>
void ProductParts(const std::vector<double>& target, int w, bool integral, Round round, Rng rng,
                  Parts& parts) {
  for (size_t e = 0; e < target.size(); ++e) {
    const int holder = static_cast<int>(rng.Index(w));
    double others = 1;
    for (int k = 0; k + 1 < w; ++k) {
      const double f = integral ? rng.Sign() : round(rng.Sign() * rng.Uniform(0.5, 2));
      parts.at(OtherRank(k, holder), e) = f;
      others *= f;
    }
    parts.at(holder, e) = target[e] / others;
  }
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
  const bool integral = c10::isIntegralType(dtype, false);
  Rng rng(seed);
  std::vector<double> target = ToDoubles(full);
  Parts parts(world_size, target.size());
  WithRounding(dtype, [&](auto round) {
    switch (p.reduce_op()) {
      case ReduceOp::kSum:
        SumParts(target, world_size, integral, round, rng, parts);
        break;
      case ReduceOp::kAvg:
        for (double& x : target) x *= world_size;
        SumParts(target, world_size, integral, round, rng, parts);
        break;
      case ReduceOp::kMax:
      case ReduceOp::kMin:
        ExtremeParts(target, world_size, p.reduce_op() == ReduceOp::kMax, integral, round, rng,
                     parts);
        break;
      case ReduceOp::kProduct:
        ProductParts(target, world_size, integral, round, rng, parts);
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
  // Sums and products of integer parts wrap back to `full` in the dtype;
  // extremes were built within range and are clamped, never wrapped. Each
  // rank's part is a buffer of its own.
  const bool wrap = integral && (p.reduce_op() == ReduceOp::kSum ||
                                 p.reduce_op() == ReduceOp::kAvg ||
                                 p.reduce_op() == ReduceOp::kProduct);
  for (int r = 0; r < world_size; ++r) {
    const absl::Span<const double> values = parts.row(r);
    locals.push_back(wrap ? ValuesToTensor(values, full.sizes(), at::kLong).to(dtype)
                          : ValuesToTensor(values, full.sizes(), dtype));
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
  if (op == ReduceOp::kAvg) acc = acc.div(static_cast<double>(locals.size()));
  // _NormPartial._post_reduce_transform: the sum ** (1 / p).
  if (op == ReduceOp::kNorm) acc = acc.pow(1 / p.norm_type());
  return acc;
}

}  // namespace shrt
