#include "shrt/registry.h"

#include <tuple>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "shrt/op_lookup.h"
#include "shrt/overload_name.h"

namespace shrt {
namespace {

// Normalises a placeholder shard dim against `ndim`, or explains why not.
absl::Status NormalisePlacement(Placement& p, int64_t ndim, absl::string_view side, size_t index) {
  if (!p.is_shard()) return absl::OkStatus();
  const int64_t dim = p.dim() < 0 ? p.dim() + ndim : p.dim();
  if (dim < 0 || dim >= ndim) {
    return absl::FailedPreconditionError(absl::StrCat(side, " ", index, " is ", p.ToString(),
                                                      " but that tensor has ", ndim, " dims"));
  }
  p = Placement::Shard(dim);
  return absl::OkStatus();
}

absl::Status NormaliseSide(std::vector<Placement>& side, const std::vector<TensorMeta>& metas,
                           absl::string_view name) {
  if (side.size() != metas.size()) {
    return absl::FailedPreconditionError(absl::StrCat("has ", side.size(), " ", name,
                                                      " placements but the overload has ",
                                                      metas.size(), " tensor ", name, "s"));
  }
  for (size_t i = 0; i < side.size(); ++i) {
    absl::Status s = NormalisePlacement(side[i], metas[i].ndim(), name, i);
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace

StrategyRegistry& StrategyRegistry::Global() {
  static auto* registry = new StrategyRegistry();
  return *registry;
}

bool StrategyRegistry::NameLess(const c10::OperatorName& a, const c10::OperatorName& b) {
  return std::tie(a.name, a.overload_name) < std::tie(b.name, b.overload_name);
}

absl::Status StrategyRegistry::Add(absl::string_view overload, Strategy strategy) {
  absl::StatusOr<c10::OperatorName> name = ParseOverloadName(overload);
  if (!name.ok()) return name.status();
  if (!strategies_.emplace(*name, std::move(strategy)).second) {
    return absl::AlreadyExistsError(
        absl::StrCat("a strategy for '", OverloadToString(*name), "' is already registered"));
  }
  return absl::OkStatus();
}

absl::Status StrategyRegistry::Check() const {
  std::vector<std::string> problems;
  for (const absl::Status& s : deferred_errors_) problems.emplace_back(s.message());
  for (const auto& [name, strategy] : strategies_) {
    absl::Status s = CheckOverloadExists(name);
    if (!s.ok()) problems.emplace_back(s.message());
  }
  if (problems.empty()) return absl::OkStatus();
  return absl::NotFoundError(
      absl::StrCat("strategy registry: ", absl::StrJoin(problems, "; ")));
}

bool StrategyRegistry::Contains(const c10::OperatorName& name) const {
  return strategies_.count(name) > 0;
}

std::vector<c10::OperatorName> StrategyRegistry::Overloads() const {
  std::vector<c10::OperatorName> out;
  for (const auto& [name, strategy] : strategies_) out.push_back(name);
  return out;
}

absl::StatusOr<std::vector<Rule>> StrategyRegistry::Query(const c10::OperatorName& name,
                                                          const OpArgs& args) const {
  auto it = strategies_.find(name);
  if (it == strategies_.end()) {
    return absl::NotFoundError(
        absl::StrCat("no strategy is registered for '", OverloadToString(name), "'"));
  }
  absl::StatusOr<std::vector<Rule>> result;
  try {
    result = it->second(args);
  } catch (const std::exception& e) {
    // A strategy that throws (e.g. a c10::Error from a helper) is a broken
    // strategy, reported like any other, never a crash.
    result = absl::InternalError(absl::StrCat("threw: ", e.what()));
  }
  if (!result.ok()) {
    return absl::FailedPreconditionError(absl::StrCat("strategy for ", OverloadToString(name),
                                                      " failed: ", result.status().message()));
  }
  std::vector<Rule> rules = *std::move(result);
  absl::flat_hash_set<Rule> seen;
  for (Rule& rule : rules) {
    const std::string text = RuleToString(rule);
    auto broken = [&](absl::string_view why) {
      return absl::FailedPreconditionError(absl::StrCat("strategy for ", OverloadToString(name),
                                                        " returned '", text, "', which ", why));
    };
    for (auto [side, metas, label] :
         {std::tuple(&rule.inputs, &args.inputs(), "input"),
          std::tuple(&rule.outputs, &args.outputs(), "output")}) {
      absl::Status s = NormaliseSide(*side, *metas, label);
      if (!s.ok()) return broken(s.message());
    }
    if (IsAllReplicate(rule)) return broken("is the implicit all-Replicate rule");
    if (!seen.insert(rule).second) return broken("is listed twice");
  }
  return rules;
}

StrategyRegistrar::StrategyRegistrar(const char* overload, Strategy strategy,
                                     StrategyRegistry& registry) {
  absl::Status s = registry.Add(overload, std::move(strategy));
  if (!s.ok()) registry.RecordError(std::move(s));
}

}  // namespace shrt
