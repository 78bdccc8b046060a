#include "shrt/output_check.h"

#include <cmath>
#include <limits>

#include "ATen/Dispatch.h"
#include "ATen/ops/abs.h"
#include "ATen/ops/add.h"
#include "ATen/ops/div.h"
#include "ATen/ops/mul.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "shrt/distribute.h"
#include "shrt/mesh.h"

namespace shrt {
namespace {

double Epsilon(c10::ScalarType t) {
  switch (t) {
    case c10::ScalarType::Half:
      return 9.765625e-4;
    case c10::ScalarType::BFloat16:
      return 7.8125e-3;
    case c10::ScalarType::Float:
      return std::numeric_limits<float>::epsilon();
    case c10::ScalarType::Double:
      return std::numeric_limits<double>::epsilon();
    default:
      return 0;
  }
}

OutputCheck Fail(int rank, const Comparison& c) {
  return {false, rank, c.max_abs_diff, c.detail};
}

OutputCheck FailMeta(int rank, std::string detail) {
  return {false, rank, std::numeric_limits<double>::infinity(), std::move(detail)};
}

std::string ShapeText(at::IntArrayRef s) { return absl::StrCat("[", absl::StrJoin(s, ", "), "]"); }

// The reduction of Partial locals, its rounding slack and the comparison in
// one pass over contiguous buffers of T (float or double): the same values
// the reference path computes with ATen ops, with no temporaries.
template <typename T>
Comparison FusedPartial(const at::Tensor& full, const std::vector<at::Tensor>& locals,
                        ReduceOp op, Tolerance tol, double input_scale) {
  const at::Tensor expected = full.contiguous();
  const int64_t n = expected.numel();
  const int w = static_cast<int>(locals.size());
  std::vector<const T*> parts;
  for (const at::Tensor& l : locals) parts.push_back(l.data_ptr<T>());
  const T* ep = expected.data_ptr<T>();
  const double eps = Epsilon(full.scalar_type());
  std::vector<double> reduced(n), slack(n);
  for (int64_t i = 0; i < n; ++i) {
    double acc = static_cast<double>(parts[0][i]);
    double abs_sum = std::abs(acc);
    for (int r = 1; r < w; ++r) {
      const double x = static_cast<double>(parts[r][i]);
      switch (op) {
        case ReduceOp::kSum:
        case ReduceOp::kAvg: acc += x; break;
        case ReduceOp::kMax: acc = (std::isnan(acc) || std::isnan(x)) ? NAN : std::max(acc, x); break;
        case ReduceOp::kMin: acc = (std::isnan(acc) || std::isnan(x)) ? NAN : std::min(acc, x); break;
        case ReduceOp::kProduct: acc *= x; break;
      }
      abs_sum += std::abs(x);
    }
    switch (op) {
      case ReduceOp::kSum: slack[i] = 4 * eps * (abs_sum + w * input_scale); break;
      case ReduceOp::kAvg:
        acc /= w;
        slack[i] = 4 * eps * (abs_sum + w * input_scale) / w;
        break;
      case ReduceOp::kProduct: slack[i] = 4 * w * eps * std::abs(acc); break;
      default: slack[i] = 0; break;
    }
    reduced[i] = acc;
  }
  std::vector<double> want(ep, ep + n);
  return CompareValues(n, reduced.data(), want.data(), slack.data(), tol, expected.sizes());
}

}  // namespace

OutputCheck CheckOutput(const at::Tensor& full, const std::vector<at::Tensor>& locals,
                        const Placement& p, Tolerance tol, double input_scale, bool reference) {
  const int w = static_cast<int>(locals.size());
  for (int r = 0; r < w; ++r) {
    if (locals[r].scalar_type() != full.scalar_type()) {
      return FailMeta(r, absl::StrCat("dtype ", c10::toString(locals[r].scalar_type()),
                                      " vs expected ", c10::toString(full.scalar_type())));
    }
  }
  switch (p.kind()) {
    case Placement::Kind::kReplicate:
      for (int r = 0; r < w; ++r) {
        Comparison c = CompareTensors(locals[r], full, tol, at::Tensor(), reference);
        if (!c.equal) return Fail(r, c);
      }
      return {};
    case Placement::Kind::kShard: {
      if (p.dim() < 0 || p.dim() >= full.dim()) {
        return FailMeta(-1, absl::StrCat(p.ToString(), " on a ", full.dim(), "-d output"));
      }
      for (int r = 0; r < w; ++r) {
        const ChunkRange chunk = ChunkOf(full.size(p.dim()), w, r);
        // Fast path: the chunk read in place, when the local has its shape.
        std::optional<Comparison> fast;
        if (!reference && locals[r].dim() == full.dim() &&
            locals[r].size(p.dim()) == chunk.length()) {
          fast = CompareChunk(locals[r], full, p.dim(), chunk.begin, tol);
        }
        Comparison c = fast.has_value()
                           ? *std::move(fast)
                           : CompareTensors(locals[r],
                                            full.narrow(p.dim(), chunk.begin, chunk.length()), tol,
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
  bool fused = !reference && (t == at::kFloat || t == at::kDouble);
  for (const at::Tensor& l : locals) fused = fused && l.is_contiguous();
  if (fused) {
    Comparison c;
    AT_DISPATCH_FLOATING_TYPES(t, "FusedPartial", [&] {
      c = FusedPartial<scalar_t>(full, locals, p.reduce_op(), tol, input_scale);
    });
    if (!c.equal) return Fail(-1, c);
    return {};
  }
  const at::Tensor reduced = ReducePartial(locals, p.reduce_op());
  at::Tensor slack;
  const double eps = Epsilon(full.scalar_type());
  if (eps > 0) {
    switch (p.reduce_op()) {
      case ReduceOp::kSum:
      case ReduceOp::kAvg: {
        at::Tensor abs_sum = at::abs(locals[0].to(at::kDouble));
        for (int r = 1; r < w; ++r) abs_sum = at::add(abs_sum, at::abs(locals[r].to(at::kDouble)));
        abs_sum = at::add(abs_sum, w * input_scale);
        if (p.reduce_op() == ReduceOp::kAvg) abs_sum = at::div(abs_sum, static_cast<double>(w));
        slack = at::mul(abs_sum, 4 * eps);
        break;
      }
      case ReduceOp::kProduct:
        slack = at::mul(at::abs(reduced), 4 * w * eps);
        break;
      default:
        break;
    }
  }
  Comparison c = CompareTensors(reduced, full, tol, slack);
  if (!c.equal) return Fail(-1, c);
  return {};
}

}  // namespace shrt
