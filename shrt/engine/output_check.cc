#include "shrt/engine/output_check.h"

#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "shrt/engine/distribute.h"
#include "shrt/engine/fused_partial.h"
#include "shrt/engine/rounding_slack.h"
#include "shrt/engine/shard_chunks.h"
#include "shrt/engine/torch_runtime.h"
#include "shrt/spec/generators.h"
#include "shrt/vocab/mesh.h"

namespace shrt {
namespace {

OutputCheck Fail(int rank, const Comparison& c) {
  return {false, rank, c.max_abs_diff, c.detail};
}

OutputCheck FailMeta(int rank, std::string detail) {
  return {false, rank, std::numeric_limits<double>::infinity(), std::move(detail)};
}

std::string ShapeText(at::IntArrayRef s) { return absl::StrCat("[", absl::StrJoin(s, ", "), "]"); }

}  // namespace

OutputCheck CheckOutput(const at::Tensor& full, const std::vector<at::Tensor>& locals,
                        const Placement& p, const CheckContext& context) {
  const UnfilledScope unfilled;  // ShRT's own arithmetic, no operator under test
  const Tolerance tol = context.tol;
  const double input_scale = context.input_scale;
  const bool reference = context.reference_paths;
  const double eps = context.eps >= 0 ? context.eps : Epsilon(full.scalar_type());
  const int w = static_cast<int>(locals.size());
  for (int r = 0; r < w; ++r) {
    if (locals[r].scalar_type() != full.scalar_type()) {
      return FailMeta(r, absl::StrCat("dtype ", c10::toString(locals[r].scalar_type()),
                                      " vs expected ", c10::toString(full.scalar_type())));
    }
  }
  if (p.is_mask_partial()) {
    // Its reduction needs the input's mask: ground_truth.cc masks the locals
    // and checks them as P(op).
    return FailMeta(-1, absl::StrCat(p.ToString(), " is checked on masked locals, as P(",
                                     ReduceOpName(p.reduce_op()), ")"));
  }
  if (context.special_inputs && !p.is_partial()) {
    // Shapes only (see CheckContext::special_inputs).
    for (int r = 0; r < w; ++r) {
      if (p.is_shard() && (p.dim() < 0 || p.dim() >= full.dim())) break;
      const at::Tensor want = p.is_replicate() ? full : ShardPiece(full, p, w, r);
      if (locals[r].sizes() != want.sizes()) {
        return FailMeta(r, absl::StrCat("shape ", ShapeText(locals[r].sizes()), " vs expected ",
                                        ShapeText(want.sizes())));
      }
    }
    if (!p.is_shard() || (p.dim() >= 0 && p.dim() < full.dim())) return {};
  }
  switch (p.kind()) {
    case Placement::Kind::kReplicate:
      for (int r = 0; r < w; ++r) {
        Comparison c = CompareTensors(locals[r], full, tol, at::Tensor(), reference);
        if (!c.equal) return Fail(r, c);
      }
      return {};
    case Placement::Kind::kShard:
    case Placement::Kind::kStridedShard: {
      if (p.dim() < 0 || p.dim() >= full.dim()) {
        return FailMeta(-1, absl::StrCat(p.ToString(), " on a ", full.dim(), "-d output"));
      }
      for (int r = 0; r < w; ++r) {
        const ChunkRange chunk = ChunkOf(full.size(p.dim()), w, r);
        // Fast path: the chunk read in place, when the local has its shape.
        std::optional<Comparison> fast;
        if (!reference && p.is_shard() && locals[r].dim() == full.dim() &&
            locals[r].size(p.dim()) == chunk.length()) {
          fast = CompareChunk(locals[r], full, p.dim(), chunk.begin, tol);
        }
        Comparison c = fast.has_value() ? *std::move(fast)
                                        : CompareTensors(locals[r], ShardPiece(full, p, w, r), tol,
                                                         at::Tensor(), reference);
        if (!c.equal) return Fail(r, c);
      }
      return {};
    }
    case Placement::Kind::kPartial:
      break;
  }
  for (int r = 0; r < w; ++r) {
    if (locals[r].sizes() != full.sizes()) {
      return FailMeta(r, absl::StrCat("shape ", ShapeText(locals[r].sizes()), " vs expected ",
                                      ShapeText(full.sizes())));
    }
  }
  const at::ScalarType t = full.scalar_type();
  if (!reference) {
    if (std::optional<Comparison> c =
            FusedPartialComparison(full, locals, p.reduce_op(), tol, eps, input_scale,
                                   context.special_inputs);
        c.has_value()) {
      if (!c->equal) return Fail(-1, *c);
      return {};
    }
  }
  // The ATen path: _NormP, complex P(product), and reference_paths.
  at::Tensor reduced = ReducePartial(locals, p);
  if (at::isFloatingType(t) || at::isComplexType(t)) {
    at::Tensor evidence = full.isfinite();
    if (context.special_inputs) {  // an overflow is no evidence either (CheckContext)
      evidence = evidence.logical_and(reduced.isinf().logical_not());
      for (const at::Tensor& l : locals) evidence = evidence.logical_and(l.isinf().logical_not());
    }
    reduced = reduced.where(evidence, full);
  }
  at::Tensor slack;  // rounding_slack.h, per element
  if (eps > 0) {
    // |part| and |reduction| in float64 (a complex value's modulus).
    auto magnitude = [](const at::Tensor& t) { return t.abs().to(at::kDouble).contiguous(); };
    at::Tensor abs_sum = magnitude(locals[0]);
    for (int r = 1; r < w; ++r) abs_sum = abs_sum.add(magnitude(locals[r]));
    const at::Tensor reduced_abs = magnitude(reduced);
    slack = abs_sum.new_empty(abs_sum.sizes());  // contiguous float64, as abs_sum
    const double* s = abs_sum.data_ptr<double>();
    const double* a = reduced_abs.data_ptr<double>();
    double* out = slack.data_ptr<double>();
    for (int64_t i = 0; i < slack.numel(); ++i) {
      out[i] = PartialRoundingSlack(p.reduce_op(), s[i], a[i], w, eps, input_scale);
    }
  }
  Comparison c = CompareTensors(reduced, full, tol, slack);
  if (!c.equal) return Fail(-1, c);
  return {};
}

namespace {

// Compares `actual` with the reference where the full output is finite
// and the reference within `limit`, the largest finite value of the
// computation's dtype (allowing `allowance(i)` at element i), and with the
// full output elsewhere: exactly for R and S, not at all for Partial
// (`partial`) where the full output is not finite, nor, with `special`
// (CheckContext::special_inputs), where `actual`, the reduction, is +-inf. A reference past
// `limit` is another computation, not a rounder one: float64's largest
// finite value where nan_to_num maps inf in float32. All three float64,
// contiguous, one shape.
Comparison CompareToReference(const at::Tensor& actual, const at::Tensor& full,
                              const at::Tensor& ref, bool partial, bool special, Tolerance tol,
                              double limit,
                              const std::function<double(int64_t)>& allowance) {
  const int64_t n = actual.numel();
  const double* a = actual.data_ptr<double>();
  const double* f = full.data_ptr<double>();
  const double* e = ref.data_ptr<double>();
  std::vector<double> got(a, a + n), want(n), slack(n, 0);
  for (int64_t i = 0; i < n; ++i) {
    if (!std::isfinite(f[i]) || (partial && special && std::isinf(a[i]))) {
      want[i] = f[i];
      if (partial) got[i] = f[i];
    } else if (!(std::abs(e[i]) <= limit)) {
      want[i] = f[i];
    } else {
      want[i] = e[i];
      slack[i] = allowance(i);
    }
  }
  Comparison c = CompareValues(n, got.data(), want.data(), slack.data(), tol, actual.sizes());
  if (!c.equal) absl::StrAppend(&c.detail, ", expected from the float64 reference");
  return c;
}

// `t` in float64, a complex tensor as its real view (RealView).
at::Tensor Float64(const at::Tensor& t) { return RealView(t).to(at::kDouble).contiguous(); }

// CheckAgainstReference's re-judgement, once its preconditions hold.
OutputCheck Rejudge(const at::Tensor& full, const std::vector<at::Tensor>& locals,
                    const Placement& p, const CheckContext& context,
                    const RoundingReference& reference) {
  const double eps = context.eps >= 0 ? context.eps : Epsilon(full.scalar_type());
  const double limit = c10::isIntegralType(full.scalar_type(), /*includeBool=*/true)
                           ? std::numeric_limits<double>::infinity()
                           : SpecialValueOf(LARGEST_FINITE, full.scalar_type());
  const at::Tensor ref = Float64(reference.value);
  const at::Tensor f = Float64(full);
  // The reference's scale over the elements it is a reference for (within
  // `limit`: nan_to_num's float64 inf is float64's largest value).
  double max_ref = 0;
  {
    const double* rp = ref.data_ptr<double>();
    for (int64_t i = 0; i < ref.numel(); ++i) {
      if (std::abs(rp[i]) <= limit) max_ref = std::max(max_ref, std::abs(rp[i]));
    }
  }
  const int w = static_cast<int>(locals.size());
  const double base = std::max(reference.own_error, eps * max_ref);
  double growth = 1;
  if (context.input_scale > 0) {
    growth = context.full_input_scale > 0
                 ? std::max(1.0, w * context.input_scale / context.full_input_scale)
                 : w;
  }
  const double own = kRoundingFactor * base * growth;
  switch (p.kind()) {
    case Placement::Kind::kReplicate:
    case Placement::Kind::kShard:
    case Placement::Kind::kStridedShard: {
      const double allowance = std::min(kRoundingFactor * eps * max_ref + own,
                                        kMaxRelativeRounding * max_ref);
      for (int r = 0; r < w; ++r) {
        at::Tensor want = f, want_ref = ref;
        if (!p.is_replicate()) {
          want = ShardPiece(f, p, w, r).contiguous();
          want_ref = ShardPiece(ref, p, w, r).contiguous();
        }
        Comparison c = CompareToReference(Float64(locals[r]), want, want_ref, false, false,
                                          context.tol, limit, [&](int64_t) { return allowance; });
        if (!c.equal) return Fail(r, c);
      }
      return {};
    }
    case Placement::Kind::kPartial:
      break;
  }
  std::vector<at::Tensor> locals64;
  for (const at::Tensor& l : locals) locals64.push_back(Float64(l));
  at::Tensor reduced = ReducePartial(locals64, p);
  if (context.special_inputs) {
    // An overflow is no evidence (CheckContext): an infinite reduction is
    // skipped below, so is an element where a local is infinite.
    for (const at::Tensor& l : locals64) {
      reduced = reduced.where(l.isinf().logical_not(), std::numeric_limits<double>::infinity());
    }
  }
  reduced = reduced.contiguous();
  // The scale at which the reduction over ranks itself rounds, per element
  // (rounding_slack.h), a product's relative to the reference's value.
  at::Tensor abs_sum = ref.new_zeros(ref.sizes());  // contiguous float64, as ref
  for (int r = 0; r < w; ++r) abs_sum = abs_sum.add(locals64[r].abs());
  abs_sum = abs_sum.contiguous();
  const double* as = abs_sum.data_ptr<double>();
  const double* rp = ref.data_ptr<double>();
  std::vector<double> scale(abs_sum.numel());
  for (size_t i = 0; i < scale.size(); ++i) {
    scale[i] = PartialRoundingScale(p.reduce_op(), as[i], std::abs(rp[i]), w, context.input_scale);
  }
  const double* sp = scale.data();
  // P(max) and P(min) reduce exactly and one rank holds each value: their
  // allowance is R's and S's, relative to the output's magnitude (a
  // contraction rounds relative to its terms, not to a small result).
  const bool exact = p.reduce_op() == ReduceOp::kMax || p.reduce_op() == ReduceOp::kMin;
  Comparison c = CompareToReference(reduced, f, ref, true, context.special_inputs, context.tol,
                                    limit, [&](int64_t i) {
    if (exact) {
      return std::min(kRoundingFactor * eps * max_ref + own, kMaxRelativeRounding * max_ref);
    }
    const double m = std::isfinite(sp[i]) ? sp[i] : 0;
    return std::min(kRoundingFactor * eps * m + own,
                    kMaxRelativeRounding * (std::abs(rp[i]) + m));
  });
  if (!c.equal) return Fail(-1, c);
  return {};
}

}  // namespace

OutputCheck CheckAgainstReference(const at::Tensor& full, const std::vector<at::Tensor>& locals,
                                  const Placement& p, const CheckContext& context,
                                  const RoundingReference& reference,
                                  const OutputCheck& plain) {
  if (plain.ok || !std::isfinite(plain.max_abs_diff) || !reference.value.defined() ||
      reference.value.sizes() != full.sizes()) {
    return plain;
  }
  OutputCheck check = Rejudge(full, locals, p, context, reference);
  check.rejudged = true;
  return check;
}

bool ReadsInputScales(const OutputCheck& check, const Placement& p) {
  return check.rejudged || (p.is_partial() && RoundingScaleReadsInputScale(p.reduce_op()));
}

}  // namespace shrt
