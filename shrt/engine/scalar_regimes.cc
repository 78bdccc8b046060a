#include "shrt/engine/scalar_regimes.h"

#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "ATen/core/dispatch/Dispatcher.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "shrt/engine/sample_schema.h"
#include "shrt/ops/overload_name.h"

namespace shrt {
namespace {

using sample_internal::ArgKind;
using sample_internal::Classify;
using sample_internal::IsSizeArgument;

// A value of a scalar argument: nullopt for None, a bool as 0 or 1.
using Value = std::optional<double>;

enum class Regime { kNegative, kZero, kPositive, kNonFinite, kFalse, kTrue };

// How the regime reads in a gap's `seen`.
constexpr const char* kRegimeText[] = {"every value < 0", "every value == 0", "every value > 0",
                                       "every value inf or nan", "always false", "always true"};

Regime RegimeOf(double v, bool is_bool) {
  if (is_bool) return v != 0 ? Regime::kTrue : Regime::kFalse;
  if (!std::isfinite(v)) return Regime::kNonFinite;
  return v < 0 ? Regime::kNegative : v == 0 ? Regime::kZero : Regime::kPositive;
}

// One scalar argument of the schema that the regimes are about.
struct ScalarArg {
  std::string name;
  bool is_bool;
  bool is_floating;  // float or Scalar: pairs of these must be seen in both orders
  Value default_value;
};

std::vector<ScalarArg> ScalarArgsOf(const c10::FunctionSchema& schema) {
  std::vector<ScalarArg> out;
  for (const c10::Argument& a : schema.arguments()) {
    if (IsSizeArgument(a)) continue;
    const ArgKind kind = Classify(a).kind;
    if (kind != ArgKind::kInt && kind != ArgKind::kFloat && kind != ArgKind::kScalar &&
        kind != ArgKind::kBool) {
      continue;
    }
    Value d;
    if (a.default_value().has_value()) {
      const c10::IValue& v = *a.default_value();
      if (v.isInt()) d = static_cast<double>(v.toInt());
      if (v.isDouble()) d = v.toDouble();
      if (v.isBool()) d = v.toBool() ? 1.0 : 0.0;
    }
    out.push_back({a.name(), kind == ArgKind::kBool,
                   kind == ArgKind::kFloat || kind == ArgKind::kScalar, d});
  }
  return out;
}

// The values sample `s` gives `arg`: its Arg, else its Sweep's values,
// else the default.
std::vector<Value> ValuesIn(const Sample& sample, const ScalarArg& arg) {
  auto of_arg = [](const Arg& a) -> Value {
    switch (a.value_case()) {
      case Arg::kIntValue: return static_cast<double>(a.int_value());
      case Arg::kFloatValue: return a.float_value();
      case Arg::kBoolValue: return a.bool_value() ? 1.0 : 0.0;
      default: return std::nullopt;
    }
  };
  for (const Arg& a : sample.arg()) {
    if (a.name() == arg.name) return {of_arg(a)};
  }
  for (const Sweep& w : sample.sweep()) {
    if (w.name() != arg.name) continue;
    std::vector<Value> out;
    for (int64_t v : w.int_values()) out.push_back(static_cast<double>(v));
    for (double v : w.float_values()) out.push_back(v);
    for (bool v : w.bool_values()) out.push_back(v ? 1.0 : 0.0);
    if (w.include_none()) out.push_back(std::nullopt);
    return out;
  }
  return {arg.default_value};
}

std::string ValuesText(const std::set<double>& values) {
  std::vector<std::string> shown;
  for (double v : values) {
    if (shown.size() == 4) {
      shown.push_back("...");
      break;
    }
    shown.push_back(absl::StrFormat("%g", v));
  }
  return absl::StrJoin(shown, ", ");
}

}  // namespace

absl::StatusOr<std::vector<ScalarRegimeGap>> ScalarRegimeGaps(const LoadedSpec& spec) {
  auto handle = c10::Dispatcher::singleton().findSchema(spec.op());
  if (!handle.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat(OverloadToString(spec.op()), " has no schema in the dispatcher"));
  }
  const std::vector<ScalarArg> args = ScalarArgsOf(handle->schema());
  const int n = static_cast<int>(args.size());
  std::vector<std::set<Regime>> regimes(n);
  std::vector<std::set<double>> values(n);
  std::map<std::pair<int, int>, std::set<int>> orders;  // (a, b) -> signs of b - a seen
  for (const Sample& sample : spec.proto().sample()) {
    std::vector<std::vector<Value>> given(n);
    for (int i = 0; i < n; ++i) {
      if (spec.IgnoresArgument(args[i].name)) continue;
      given[i] = ValuesIn(sample, args[i]);
      for (const Value& v : given[i]) {
        if (!v.has_value()) continue;
        regimes[i].insert(RegimeOf(*v, args[i].is_bool));
        values[i].insert(*v);
      }
    }
    for (int a = 0; a < n; ++a) {
      for (int b = a + 1; b < n; ++b) {
        if (!args[a].is_floating || !args[b].is_floating) continue;
        for (const Value& x : given[a]) {
          for (const Value& y : given[b]) {
            if (!x.has_value() || !y.has_value()) continue;
            std::set<int>& seen = orders[{a, b}];
            if (*x < *y) seen.insert(-1);
            if (*x > *y) seen.insert(1);
            if (*x == *y) seen.insert(0);
          }
        }
      }
    }
  }
  std::vector<ScalarRegimeGap> gaps;
  for (int i = 0; i < n; ++i) {
    if (regimes[i].size() > 1) continue;
    gaps.push_back({{args[i].name},
                    regimes[i].empty()
                        ? std::string("only None")
                        : absl::StrCat(kRegimeText[static_cast<int>(*regimes[i].begin())], " (",
                                       ValuesText(values[i]), ")")});
  }
  for (const auto& [pair, seen] : orders) {
    if (seen.count(-1) && seen.count(1)) continue;
    const std::string& a = args[pair.first].name;
    const std::string& b = args[pair.second].name;
    std::vector<std::string> relations;
    for (int sign : seen) relations.push_back(sign < 0 ? "<" : sign > 0 ? ">" : "==");
    gaps.push_back({{a, b},
                    absl::StrCat(a, " ", absl::StrJoin(relations, " or "), " ", b,
                                 " in every sample that gives both")});
  }
  return gaps;
}

}  // namespace shrt
