// The query side of SampleTruth (ground_truth.h): what the recorded cases
// say of a rule. ground_truth.cc fills it.
#include <algorithm>

#include "absl/container/flat_hash_set.h"
#include "absl/functional/function_ref.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "shrt/engine/ground_truth.h"
#include "shrt/engine/static_findings.h"
#include "shrt/ops/candidates.h"

namespace shrt {
namespace {

// Whether some output of `rule` is P(avg|max|min) where `holds` accepts the
// same rule with R there: every rank then holds that output whole, and an
// idempotent reduction of it is itself, so `rule` says nothing more.
bool ImpliedByReplicate(const Rule& rule, absl::FunctionRef<bool(const Rule&)> holds) {
  for (size_t k = 0; k < rule.outputs.size(); ++k) {
    if (!IsIdempotentPartial(rule.outputs[k])) continue;
    Rule alt = rule;
    alt.outputs[k] = Placement::Replicate();
    if (holds(alt)) return true;
  }
  return false;
}

}  // namespace

SampleTruth::SampleTruth(TupleSpace in, std::vector<std::vector<Placement>> out)
    : in_(std::move(in)), out_(std::move(out)), out_tuples_(out_) {
  for (const auto& c : out_) width_ = std::max(width_, c.size());
  failure_.assign(static_cast<size_t>(in_.size()) * out_.size() * width_, -1);
  informative_.assign(in_.size(), 0);
}

void SampleTruth::Fail(int64_t t, size_t k, size_t c, Evidence e) {
  int& slot = failure(t, k, c);
  if (slot >= 0) return;
  slot = static_cast<int>(evidence_.size());
  evidence_.push_back(std::move(e));
}

void SampleTruth::FailAll(int64_t t, const Evidence& e) {
  for (size_t k = 0; k < out_.size(); ++k) {
    for (size_t c = 0; c < out_[k].size(); ++c) Fail(t, k, c, e);
  }
}

bool SampleTruth::Dead(int64_t t) const {
  for (size_t k = 0; k < out_.size(); ++k) {
    bool all = true;
    for (size_t c = 0; c < out_[k].size(); ++c) all = all && failure(t, k, c) >= 0;
    if (all) return true;
  }
  return false;
}

int SampleTruth::Refutation(int64_t t, int64_t o) const {
  // Output tuple `o` in mixed radix, the last output fastest (TupleSpace),
  // decoded in place: the first refuted output's evidence wins.
  const std::vector<std::vector<Placement>>& slots = out_tuples_.candidates();
  int id = -1;
  for (size_t k = slots.size(); k-- > 0;) {
    const int64_t n = static_cast<int64_t>(slots[k].size());
    if (const int f = failure(t, k, static_cast<size_t>(o % n)); f >= 0) id = f;
    o /= n;
  }
  return id;
}

std::string SampleTruth::EvidenceText(int id) const {
  const Evidence& e = evidence_[id];
  std::string where = absl::StrCat("sample ", name_, ", generator ", e.generator);
  if (!e.run.empty()) absl::StrAppend(&where, ", ", e.run);
  if (e.error) return absl::StrCat(where, ": rank ", e.rank, " raised: ", e.detail);
  const std::string rank = e.rank < 0 ? "the reduction over ranks" : absl::StrCat("rank ", e.rank);
  return absl::StrCat(where, ": output ", e.output, " on ", rank, ": max |difference| ",
                      absl::StrFormat("%.6g", e.max_abs_diff), " (", e.detail, ")");
}

std::string SampleTruth::WhyNotApplicable(const Rule& rule) const {
  if (!rejection_.empty()) return absl::StrCat(NotApplicableHead(name_), rejection_);
  for (auto [side, metas, name] : {std::tuple(&rule.inputs, &args_.inputs(), "input"),
                                   std::tuple(&rule.outputs, &args_.outputs(), "output")}) {
    if (side->size() != metas->size()) {
      return absl::StrCat(NotApplicableHead(name_), "the rule has ", side->size(), " ", name,
                          " placements for ", metas->size(), " ", name, "s");
    }
    for (size_t i = 0; i < side->size(); ++i) {
      const TensorMeta& m = (*metas)[i];
      if (!PlacementApplies((*side)[i], m.ndim(), m.dtype)) {
        return CannotBuildEvidence(name_, (*side)[i].ToString(), name, i, TensorMetaToString(m));
      }
    }
  }
  return "";
}

std::string SampleTruth::InPlaceChange(const Rule& rule) const {
  for (size_t k = 0; k < output_aliases_.size() && k < rule.outputs.size(); ++k) {
    const int i = output_aliases_[k];
    if (i >= 0 && static_cast<size_t>(i) < rule.inputs.size() &&
        rule.outputs[k] != rule.inputs[i]) {
      return InPlaceEvidence(name_, k, i, rule.inputs[i].ToString(), rule.outputs[k].ToString());
    }
  }
  return "";
}

Finding SampleTruth::Test(const Rule& rule, std::string* evidence) const {
  std::string scratch;
  std::string& why = evidence != nullptr ? *evidence : scratch;
  why.clear();
  if (std::string na = WhyNotApplicable(rule); !na.empty()) {
    why = std::move(na);
    return Finding::kNotApplicable;
  }
  if (!elements_.empty()) return TestElements(rule, why);
  const int64_t t = in_.Find(rule.inputs);
  const int64_t o = out_tuples_.Find(rule.outputs);
  if (t < 0 || o < 0) {
    // A named-only placement the caller did not name for this sample was
    // never built: no case says anything of the rule.
    for (size_t s = 0; s < 2; ++s) {
      const std::vector<Placement>& side = s == 0 ? rule.inputs : rule.outputs;
      for (size_t i = 0; i < side.size(); ++i) {
        const auto& c = s == 0 ? in_.candidates()[i] : out_[i];
        if (side[i].is_named_only() && std::find(c.begin(), c.end(), side[i]) == c.end()) {
          why = absl::StrCat(NotApplicableHead(name_), side[i].ToString(),
                             " is built only where named (ground_truth.h "
                             "TruthOptions::named_placements), and it was not named for ",
                             s == 0 ? "input " : "output ", i);
          return Finding::kNotApplicable;
        }
      }
    }
    // Buildable, but not enumerated: a Partial index input (cases.h
    // InputCandidates). A part of an index is not an index, so the rule
    // is wrong, not untested.
    for (size_t i = 0; i < rule.inputs.size(); ++i) {
      const auto& c = in_.candidates()[i];
      if (std::find(c.begin(), c.end(), rule.inputs[i]) == c.end()) {
        why = PartialIndexEvidence(name_, i, input_labels_[i], rule.inputs[i].ToString());
        return Finding::kRefuted;
      }
    }
    why = absl::StrCat("sample ", name_, ": the rule's placements are not enumerated");
    return Finding::kRefuted;
  }
  if (std::string moved = InPlaceChange(rule); !moved.empty()) {
    why = std::move(moved);
    return Finding::kRefuted;
  }
  if (const int id = Refutation(t, o); id >= 0) {
    why = EvidenceText(id);
    return Finding::kRefuted;
  }
  if (informative_[t] > 0) return Finding::kValid;
  why = absl::StrCat("sample ", name_,
                     ": every case was uninformative (all-zero or all-NaN full output)");
  return Finding::kUninformative;
}

Rule SampleTruth::ElementRule(const Rule& rule, size_t e) const {
  Rule part;
  for (int i : element_inputs_[e]) part.inputs.push_back(rule.inputs[i]);
  for (int k : element_outputs_[e]) part.outputs.push_back(rule.outputs[k]);
  return part;
}

bool SampleTruth::InformativeTogether() const {
  size_t generators = 0;
  for (const SampleTruth& e : elements_) {
    generators = std::max(generators, e.informative_generators_.size());
  }
  // Each input cycles through its recipe's generators (CaseMaker::Make),
  // so an element with fewer generators repeats its own.
  for (size_t g = 0; g < generators; ++g) {
    bool all = true;
    for (const SampleTruth& e : elements_) {
      const std::vector<bool>& inf = e.informative_generators_;
      all = all && !inf.empty() && inf[g % inf.size()];
    }
    if (all) return true;
  }
  return false;
}

// A rule holds on the whole sample exactly when each element holds its
// part: output k of the whole call is element k's call (list_elements.h),
// a rank that raises on some element raises on the whole call, and the
// whole call's outputs are informative when every element's are.
Finding SampleTruth::TestElements(const Rule& rule, std::string& why) const {
  std::vector<Finding> found;
  std::vector<std::string> whys(elements_.size());
  for (size_t e = 0; e < elements_.size(); ++e) {
    found.push_back(elements_[e].Test(ElementRule(rule, e), &whys[e]));
  }
  for (const Finding f : {Finding::kNotApplicable, Finding::kRefuted}) {
    for (size_t e = 0; e < elements_.size(); ++e) {
      if (found[e] == f) {
        why = std::move(whys[e]);
        return f;
      }
    }
  }
  if (InformativeTogether()) return Finding::kValid;
  why = absl::StrCat("sample ", name_,
                     ": every case was uninformative (all-zero or all-NaN full output)");
  return Finding::kUninformative;
}

std::vector<Rule> SampleTruth::CollectElements(bool valid_only) const {
  std::vector<Rule> out;
  if (valid_only && !InformativeTogether()) return out;
  std::vector<std::vector<Rule>> holds;
  std::vector<absl::flat_hash_set<Rule>> hold_sets;
  for (const SampleTruth& e : elements_) {
    holds.push_back(e.Holds());
    if (holds.back().empty()) return out;
    hold_sets.emplace_back(holds.back().begin(), holds.back().end());
  }
  // As ImpliedByReplicateOutput, per element: element e's part with an
  // output R in its place holds too.
  auto implied = [&](const std::vector<size_t>& pick) {
    for (size_t e = 0; e < holds.size(); ++e) {
      if (ImpliedByReplicate(holds[e][pick[e]],
                             [&](const Rule& alt) { return hold_sets[e].contains(alt); })) {
        return true;
      }
    }
    return false;
  };
  // The product of the elements' rules that place the tensors they share
  // (non-list inputs) alike.
  std::vector<size_t> pick(holds.size(), 0);
  while (true) {
    Rule rule{std::vector<Placement>(in_.candidates().size(), Placement::Replicate()),
              std::vector<Placement>(out_.size(), Placement::Replicate())};
    std::vector<bool> set(rule.inputs.size(), false);
    bool alike = true;
    for (size_t e = 0; e < holds.size() && alike; ++e) {
      const Rule& part = holds[e][pick[e]];
      for (size_t j = 0; j < part.inputs.size(); ++j) {
        const int i = element_inputs_[e][j];
        alike = alike && (!set[i] || rule.inputs[i] == part.inputs[j]);
        rule.inputs[i] = part.inputs[j];
        set[i] = true;
      }
      for (size_t j = 0; j < part.outputs.size(); ++j) {
        rule.outputs[element_outputs_[e][j]] = part.outputs[j];
      }
    }
    if (alike &&
        !(valid_only && (IsDegenerate(rule) || IsAllReplicate(rule) || implied(pick)))) {
      out.push_back(std::move(rule));
    }
    size_t e = holds.size();
    while (e > 0 && ++pick[e - 1] == holds[e - 1].size()) pick[--e] = 0;
    if (e == 0) break;
  }
  // Rule order: the tuple order of the whole sample (cases.h TupleSpace).
  std::sort(out.begin(), out.end(), [&](const Rule& a, const Rule& b) {
    return std::make_pair(in_.Find(a.inputs), out_tuples_.Find(a.outputs)) <
           std::make_pair(in_.Find(b.inputs), out_tuples_.Find(b.outputs));
  });
  return out;
}

bool SampleTruth::ImpliedByReplicateOutput(int64_t t, const Rule& rule) const {
  return ImpliedByReplicate(rule, [&](const Rule& alt) {
    const int64_t o = out_tuples_.Find(alt.outputs);
    return o >= 0 && Refutation(t, o) < 0;
  });
}

std::vector<Rule> SampleTruth::Collect(bool valid_only) const {
  std::vector<Rule> out;
  if (!rejection_.empty()) return out;
  if (!elements_.empty()) return CollectElements(valid_only);
  const std::vector<std::vector<Placement>>& slots = out_tuples_.candidates();
  for (int64_t t = 0; t < in_.size(); ++t) {
    if (valid_only && informative_[t] == 0) continue;
    // The output tuples that hold for t are the product of each output's
    // unrefuted placements (Refutation reads them one by one): enumerated
    // in tuple order, never the whole output space.
    std::vector<std::vector<size_t>> holds(slots.size());
    bool some = true;
    for (size_t k = 0; k < slots.size() && some; ++k) {
      for (size_t c = 0; c < slots[k].size(); ++c) {
        if (failure(t, k, c) < 0) holds[k].push_back(c);
      }
      some = !holds[k].empty();
    }
    if (!some) continue;
    const std::vector<Placement> in = in_.Placements(t);
    std::vector<size_t> pick(slots.size(), 0);
    while (true) {
      Rule rule{in, {}};
      for (size_t k = 0; k < slots.size(); ++k) rule.outputs.push_back(slots[k][holds[k][pick[k]]]);
      if (InPlaceChange(rule).empty() &&
          !(valid_only && (IsDegenerate(rule) || IsAllReplicate(rule) ||
                           ImpliedByReplicateOutput(t, rule)))) {
        out.push_back(std::move(rule));
      }
      size_t k = slots.size();
      while (k > 0 && ++pick[k - 1] == holds[k - 1].size()) pick[--k] = 0;
      if (k == 0) break;
    }
  }
  return out;
}

std::vector<Rule> SampleTruth::Valid() const { return Collect(true); }
std::vector<Rule> SampleTruth::Holds() const { return Collect(false); }

}  // namespace shrt
