// Ground truth (DESIGN.md §3): which rules hold for one sample, found by
// running the overload on simulated ranks. No strategy is involved: the
// verdicts stage (verdicts.h) judges a strategy's claims against this, and
// `shrt discover` and synthesis (synthesize.h) read it directly.
//
// For every generator of the sample's recipes the overload runs once on the
// full inputs and, for every tuple of input placements (cases.h) and every
// run of that tuple (Partial redraws, negation), once per rank on the local
// inputs; every output placement is then checked against those local
// results (output_check.h, DESIGN.md §8). A combination refuted by an
// earlier generator is not evaluated again.
#ifndef SHRT_ENGINE_GROUND_TRUTH_H_
#define SHRT_ENGINE_GROUND_TRUTH_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "shrt/engine/cases.h"
#include "shrt/engine/spec_loader.h"
#include "shrt/ops/op_args.h"
#include "shrt/vocab/placement.h"

namespace c10 {
class OperatorHandle;
struct IValue;
}  // namespace c10

namespace shrt {

class BoundSample;

// Receives every per-rank operator call ground truth makes, as the
// operator and its boxed stack, before the call (tools/bench replays them
// alone to measure the floor of DESIGN.md §8).
class CallRecorder {
 public:
  virtual ~CallRecorder() = default;
  virtual void Record(const c10::OperatorHandle& op, std::vector<c10::IValue> stack) = 0;
};

// Placements ShRT builds only when a rule names them (Placement::
// is_named_only: DTensor's _NormP(p)), for one bound sample: for input i
// and output k, the placements to try besides the enumerated ones
// (candidates.h). A rule source that names them (tools/dtensor/
// dtensor_claims.h DTensorClaims::NamedOnlyPlacements) passes them in, so that its rules are
// judged like any other.
struct NamedPlacements {
  std::vector<std::vector<Placement>> inputs;
  std::vector<std::vector<Placement>> outputs;
};

struct TruthOptions {
  // World size W of the simulated 1-D mesh (2 .. 64).
  int world_size = 4;
  // Independent redraws of the parts of Partial inputs (DESIGN.md §3), >= 1.
  int partial_redraws = 3;
  // Base seed of every generator and Partial draw.
  uint64_t seed = 0;
  // Use the reference (unoptimised) locals and comparison paths; the truth
  // must not change (validate_test checks it).
  bool reference_paths = false;
  // If set, sees every per-rank call (not thread-safe: one at a time).
  CallRecorder* recorder = nullptr;
  // Judge a list op's samples per list element where the engine finds
  // that output k depends on element k alone (list_elements.h); false
  // runs the product over elements (list_elements_test proves the
  // findings the same).
  bool split_list_elements = true;
  // By bound-sample name ("<name>[dim=0]" for a sweep): named-only
  // placements added to that sample's candidates. One that cannot be built
  // for its tensor (candidates.h PlacementApplies), or is not named-only,
  // is not added: a rule using it is then kNotApplicable or refuted, as
  // SampleTruth::Test says.
  std::map<std::string, NamedPlacements> named_placements;
};

// What ground truth says of one rule on one sample, strongest first.
enum class Finding {
  kRefuted,        // some case where it applies refutes it
  kValid,          // holds in every case, and some case is informative
  kUninformative,  // holds in every case, but no full output was informative
                   // (all zero or all NaN: zeros survive every reduction)
  kNotApplicable,  // no case of the sample can build its placements
};

// A call of the operator that crashed (isolation.h: a signal, or the call
// time limit) and was not made again: the rest of the sample ran without
// it.
struct CaseCrash {
  // The input placements of the crashed local call, "S(0), R"; "" for a
  // call on the full inputs.
  std::string inputs;
  // "crashed: SIGFPE (signal 8) in sample uneven, generator randn, run
  // redraw 1, inputs S(0), R, rank 3".
  std::string what;
};

// The ground truth of one bound sample (one sweep expansion).
class SampleTruth {
 public:
  // "broadcast_row", "sum_dims[dim=0, keepdim=True]".
  const std::string& name() const { return name_; }
  // "self=Float[8, 16], other=Float[16], alpha=2".
  const std::string& description() const { return description_; }
  // What a strategy sees for this sample (BoundSample::MakeOpArgs).
  const OpArgs& args() const { return args_; }
  // Non-empty when the overload, an in-place or out= variant, rejects the
  // sample's full inputs (e.g. an int self cannot take a float result in
  // place): the sample does not apply to it, and every rule is
  // kNotApplicable. The text names the sample, generator and error.
  const std::string& rejection() const { return rejection_; }
  // (generator, input placements, output placements) verdicts evaluated.
  int64_t combination_checks() const { return combination_checks_; }
  // The list elements this sample was judged by, one per element (empty
  // when judged whole): a rule holds when each element holds its part
  // (list_elements.h).
  const std::vector<SampleTruth>& elements() const { return elements_; }
  // Why a sample with list elements was judged whole (ElementSplit::
  // not_split), or "".
  const std::string& not_split() const { return not_split_; }
  // The calls that crashed, in run order. A crashed local call refutes its
  // input placements for every output, like an error on a rank (DESIGN.md
  // §3), with the crash as evidence; a crashed call on the full inputs
  // skips its generator, and when every generator's did, rejection() says
  // so and no rule is judged.
  const std::vector<CaseCrash>& crashes() const { return crashes_; }

