#include "shrt/engine/verdicts.h"

#include <algorithm>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"

namespace shrt {

absl::string_view VerdictName(Verdict v) {
  switch (v) {
    case Verdict::kCorrect: return "correct";
    case Verdict::kIncorrect: return "incorrect";
    case Verdict::kMissing: return "missing";
    case Verdict::kUnverified: return "unverified";
  }
  return "?";
}

bool InReportOrder(const RuleVerdict& a, const RuleVerdict& b) {
  return std::tie(a.verdict, a.rule) < std::tie(b.verdict, b.rule);
}

int VerdictPrecedence(Verdict v) {
  switch (v) {
    case Verdict::kIncorrect: return 0;
    case Verdict::kCorrect: return 1;
    case Verdict::kMissing: return 2;
    case Verdict::kUnverified: return 3;
  }
  return 3;
}

RuleVerdict CombineVerdicts(const RuleVerdict& a, const RuleVerdict& b) {
  const bool b_wins = VerdictPrecedence(b.verdict) < VerdictPrecedence(a.verdict);
  RuleVerdict out = b_wins ? b : a;
  for (const std::string& sample : (b_wins ? a : b).unclaimed) {
    if (std::find(out.unclaimed.begin(), out.unclaimed.end(), sample) == out.unclaimed.end()) {
      out.unclaimed.push_back(sample);
    }
  }
  return out;
}

void VerdictBook::Record(State& st, const Rule& rule, Finding f, const std::string& evidence,
                         const std::string& sample, bool instance) {
  // A table declaration's evidence names the instance it concerns.
  const std::string of = instance ? absl::StrCat("instance '", RuleToString(rule), "': ") : "";
  auto keep = [](std::string& slot, std::string text) {
    if (slot.empty()) slot = std::move(text);
  };
  switch (f) {
    case Finding::kRefuted: keep(st.refuted, absl::StrCat(of, evidence)); break;
    case Finding::kValid:
      keep(st.valid, absl::StrCat("holds on sample ", sample,
                                  instance ? absl::StrCat(" (instance '", RuleToString(rule), "')")
                                           : ""));
      break;
    case Finding::kUninformative: keep(st.uninformative, absl::StrCat(of, evidence)); break;
    case Finding::kNotApplicable: keep(st.not_applicable, absl::StrCat(of, evidence)); break;
  }
}

void VerdictBook::Add(const SampleTruth& truth, const std::vector<ClaimedRule>& claims) {
  if (!truth.rejection().empty()) return;
  absl::flat_hash_map<Rule, std::vector<int>> claimed;
  for (const ClaimedRule& c : claims) {
    std::vector<int>& o = claimed[c.rule];
    o.insert(o.end(), c.origins.begin(), c.origins.end());
  }
  std::string evidence;
  for (const auto& [rule, origins] : claimed) {
    const Finding f = truth.Test(rule, &evidence);
    Record(rules_[rule], rule, f, evidence, truth.name(), false);
    for (int o : origins) {
      if (o >= 0 && o < static_cast<int>(origins_.size())) {
        Record(origins_[o], rule, f, evidence, truth.name(), true);
      }
    }
  }
  for (const Rule& rule : truth.Valid()) {
    if (claimed.contains(rule)) continue;
    State& st = rules_[rule];
    st.unclaimed.push_back(truth.name());
    if (st.missing.empty()) {
      st.missing = absl::StrCat("holds on sample ", truth.name(), " (", truth.description(),
                                ") but is not claimed there");
    }
  }
}

std::vector<RuleVerdict> VerdictBook::Rules() const {
  std::vector<RuleVerdict> out;
  for (const auto& [rule, st] : rules_) {
    RuleVerdict v{rule, Verdict::kUnverified, st.uninformative};
    if (!st.refuted.empty()) {
      v = {rule, Verdict::kIncorrect, st.refuted};
    } else if (!st.valid.empty()) {
      v = {rule, Verdict::kCorrect, st.valid, st.unclaimed};
    } else if (!st.missing.empty()) {
      v = {rule, Verdict::kMissing, st.missing, st.unclaimed};
    } else if (st.uninformative.empty()) {
      v.evidence = st.not_applicable;
    }
    out.push_back(std::move(v));
  }
  std::sort(out.begin(), out.end(), InReportOrder);
  return out;
}

std::vector<OriginVerdict> VerdictBook::Origins() const {
  std::vector<OriginVerdict> out;
  for (const State& st : origins_) {
    OriginVerdict v{Verdict::kUnverified, !st.uninformative.empty()    ? st.uninformative
                                          : !st.not_applicable.empty() ? st.not_applicable
                                                                       : "applies to no case of any sample"};
    if (!st.refuted.empty()) {
      v = {Verdict::kIncorrect, st.refuted};
    } else if (!st.valid.empty()) {
      v = {Verdict::kCorrect, st.valid};
    }
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace shrt
