#include "shrt/ops/op_lookup.h"

#include <algorithm>
#include <memory>

#include "ATen/core/dispatch/Dispatcher.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "shrt/ops/overload_name.h"
#include "shrt/vocab/suggest.h"

namespace shrt {
namespace {

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

// Overload names by operator name, kept by the dispatcher's registration
// callbacks (which it makes under its own lock, one at a time; the mutex
// orders them against readers).
class OverloadIndex : public c10::OpRegistrationListener {
 public:
  void onOperatorRegistered(const c10::OperatorHandle& op) override {
    absl::MutexLock lock(&mu_);
    std::vector<c10::OperatorName>& names = by_name_[op.operator_name().name];
    names.push_back(op.operator_name());
    std::sort(names.begin(), names.end(), [](const auto& a, const auto& b) {
      return a.overload_name < b.overload_name;
    });
  }
  void onOperatorDeregistered(const c10::OperatorHandle& op) override {
    absl::MutexLock lock(&mu_);
    std::vector<c10::OperatorName>& names = by_name_[op.operator_name().name];
    names.erase(std::remove(names.begin(), names.end(), op.operator_name()), names.end());
  }
  std::vector<c10::OperatorName> Find(const std::string& name) const {
    absl::MutexLock lock(&mu_);
    auto it = by_name_.find(name);
    return it == by_name_.end() ? std::vector<c10::OperatorName>() : it->second;
  }

 private:
  mutable absl::Mutex mu_;
  absl::flat_hash_map<std::string, std::vector<c10::OperatorName>> by_name_;
};

// The index and the handle of its registration, never destroyed: the
// listener lives as long as the dispatcher may call it (and stays reachable
// from this static, so LeakSanitizer does not count it).
struct RegisteredIndex {
  const OverloadIndex* index;
  c10::RegistrationHandleRAII handle;
};

const OverloadIndex& Index() {
  static const RegisteredIndex* registered = [] {
    auto owned = std::make_unique<OverloadIndex>();
    const OverloadIndex* raw = owned.get();
    return new RegisteredIndex{
        raw, c10::Dispatcher::singleton().addRegistrationListener(std::move(owned))};
  }();
  return *registered->index;
}

}  // namespace

std::vector<c10::OperatorName> OverloadsNamed(const std::string& name) { return Index().Find(name); }

std::vector<int> WrittenArgumentsAsOutputs(const c10::FunctionSchema& schema) {
  std::vector<int> written;
  if (!schema.returns().empty()) return written;
  for (size_t i = 0; i < schema.arguments().size(); ++i) {
    const c10::AliasInfo* alias = schema.arguments()[i].alias_info();
    if (alias != nullptr && alias->isWrite()) written.push_back(static_cast<int>(i));
  }
  return written;
}

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
  for (int i : WrittenArgumentsAsOutputs(schema)) {
    CountTensors(schema.arguments()[i].real_type(), &arity.min_outputs, &arity.max_outputs);
  }
  return arity;
}

std::vector<std::string> CloseOverloads(absl::string_view text, int max) {
  std::vector<std::string> names;
  for (const c10::OperatorName& name : c10::Dispatcher::singleton().getAllOpNames()) {
    names.push_back(OverloadToString(name));
  }
  std::sort(names.begin(), names.end());
  return CloseMatches(text, names, max);
}

absl::Status CheckOverloadExists(const c10::OperatorName& name) {
  if (c10::Dispatcher::singleton().findSchema(name).has_value()) return absl::OkStatus();
  const std::string text = OverloadToString(name);
  const std::vector<std::string> close = CloseOverloads(text, 3);
  return absl::NotFoundError(absl::StrCat("unknown overload '", text, "'",
                                          close.empty() ? "" : "; did you mean ",
                                          absl::StrJoin(close, ", "), close.empty() ? "" : "?"));
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
