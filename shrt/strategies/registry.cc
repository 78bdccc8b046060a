#include "shrt/strategies/registry.h"

#include <tuple>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "shrt/ops/op_group.h"
#include "shrt/ops/op_lookup.h"
#include "shrt/ops/overload_name.h"
#include "shrt/ops/variant_rules.h"

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

// Normalises one side of a rule whose arity matches `metas`.
absl::Status NormaliseSide(std::vector<Placement>& side, const std::vector<TensorMeta>& metas,
                           absl::string_view name) {
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
    if (!s.ok()) {
      problems.emplace_back(s.message());
      continue;
    }
    absl::StatusOr<std::optional<c10::OperatorName>> functional = FunctionalOf(name);
    if (!functional.ok()) {
      problems.emplace_back(functional.status().message());
    } else if (functional->has_value() && strategies_.count(**functional) > 0) {
      problems.push_back(absl::StrCat("'", OverloadToString(name), "' is a variant of '",
                                      OverloadToString(**functional),
                                      "', whose strategy it derives: register only the functional"));
    }
  }
  if (problems.empty()) return absl::OkStatus();
  return absl::NotFoundError(
      absl::StrCat("strategy registry: ", absl::StrJoin(problems, "; ")));
}

const Strategy* StrategyRegistry::Find(const c10::OperatorName& name, bool* inplace) const {
  *inplace = false;
  if (auto it = strategies_.find(name); it != strategies_.end()) return &it->second;
  std::lock_guard<std::mutex> lock(derived_mu_);
  if (auto it = derived_.find(name); it != derived_.end()) {
    *inplace = it->second.inplace;
    return it->second.strategy;
  }
  // Only hits are remembered: an overload registered with the dispatcher
  // later (a custom-op library) is still found.
  absl::StatusOr<std::optional<c10::OperatorName>> functional = FunctionalOf(name);
  if (!functional.ok() || !functional->has_value()) return nullptr;
  auto it = strategies_.find(**functional);
  if (it == strategies_.end()) return nullptr;
  *inplace = *KindOf(name) == VariantKind::kInPlace;
  derived_.emplace(name, Derived{&it->second, *inplace});
  return &it->second;
}

bool StrategyRegistry::Contains(const c10::OperatorName& name) const {
  bool inplace = false;
  return Find(name, &inplace) != nullptr;
}

std::vector<c10::OperatorName> StrategyRegistry::Overloads() const {
  std::map<c10::OperatorName, bool, bool (*)(const c10::OperatorName&, const c10::OperatorName&)>
      all{&NameLess};
  for (const auto& [name, strategy] : strategies_) {
    all.emplace(name, true);
    absl::StatusOr<OpGroup> group = FindOpGroup(name);
    if (!group.ok()) continue;
    for (const c10::OperatorName& variant : group->Overloads()) all.emplace(variant, true);
  }
  std::vector<c10::OperatorName> out;
  for (const auto& [name, unused] : all) out.push_back(name);
  return out;
}

absl::StatusOr<std::vector<Rule>> StrategyRegistry::Query(const c10::OperatorName& name,
                                                          const OpArgs& args) const {
  bool inplace = false;
  const Strategy* strategy = Find(name, &inplace);
  if (strategy == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("no strategy is registered for '", OverloadToString(name), "'"));
  }
  absl::StatusOr<std::vector<Rule>> result;
  try {
    result = (*strategy)(args);
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
    const RuleArity arity = RuleArity::Exactly(static_cast<int>(args.inputs().size()),
                                               static_cast<int>(args.outputs().size()));
    if (absl::Status s = CheckRuleArity(rule, arity); !s.ok()) return broken(s.message());
    for (auto [side, metas, label] :
         {std::tuple(&rule.inputs, &args.inputs(), "input"),
          std::tuple(&rule.outputs, &args.outputs(), "output")}) {
      absl::Status s = NormaliseSide(*side, *metas, label);
      if (!s.ok()) return broken(s.message());
    }
    if (IsAllReplicate(rule)) return broken("is the implicit all-Replicate rule");
    if (!seen.insert(rule).second) return broken("is listed twice");
  }
  // The derived in-place strategy (variant_rules.h), on normalised dims.
  if (inplace) rules = InPlaceRules(std::move(rules));
  return rules;
}

StrategyRegistrar::StrategyRegistrar(const char* overload, Strategy strategy,
                                     StrategyRegistry& registry) {
  absl::Status s = registry.Add(overload, std::move(strategy));
  if (!s.ok()) registry.RecordError(std::move(s));
}

}  // namespace shrt
