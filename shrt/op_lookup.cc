#include "shrt/op_lookup.h"

#include <algorithm>
#include <utility>

#include "ATen/core/dispatch/Dispatcher.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "shrt/overload_name.h"

namespace shrt {
namespace {

// Levenshtein distance, O(|a|*|b|) time and O(|b|) memory.
size_t EditDistance(absl::string_view a, absl::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

// Adds the tensors `type` stands for to the range [*lo, *hi] (hi: kAny).
void CountTensors(const c10::TypePtr& type, int* lo, int* hi) {
  c10::TypePtr t = type;
  bool optional = false;
  if (auto o = t->cast<c10::OptionalType>()) {
    t = o->getElementType();
    optional = true;
  }
  if (t->kind() == c10::TypeKind::TensorType) {
    if (!optional) ++*lo;
    if (*hi != RuleArity::kAny) ++*hi;
    return;
  }
  if (auto list = t->cast<c10::ListType>()) {
    c10::TypePtr e = list->getElementType();
    if (auto oe = e->cast<c10::OptionalType>()) e = oe->getElementType();
    if (e->kind() == c10::TypeKind::TensorType) *hi = RuleArity::kAny;
  }
}

}  // namespace

absl::StatusOr<RuleArity> SchemaArity(const c10::OperatorName& name) {
  if (absl::Status s = CheckOverloadExists(name); !s.ok()) return s;
  const c10::FunctionSchema& schema = c10::Dispatcher::singleton().findSchema(name)->schema();
  RuleArity arity;
  for (const c10::Argument& a : schema.arguments()) {
    if (!a.is_out()) CountTensors(a.real_type(), &arity.min_inputs, &arity.max_inputs);
  }
  for (const c10::Argument& r : schema.returns()) {
    CountTensors(r.real_type(), &arity.min_outputs, &arity.max_outputs);
  }
  return arity;
}

std::vector<std::string> CloseOverloads(absl::string_view text, int max) {
  std::vector<std::pair<size_t, std::string>> scored;
  for (const c10::OperatorName& name : c10::Dispatcher::singleton().getAllOpNames()) {
    std::string s = OverloadToString(name);
    scored.emplace_back(EditDistance(text, s), std::move(s));
  }
  const size_t n = std::min<size_t>(scored.size(), static_cast<size_t>(std::max(0, max)));
  std::partial_sort(scored.begin(), scored.begin() + n, scored.end());
  std::vector<std::string> out;
  for (size_t i = 0; i < n; ++i) out.push_back(std::move(scored[i].second));
  return out;
}

absl::Status CheckOverloadExists(const c10::OperatorName& name) {
  if (c10::Dispatcher::singleton().findSchema(name).has_value()) return absl::OkStatus();
  const std::string text = OverloadToString(name);
  return absl::NotFoundError(absl::StrCat("unknown overload '", text, "'; did you mean ",
                                          absl::StrJoin(CloseOverloads(text, 3), ", "), "?"));
}

absl::StatusOr<std::vector<std::string>> SchemaArgumentNames(const c10::OperatorName& name) {
  if (absl::Status s = CheckOverloadExists(name); !s.ok()) return s;
  std::vector<std::string> names;
  for (const c10::Argument& a : c10::Dispatcher::singleton().findSchema(name)->schema().arguments()) {
    names.push_back(a.name());
  }
  return names;
}

}  // namespace shrt
