// Verdicts (DESIGN.md §2): a strategy's claims judged against ground truth
// (ground_truth.h), sample by sample, then over all samples of an overload:
//   incorrect   claimed on a sample where ground truth refutes it;
//   correct     claimed, never refuted, and valid on a sample that claimed
//               it, whether or not other samples where it holds claimed it
//               too: a strategy's condition (or DTensor's shardability
//               filter, is_tensor_shardable: a dim smaller than the mesh)
//               that refuses it on some samples is not a missing rule, and
//               those samples are named (RuleVerdict::unclaimed);
//   missing     not incorrect, never valid where claimed, and valid on a
//               sample where it was not claimed (degenerate and
//               all-Replicate rules are never missing): the strategy lacks
//               it;
//   unverified  claimed, never refuted, never valid where claimed: every
//               case was uninformative, or it applies to no case of any
//               sample that claimed it (the evidence says which). A rule
//               that cannot be built for a sample is not wrong there.
#ifndef SHRT_ENGINE_VERDICTS_H_
#define SHRT_ENGINE_VERDICTS_H_

#include <map>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "shrt/engine/ground_truth.h"
#include "shrt/vocab/placement.h"

namespace shrt {

// In report order.
enum class Verdict { kIncorrect, kMissing, kCorrect, kUnverified };

// "correct", "incorrect", "missing", "unverified".
absl::string_view VerdictName(Verdict v);

struct RuleVerdict {
  Rule rule;
  Verdict verdict;
  // incorrect: the sample, generator, run, output, rank and largest
  // |difference| or the error text that refute it; missing: the sample on
  // which it holds; correct: a sample on which it holds; unverified: why no
  // case was informative or applied.
  std::string evidence;
  // correct and missing: the samples on which the rule holds but was not
  // claimed, in the order first seen.
  std::vector<std::string> unclaimed;
};

// Which of one rule's verdicts over several samples (or reports) wins:
// incorrect (0), then correct, missing, unverified (3).
int VerdictPrecedence(Verdict v);

// The verdict of one rule over two sets of samples (e.g. two reports of
// one overload), as if judged together: incorrect over correct over
// missing over unverified, the first one's evidence, the unclaimed samples
// of both.
RuleVerdict CombineVerdicts(const RuleVerdict& a, const RuleVerdict& b);

// The one report order of verdicts: by verdict (incorrect, missing,
// correct, unverified), then by rule.
bool InReportOrder(const RuleVerdict& a, const RuleVerdict& b);

// A concrete rule claimed for one sample, with the declarations (indices,
// e.g. of strategy-table rules) it was instantiated from.
struct ClaimedRule {
  Rule rule;
  std::vector<int> origins;
};

// The verdict of one declaration over all its concrete instances:
// incorrect if any instance is, else correct if one is valid, else
// unverified (no instance applied, or none was informative).
struct OriginVerdict {
  Verdict verdict = Verdict::kUnverified;
  std::string evidence;
};

// Accumulates the claims of one overload's samples against their ground
// truth. Not thread-safe.
class VerdictBook {
 public:
  // `num_origins` declarations can be named by ClaimedRule::origins
  // (indices outside [0, num_origins) are ignored).
  explicit VerdictBook(int num_origins = 0) : origins_(num_origins) {}

  // Judges the rules claimed for `truth`'s sample (duplicates merge their
  // origins). A sample its overload rejects (SampleTruth::rejection())
  // judges nothing.
  void Add(const SampleTruth& truth, const std::vector<ClaimedRule>& claims);

  // One verdict per rule claimed or valid somewhere, in report order.
  std::vector<RuleVerdict> Rules() const;
  // One verdict per declaration, in declaration order.
  std::vector<OriginVerdict> Origins() const;

 private:
  // The first evidence of each kind, over samples.
  struct State {
    std::string refuted;         // claimed and refuted
    std::string valid;           // claimed and valid
    std::string missing;         // valid and not claimed
    std::vector<std::string> unclaimed;  // the samples of `missing`
    std::string uninformative;   // claimed, held, no informative case
    std::string not_applicable;  // claimed where it cannot be built
  };
  static void Record(State& st, const Rule& rule, Finding f, const std::string& evidence,
                     const std::string& sample, bool instance);
  std::map<Rule, State> rules_;
  std::vector<State> origins_;
};

}  // namespace shrt

#endif  // SHRT_ENGINE_VERDICTS_H_
