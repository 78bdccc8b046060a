#include "shrt/report/coverage.h"

#include <algorithm>
#include <map>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "shrt/ops/overload_name.h"
#include "shrt/report/checkability.h"

namespace shrt {
namespace {

using Groups = std::map<std::string, CoverageGroup>;

void Count(Groups& groups, const std::string& name, bool spec, bool strategy) {
  CoverageGroup& g = groups[name];
  g.set_name(name);
  g.set_overloads(g.overloads() + 1);
  g.set_with_spec(g.with_spec() + (spec ? 1 : 0));
  g.set_with_strategy(g.with_strategy() + (strategy ? 1 : 0));
  g.set_checked(g.checked() + (spec && strategy ? 1 : 0));
}

// FamilyOfName's table: the first row whose pattern the operator name
// (without its namespace) starts with, contains or ends with.
struct NamePattern {
  enum { kPrefix, kInfix, kSuffix } where;
  absl::string_view text;
  absl::string_view family;
};
constexpr NamePattern kFamilies[] = {
    {NamePattern::kPrefix, "_foreach_", "foreach"},
    {NamePattern::kInfix, "backward", "backward"},
    {NamePattern::kSuffix, "_copy", "view copies"},
    {NamePattern::kPrefix, "special_", "special functions"},
    {NamePattern::kPrefix, "linalg_", "linalg"},
    {NamePattern::kInfix, "fft", "fft"},
    {NamePattern::kInfix, "loss", "losses"},
    {NamePattern::kInfix, "pool", "pooling"},
    {NamePattern::kInfix, "conv", "convolution"},
    {NamePattern::kInfix, "norm", "normalization and norms"},
    {NamePattern::kInfix, "upsample", "upsampling"},
    {NamePattern::kInfix, "index", "indexing"},
    {NamePattern::kInfix, "scatter", "indexing"},
    {NamePattern::kInfix, "attention", "attention"},
    {NamePattern::kInfix, "transformer", "attention"},
    {NamePattern::kInfix, "lstm", "recurrent"},
    {NamePattern::kInfix, "gru", "recurrent"},
    {NamePattern::kInfix, "rnn", "recurrent"},
    {NamePattern::kInfix, "embedding", "embedding"},
};

}  // namespace

std::string FamilyOfName(const c10::OperatorName& op) {
  absl::string_view name = op.name;
  if (const size_t colons = name.find("::"); colons != absl::string_view::npos) {
    name.remove_prefix(colons + 2);
  }
  for (const NamePattern& p : kFamilies) {
    const bool match = p.where == NamePattern::kPrefix   ? absl::StartsWith(name, p.text)
                       : p.where == NamePattern::kSuffix ? absl::EndsWith(name, p.text)
                                                         : absl::StrContains(name, p.text);
    if (match) return std::string(p.family);
  }
  return "other";
}

std::string NamespaceOf(const c10::OperatorName& op) {
  const size_t colons = op.name.find("::");
  return colons == std::string::npos ? "" : op.name.substr(0, colons);
}

CoverageReport ComputeCoverage(const std::vector<DispatcherOverload>& dispatcher,
                               const std::vector<c10::OperatorName>& strategies,
                               const std::vector<SpecEntry>& specs,
                               const std::string& namespace_filter, bool list_uncovered) {
  absl::flat_hash_set<std::string> with_strategy, with_spec;
  for (const c10::OperatorName& op : strategies) with_strategy.insert(OverloadToString(op));
  for (const SpecEntry& s : specs) with_spec.insert(OverloadToString(s.op));

  CoverageReport report;
  Groups namespaces, families;
  std::vector<std::string> uncovered;
  std::map<std::string, std::vector<std::string>> uncovered_by_family;
  std::map<UncheckableCategory, int> by_category;
  for (const auto& [op, category] : dispatcher) {
    const std::string ns = NamespaceOf(op);
    if (!namespace_filter.empty() && ns != namespace_filter) continue;
    const std::string name = OverloadToString(op);
    const bool spec = with_spec.contains(name), strategy = with_strategy.contains(name);
    Count(namespaces, ns, spec, strategy);
    if (spec && strategy) continue;
    CoverageGroup& g = namespaces[ns];
    if (category != UNCHECKABLE_CATEGORY_UNSPECIFIED) {
      g.set_not_checkable(g.not_checkable() + 1);
      ++by_category[category];
      continue;
    }
    g.set_not_yet_covered(g.not_yet_covered() + 1);
    if (list_uncovered) {
      uncovered.push_back(name);
      uncovered_by_family[FamilyOfName(op)].push_back(name);
    }
  }
  for (const SpecEntry& s : specs) {
    Count(families, s.family, true, with_strategy.contains(OverloadToString(s.op)));
  }
  std::vector<std::string> strategy_only, spec_only;
  for (const std::string& name : with_strategy) {
    if (!with_spec.contains(name)) strategy_only.push_back(name);
  }
  for (const std::string& name : with_spec) {
    if (!with_strategy.contains(name)) spec_only.push_back(name);
  }
  for (std::vector<std::string>* list : {&strategy_only, &spec_only, &uncovered}) {
    std::sort(list->begin(), list->end());
  }
  for (auto& [name, g] : namespaces) *report.add_namespaces() = g;
  std::vector<std::pair<UncheckableCategory, int>> categories(by_category.begin(),
                                                              by_category.end());
  std::stable_sort(categories.begin(), categories.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  for (const auto& [category, n] : categories) {
    CategoryCount* c = report.add_not_checkable();
    c->set_category(CategoryText(category));
    c->set_overloads(n);
  }
  for (auto& [family, names] : uncovered_by_family) {
    std::sort(names.begin(), names.end());
    UncoveredFamily* f = report.add_uncovered_families();
    f->set_family(family);
    f->mutable_overloads()->Assign(names.begin(), names.end());
  }
  for (auto& [name, g] : families) *report.add_families() = g;
  report.mutable_strategy_without_spec()->Assign(strategy_only.begin(), strategy_only.end());
  report.mutable_spec_without_strategy()->Assign(spec_only.begin(), spec_only.end());
  report.mutable_uncovered()->Assign(uncovered.begin(), uncovered.end());
  return report;
}

}  // namespace shrt