  // What the cases say of `rule`, with why in `evidence` (if not null):
  // the refuting case (sample, generator, run, output, rank, largest
  // |difference| or the error a rank raised), why it does not apply, or
  // "" when valid. A rule that moves an input written in place
  // (BoundSample::output_aliases) is refuted, and so is a Partial placement
  // of an index input (cases.h InputCandidates: never run, and wrong).
  // kNotApplicable: some placement cannot be built for the sample's tensor
  // (candidates.h PlacementApplies: no Partial on bool, no S(d) past the
  // tensor's rank), or the overload rejects the sample.
  Finding Test(const Rule& rule, std::string* evidence = nullptr) const;
  // The rules that are kValid, except degenerate and all-Replicate ones
  // (placement.h) and those a valid rule implies by an output: an output
  // P(avg|max|min) where the same rule with that output R holds too (every
  // rank then holds the whole value, whose idempotent reduction is itself),
  // in rule order: what a complete strategy claims here.
  std::vector<Rule> Valid() const;
  // Every rule no case refutes (degenerate and uninformative included), in
  // rule order.
  std::vector<Rule> Holds() const;

 private:
  friend class TruthBuilder;
  struct Evidence {
    std::string generator;
    std::string run;      // PartialVariant::label
    int output = -1;      // -1: a rank raised before any output existed
    int rank = -1;        // -1: the reduction over ranks
    double max_abs_diff = 0;
    std::string detail;   // comparison detail or error text
    bool error = false;
  };
  SampleTruth(TupleSpace in, std::vector<std::vector<Placement>> out);
  int& failure(int64_t t, size_t k, size_t c) {
    return failure_[(static_cast<size_t>(t) * out_.size() + k) * width_ + c];
  }
  int failure(int64_t t, size_t k, size_t c) const {
    return failure_[(static_cast<size_t>(t) * out_.size() + k) * width_ + c];
  }
  void Fail(int64_t t, size_t k, size_t c, Evidence e);
  void FailAll(int64_t t, const Evidence& e);
  // True once some output has no surviving placement for tuple `t`.
  bool Dead(int64_t t) const;
  // The evidence id refuting output tuple `o` of input tuple `t`, or -1.
  int Refutation(int64_t t, int64_t o) const;
  std::string EvidenceText(int id) const;
  // Why `rule` cannot be built for this sample, or "".
  std::string WhyNotApplicable(const Rule& rule) const;
  std::string InPlaceChange(const Rule& rule) const;
  std::vector<Rule> Collect(bool valid_only) const;
  // Whether input tuple `t` with `rule`'s outputs, some output P(avg|max|min)
  // made R, holds (Valid()).
  bool ImpliedByReplicateOutput(int64_t t, const Rule& rule) const;
  // Test and Collect of a sample judged per list element.
  Finding TestElements(const Rule& rule, std::string& why) const;
  std::vector<Rule> CollectElements(bool valid_only) const;
  // Element e's part of `rule`.
  Rule ElementRule(const Rule& rule, size_t e) const;
  // True if some generator's full outputs were informative for every
  // element at once (as Informative() of the whole call's outputs).
  bool InformativeTogether() const;

  std::string name_, description_, rejection_;
  OpArgs args_{{}, {}, {}};
  std::vector<std::string> input_labels_;
  std::vector<int> output_aliases_;
  TupleSpace in_;
  std::vector<std::vector<Placement>> out_;
  TupleSpace out_tuples_;
  size_t width_ = 1;
  std::vector<int> failure_;      // per (tuple, output, candidate): evidence id or -1
  std::vector<int> informative_;  // per tuple: informative cases run
  std::vector<Evidence> evidence_;
  std::vector<CaseCrash> crashes_;
  int64_t combination_checks_ = 0;
  // Per generator: whether its full outputs were informative (false for
  // a generator whose full call crashed).
  std::vector<bool> informative_generators_;
  // Judged per list element: each element's truth, and for each of its
  // inputs and outputs the whole sample's index of the same tensor.
  std::vector<SampleTruth> elements_;
  std::vector<std::vector<int>> element_inputs_, element_outputs_;
  std::string not_split_;
};

// Runs `sample`, an expansion of sample `s` of `spec` (BoundSample::BindAll),
// and returns its ground truth. Errors: InvalidArgument "<path>:<line>:
// field 'sample[s]' ..." when an input's recipe or generator fails, the
// operator rejects the full inputs (for spec.is_variant(), that is
// SampleTruth::rejection() instead), the number of outputs differs
// between generators, or the outputs have more than kMaxPlacementTuples
// tuples of candidate placements (limits.h); InvalidArgument for options
// out of range.
// Validating turns off c10's stack-trace capture for c10::Error
// (c10::SetStackTraceFetcher) for the whole process: most input placements
// make some rank's call throw, symbolising a backtrace per throw took ~70%
// of the time, and ShRT reports only what_without_backtrace().
absl::StatusOr<SampleTruth> GroundTruth(const LoadedSpec& spec, int s, const BoundSample& sample,
                                        const TruthOptions& options);

// GroundTruth of every expansion of every sample of `spec`, in spec order;
// with `only` non-empty, of the samples with these names. Errors: as
// GroundTruth, and BoundSample::BindAll's.
absl::StatusOr<std::vector<SampleTruth>> SpecTruth(const LoadedSpec& spec,
                                                   const TruthOptions& options,
                                                   const std::vector<std::string>& only = {});

}  // namespace shrt

#endif  // SHRT_ENGINE_GROUND_TRUTH_H_
