// The unsharded side of ground truth (DESIGN.md §3), shared by the 1-D
// engine (ground_truth.h) and the N-D one (nd_truth.h): one sample's full
// inputs per generator, the call on them, their negated variants, float64
// references, the tolerance per output, the one output check with its
// re-judgement against a reference, and the record of crashed calls.
// Internal to the engine.
#ifndef SHRT_ENGINE_FULL_CASE_H_
#define SHRT_ENGINE_FULL_CASE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ATen/core/Tensor.h"
#include "absl/status/statusor.h"
#include "shrt/engine/ground_truth.h"
#include "shrt/engine/output_check.h"
#include "shrt/engine/sample.h"
#include "shrt/spec/recipes.h"

namespace shrt {

using Tensors = std::vector<at::Tensor>;

// Turns off c10's stack-trace capture for c10::Error for the whole process
// (c10::SetStackTraceFetcher), once: most input placements make some
// rank's call throw, symbolising a backtrace per throw took ~70% of the
// time, and ShRT reports only what_without_backtrace().
void DisableC10Backtraces();

// A case is informative when every full output has an element that is
// finite and nonzero. An output that is empty, or all 0, inf and NaN,
// matches too many rules to tell them apart: R -> P(sum) holds on it, as
// inf + inf = inf, nan + nan = nan and 0 + 0 = 0 (xlogy(x, -2) is NaN but
// where x is 0).
// A case of special values (FullCase::special_inputs) is never counted so
// by the engines, whatever its outputs: it checks R and S outputs for
// their shapes only, so a rule it passes has passed nothing there, and a
// rule is valid on the finite generators' informative cases alone. It
// still refutes.
bool Informative(const Tensors& outputs);

// The full inputs and outputs of one generator's case, with its negated
// variants and float64 references made on first use.
struct FullCase {
  std::string generator;  // "randn", or "arange/index" when inputs differ
  uint64_t seed = 0;      // the case seed every Partial draw derives from
  Tensors inputs;
  // Per input: its largest finite |value| (negation keeps it).
  std::vector<double> scales;
  // Some floating or complex input draws from a `special` generator
  // (recipe.proto SpecialGen: inf, nan, subnormals): CheckContext::
  // special_inputs.
  bool special_inputs = false;
  // The call on the full inputs: its outputs or the operator's error.
  absl::StatusOr<Tensors> call;
  Tensors outputs;  // *call once accepted
  // By mask of negated inputs.
  std::map<std::vector<bool>, std::pair<Tensors, absl::StatusOr<Tensors>>> negated;
  // By mask of negated inputs: per output, its float64 reference (nullopt
  // when the reference call fails or the output needs none).
  std::map<std::vector<bool>, std::vector<std::optional<RoundingReference>>> references;
};

// Cases a tiny sample gets at least, counted in elements: when the
// largest tensor of the spec's sample (every list element included; an
// empty one counts as 1) has n < kMinCaseElements elements, its cases run
// ceil(kMinCaseElements / n) rounds, the first as every sample's (one case
// per generator), each further one with fresh seeds for the cases whose
// generators draw from the seed (generators.h DrawsFromSeed). A 0-d sample
// has a handful of values per round, too few to refute a rule that holds
// by their luck (e.g. threshold_backward's `R, P(sum) -> P(max)` when the
// one grad value is positive, or tanh_backward's `P(max), R -> P(min)`
// when every generator's one coefficient 1 - y^2 is <= 0); the Partial
// redraws (cases.h kMinPartialDraws) vary only the parts, never these
// values. Later rounds cost only the tuples of input placements that no
// earlier case refuted. The 1-D engine runs them; the N-D one
// (nd_truth.cc) runs one round.
inline constexpr int64_t kMinCaseElements = 8;

class CaseMaker {
 public:
  CaseMaker(const LoadedSpec& spec, int s, const BoundSample& sample, const TruthOptions& options)
      : spec_(spec), s_(s), sample_(sample), options_(options) {}

  // Resolves every input's recipe. Errors: Bad() naming the input.
  absl::Status Init();
  // Generators of the sample's case: the most any input's recipe has.
  size_t generators() const { return generators_; }
  // Cases of the sample: generators() per round (kMinCaseElements); case c
  // takes generator c % n of an input's recipe of n generators.
  size_t cases() const { return generators_ * rounds_; }
  // True when case c repeats case c % generators() exactly: a later
  // round's case whose generators all ignore the seed (arange, constant).
  // Skip it.
  bool Repeats(size_t c) const { return c >= generators_ && !draws_[c % generators_]; }
  const std::vector<c10::ScalarType>& input_dtypes() const { return input_dtypes_; }
  const std::vector<int64_t>& input_numels() const { return input_numels_; }
  // Per input: whether its recipe draws indices (recipes.h IsIndexRecipe).
  const std::vector<bool>& index_inputs() const { return index_inputs_; }

