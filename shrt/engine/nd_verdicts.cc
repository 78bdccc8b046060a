#include "shrt/engine/nd_verdicts.h"

#include <algorithm>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace shrt {
namespace {

bool IsAllReplicate(const NdRule& rule) {
  return std::all_of(rule.mesh_dims.begin(), rule.mesh_dims.end(),
                     [](const Rule& r) { return shrt::IsAllReplicate(r); });
}

}  // namespace

bool InNdReportOrder(const NdRuleVerdict& a, const NdRuleVerdict& b) {
  return std::tie(a.verdict, a.composition, a.rule) < std::tie(b.verdict, b.composition, b.rule);
}

void NdVerdictBook::Add(const NdSampleTruth& truth, const std::vector<NdClaim>& claims) {
  if (!truth.rejection.empty() || !truth.source_status.ok()) return;
  absl::flat_hash_map<NdRule, size_t> index;
  for (size_t r = 0; r < truth.rules.size(); ++r) index.emplace(truth.rules[r], r);
  auto keep = [](std::string& slot, std::string text) {
    if (slot.empty()) slot = std::move(text);
  };
  for (size_t r = 0; r < truth.rules.size(); ++r) {
    const NdRule& rule = truth.rules[r];
    if (IsAllReplicate(rule)) continue;
    const NdFinding& f = truth.findings[r];
    const NdClaim::Kind kind = r < claims.size() ? claims[r].kind : NdClaim::Kind::kKept;
    if (kind == NdClaim::Kind::kReference) continue;
    if (kind == NdClaim::Kind::kFiltered) {
      if (f.finding != Finding::kValid) continue;
      State& st = rules_[rule];
      keep(st.missing, absl::StrCat("holds on sample ", truth.name, " (", truth.description,
                                    ") but the expansion filters it out: ", claims[r].why));
      continue;
    }
    State& st = rules_[rule];
    switch (f.finding) {
      case Finding::kRefuted: {
        if (!st.refuted.empty()) break;
        // A composition failure: each single-dim rule holds on its mesh dim
        // alone, on this sample.
        std::vector<std::string> alone;
        bool composition = true;
        for (int m = 0; m < rule.ndim() && composition; ++m) {
          const NdRule embedded = EmbedRule(rule.mesh_dims[m], m, rule.ndim());
          auto it = index.find(embedded);
          composition =
              IsAllReplicate(embedded) ||
              (it != index.end() && truth.findings[it->second].finding != Finding::kRefuted);
          if (!IsAllReplicate(embedded)) {
            alone.push_back(absl::StrCat(RuleToString(rule.mesh_dims[m]), " on mesh dim ", m));
          }
        }
        st.composition = composition;
        st.refuted = composition ? absl::StrCat(f.evidence, "; each single-dim rule holds alone (",
                                                absl::StrJoin(alone, "; "), ")")
                                 : f.evidence;
        break;
      }
      case Finding::kValid:
        keep(st.valid, absl::StrCat("holds on sample ", truth.name));
        break;
      case Finding::kUninformative:
        keep(st.uninformative, f.evidence);
        break;
      case Finding::kNotApplicable:
        keep(st.not_applicable, f.evidence);
        break;
    }
  }
}

std::vector<NdRuleVerdict> NdVerdictBook::Rules() const {
  std::vector<NdRuleVerdict> out;
  for (const auto& [rule, st] : rules_) {
    NdRuleVerdict v{rule, Verdict::kUnverified, false,
                    st.uninformative.empty() ? st.not_applicable : st.uninformative};
    if (!st.refuted.empty()) {
      v = {rule, Verdict::kIncorrect, st.composition, st.refuted};
    } else if (!st.valid.empty()) {
      v = {rule, Verdict::kCorrect, false, st.valid};
    } else if (!st.missing.empty()) {
      v = {rule, Verdict::kMissing, false, st.missing};
    } else if (v.evidence.empty()) {
      continue;  // filtered and never holding: rightly filtered
    }
    out.push_back(std::move(v));
  }
  std::sort(out.begin(), out.end(), InNdReportOrder);
  return out;
}

}  // namespace shrt
