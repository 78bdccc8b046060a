// Scalar regimes: which regimes a spec's samples put each scalar argument
// of its overload in, and which of those arguments (or pairs of them) the
// samples leave in one regime.
//
// A rule can hold for one regime of a scalar argument and not another:
// DTensor's P(max) -> P(max) for clamp-like ops holds while lo <= hi and
// fails when the bounds cross; a P(sum) rule of `mul.Scalar` holds for any
// `other`, but a P(max) rule only for other >= 0. A spec whose samples give
// an argument values of one sign only judges such a rule on that regime
// alone, and calls it correct. ScalarRegimeGaps names each such argument,
// so that the spec sweeps it (spec.proto Sweep) or says why one regime is
// all the op has (spec.proto OpSpec.single_regime; //op_specs:lint_test
// asks one or the other of every spec).
//
// The regimes:
//   - an int, float or Scalar argument (optional or not): negative, zero,
//     positive, and, for float and Scalar, non-finite (inf or nan). None is
//     not a regime: an optional argument that is None in some samples and
//     positive in all others has one regime.
//   - a bool argument: false, true.
// An argument a sample omits takes its schema default. Size arguments
// (SymInt: view's `size`, embedding_dense_backward's `num_weights`) are
// not scalars of the op's algebra and are left out, as are lists, strings,
// dtypes and other enums.
//
// Two float or Scalar arguments given together in one sample interact when
// the op compares or combines them (clamp's min and max, hardtanh's
// min_val and max_val, nan_to_num's posinf and neginf, addmm's beta and
// alpha): each such pair must be seen in both orders, a < b and a > b.
#ifndef SHRT_ENGINE_SCALAR_REGIMES_H_
#define SHRT_ENGINE_SCALAR_REGIMES_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "shrt/engine/spec_loader.h"

namespace shrt {

// One argument, or one pair, that a spec's samples leave in one regime.
struct ScalarRegimeGap {
  // The argument's schema name ("alpha"), or a pair's two names in schema
  // order ("min", "max"): the `arg` list of the spec's single_regime entry
  // that would explain it.
  std::vector<std::string> args;
  // What the samples give, e.g. "every value > 0 (1, 2.5)" or "min < max
  // in every sample that gives both"; "only None" when never given.
  std::string seen;
};

// The gaps of `spec`'s own overload (op()), over every sample of
// spec.proto() (those taken from samples_from included), sweeps expanded,
// omitted arguments at their schema default. In schema order, single
// arguments before pairs. Errors: none beyond the dispatcher's (the spec
// is bound already, LoadSpecTree); the StatusOr is for a schema without
// `op()`, InvalidArgument.
absl::StatusOr<std::vector<ScalarRegimeGap>> ScalarRegimeGaps(const LoadedSpec& spec);

}  // namespace shrt

#endif  // SHRT_ENGINE_SCALAR_REGIMES_H_
