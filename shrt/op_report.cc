#include "shrt/op_report.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "absl/strings/str_cat.h"

namespace shrt {

int OpReport::Count(Verdict v) const {
  return static_cast<int>(std::count_if(rules.begin(), rules.end(),
                                        [v](const RuleVerdict& r) { return r.verdict == v; }));
}

OpReport MergeReports(const std::vector<OpReport>& reports) {
  OpReport merged;
  std::map<Rule, RuleVerdict> best;
  for (const OpReport& r : reports) {
    if (merged.op.empty()) {
      merged.op = r.op;
      merged.spec_path = r.spec_path;
      merged.world_size = r.world_size;
    }
    merged.samples.insert(merged.samples.end(), r.samples.begin(), r.samples.end());
    for (const std::string& recipe : r.recipes) {
      if (std::find(merged.recipes.begin(), merged.recipes.end(), recipe) == merged.recipes.end()) {
        merged.recipes.push_back(recipe);
      }
    }
    merged.combination_checks += r.combination_checks;
    merged.seconds += r.seconds;
    if (!r.error.empty()) {
      merged.error = merged.error.empty() ? r.error : absl::StrCat(merged.error, "; ", r.error);
    }
    merged.notes.insert(merged.notes.end(), r.notes.begin(), r.notes.end());
    if (merged.first_warning.empty()) merged.first_warning = r.first_warning;
    merged.warning_count += r.warning_count;
    for (const RuleVerdict& v : r.rules) {
      auto [it, fresh] = best.emplace(v.rule, v);
      if (!fresh && v.verdict < it->second.verdict) it->second = v;
    }
    if (merged.origins.size() < r.origins.size()) merged.origins.resize(r.origins.size());
    for (size_t o = 0; o < r.origins.size(); ++o) {
      // Unverified < correct < incorrect in strength for origins.
      auto strength = [](Verdict v) { return v == Verdict::kIncorrect ? 2 : v == Verdict::kCorrect; };
      if (strength(r.origins[o].verdict) > strength(merged.origins[o].verdict) ||
          merged.origins[o].evidence.empty()) {
        merged.origins[o] = r.origins[o];
      }
    }
  }
  for (auto& [rule, v] : best) merged.rules.push_back(std::move(v));
  std::sort(merged.rules.begin(), merged.rules.end(), InReportOrder);
  return merged;
}

std::string RejectsEverySample(const OpReport& report) {
  if (report.notes.empty() || report.notes.size() < report.samples.size()) return "";
  return absl::StrCat(report.op, " rejects every sample of ", report.spec_path,
                      " (see the notes): exclude it there with a reason");
}

}  // namespace shrt
