#include "shrt/coverage.h"

#include <algorithm>
#include <map>

#include "absl/container/flat_hash_set.h"
#include "shrt/overload_name.h"

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

}  // namespace

std::string NamespaceOf(const c10::OperatorName& op) {
  const size_t colons = op.name.find("::");
  return colons == std::string::npos ? "" : op.name.substr(0, colons);
}

CoverageReport ComputeCoverage(const std::vector<c10::OperatorName>& dispatcher,
                               const std::vector<c10::OperatorName>& strategies,
                               const std::vector<SpecEntry>& specs,
                               const std::string& namespace_filter, bool list_uncovered) {
  absl::flat_hash_set<std::string> with_strategy, with_spec;
  for (const c10::OperatorName& op : strategies) with_strategy.insert(OverloadToString(op));
  for (const SpecEntry& s : specs) with_spec.insert(OverloadToString(s.op));

  CoverageReport report;
  Groups namespaces, families;
  std::vector<std::string> uncovered;
  for (const c10::OperatorName& op : dispatcher) {
    const std::string ns = NamespaceOf(op);
    if (!namespace_filter.empty() && ns != namespace_filter) continue;
    const std::string name = OverloadToString(op);
    const bool spec = with_spec.contains(name), strategy = with_strategy.contains(name);
    Count(namespaces, ns, spec, strategy);
    if (list_uncovered && !spec && !strategy) uncovered.push_back(name);
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
  for (auto& [name, g] : families) *report.add_families() = g;
  report.mutable_strategy_without_spec()->Assign(strategy_only.begin(), strategy_only.end());
  report.mutable_spec_without_strategy()->Assign(spec_only.begin(), spec_only.end());
  report.mutable_uncovered()->Assign(uncovered.begin(), uncovered.end());
  return report;
}

}  // namespace shrt