  // Case g's full inputs (in their layouts; rng.h CaseSeed), called on copies: an
  // overload that writes an input its schema does not mark as written
  // marks the sample mutating before any rank runs. FullCase::call holds
  // the call's result (a crash is recorded). Errors: Bad() when a recipe
  // or generator fails.
  absl::StatusOr<FullCase> Make(size_t g);

  // The tolerance and reference need of the next output (outputs in
  // order, once per sample): the spec's tolerance, else torch.testing's
  // default for the computation's dtype (compare.h ComputationDtype).
  void PickPrecision(c10::ScalarType output);
  size_t outputs_picked() const { return contexts_.size(); }

  // Inputs for one call on full tensors: the tensors themselves, or, for
  // an overload that writes into its inputs (or when `copy`), fresh copies
  // in the inputs' layouts.
  Tensors CallInputs(const Tensors& ts, bool copy = false) const;

  // The full inputs and outputs of one run that negates the inputs of
  // `mask`: the case's own when the mask is all false, else Negated()'s.
  // nullopt when the operator rejects the negated inputs (e.g. index
  // inputs): a Partial rule on them has nothing to test this way.
  struct RunTensors {
    const Tensors* inputs;
    const Tensors* want;
  };
  std::optional<RunTensors> ForRun(FullCase& full, const std::vector<bool>& mask);

  // Output k's float64 reference for `inputs` (negated by `mask`), made
  // once per case and mask; nullptr when none applies.
  const RoundingReference* Reference(FullCase& full, const std::vector<bool>& mask,
                                     const Tensors& inputs, const Tensors& want, size_t k);

  // Output k's check context with the Partial inputs' scales and whether
  // the case's inputs hold special values (FullCase::special_inputs).
  CheckContext Context(size_t k, double input_scale, double full_input_scale,
                       bool special_inputs) const;

  // Checks output k's locals against `want` under `p`, re-judging a numeric
  // failure of a low-precision computation against its float64 reference
  // (output_check.h). `magnitude` caches, per run and output, the gate's
  // magnitude (< 0: not computed yet).
  OutputCheck Check(FullCase& full, const std::vector<bool>& mask, const Tensors& inputs,
                    const Tensors& want, const Tensors& locals, size_t k, const Placement& p,
                    double input_scale, double full_input_scale, double& magnitude);
  // True when output k's numeric failures are re-judged (DESIGN.md §3).
  bool NeedsReference(size_t k) const { return needs_reference_[k]; }

  // Records a call that crashed (`status`: IsCrash) in generator
  // `generator`, run `run`, on local inputs placed `inputs` of rank `rank`
  // ("" and "": on the full inputs).
  void Crashed(const absl::Status& status, const std::string& generator, const std::string& run,
               const std::string& inputs, const std::string& rank);
  std::vector<CaseCrash> TakeCrashes() { return std::move(crashes_); }
  bool crashed() const { return !crashes_.empty(); }

  // InvalidArgument "<path>:<line>: field 'sample[s]' (sample 'name') ...".
  absl::Status Bad(absl::string_view what) const;

 private:
  // The full inputs and outputs for the inputs negated by `mask`, or the
  // operator's error; made once per case and mask.
  const std::pair<Tensors, absl::StatusOr<Tensors>>& Negated(FullCase& full,
                                                             const std::vector<bool>& mask);

  const LoadedSpec& spec_;
  const int s_;
  const BoundSample& sample_;
  const TruthOptions& options_;
  std::vector<const Recipe*> recipes_;
  std::vector<bool> index_inputs_;
  size_t generators_ = 1;
  size_t rounds_ = 1;        // kMinCaseElements
  std::vector<bool> draws_;  // per generator index: some input's generator draws from the seed
  std::vector<c10::ScalarType> input_dtypes_;
  std::vector<int64_t> input_numels_;
  std::vector<CheckContext> contexts_;  // per output
  std::vector<bool> needs_reference_;   // per output
  std::vector<CaseCrash> crashes_;
};

}  // namespace shrt

#endif  // SHRT_ENGINE_FULL_CASE_H_
