// Verdicts of N-D rules (DESIGN.md §9): a strategy's expansion to a mesh
// (expand.h) judged against N-D ground truth (nd_truth.h), sample by
// sample, then over all samples of an overload:
//   incorrect   kept by the expansion (or claimed by a table) on a sample
//               where ground truth refutes it. A *composition failure*
//               when each of its single-dim rules, run on its mesh dim
//               alone (nd_rule.h EmbedRule), holds on that sample: the
//               expansion, not a rule, is wrong there (a rule that holds
//               on the global shape only, uneven nested chunks, view
//               sizes, strided shards);
//   correct     kept, never refuted, valid on a sample that kept it,
//               whether or not the expansion filtered it out on other
//               samples where it holds (the 1-D precedence, verdicts.h);
//   missing     not incorrect, never valid where kept, filtered out by the
//               expansion (is_tensor_shardable) on a sample where it holds
//               and is informative: a filter too strict;
//   unverified  kept, never refuted, never valid where kept (every case
//               uninformative, or it applies to no case).
// The all-Replicate N-D rule is implicit and never reported.
#ifndef SHRT_ENGINE_ND_VERDICTS_H_
#define SHRT_ENGINE_ND_VERDICTS_H_

#include <map>
#include <string>
#include <vector>

#include "shrt/engine/nd_truth.h"
#include "shrt/engine/verdicts.h"
#include "shrt/vocab/nd_rule.h"

namespace shrt {

// One N-D rule to check on a sample, and what it is to the strategy.
struct NdClaim {
  enum class Kind {
    kKept,       // claimed: kept by the expansion, or an N-D table rule
    kFiltered,   // produced by the expansion and filtered out (`why`)
    kReference,  // checked only to tell composition failures apart (a
                 // single-dim rule of a claimed N-D table rule, alone)
  };
  NdRule rule;
  Kind kind = Kind::kKept;
  std::string why;  // kFiltered: is_tensor_shardable's reason (expand.h)
};

// The N-D rules of one sample, and, when the expansion was checked on a
// subset (expand.h, limits.h kMaxNdRules), a note that says so.
struct NdClaims {
  std::vector<NdClaim> claims;
  std::string sampled;
};

struct NdRuleVerdict {
  NdRule rule;
  Verdict verdict = Verdict::kUnverified;
  // Incorrect only: every single-dim rule of it holds alone (see above).
  bool composition = false;
  // As RuleVerdict::evidence; a composition failure's names the
  // single-dim rules that hold.
  std::string evidence;
};

// Report order: incorrect (composition failures last among them), missing,
// correct, unverified; then by rule.
bool InNdReportOrder(const NdRuleVerdict& a, const NdRuleVerdict& b);

// Accumulates the N-D verdicts of one overload's samples. Not thread-safe.
class NdVerdictBook {
 public:
  // Judges the rules of `truth`, which are those of `claims`, in order. A
  // sample its overload rejects judges nothing.
  void Add(const NdSampleTruth& truth, const std::vector<NdClaim>& claims);

  // One verdict per rule kept, or filtered and holding, somewhere; in
  // report order.
  std::vector<NdRuleVerdict> Rules() const;

 private:
  struct State {
    std::string refuted;  // kept and refuted
    bool composition = false;
    std::string valid;    // kept and valid
    std::string missing;  // filtered and valid
    std::string uninformative;
    std::string not_applicable;
  };
  std::map<NdRule, State> rules_;
};

}  // namespace shrt

#endif  // SHRT_ENGINE_ND_VERDICTS_H_
