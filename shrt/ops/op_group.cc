#include "shrt/ops/op_group.h"

#include "ATen/core/dispatch/Dispatcher.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "shrt/ops/op_lookup.h"
#include "shrt/ops/overload_name.h"

namespace shrt {
namespace {

const c10::FunctionSchema* SchemaOf(const c10::OperatorName& name) {
  auto op = c10::Dispatcher::singleton().findSchema(name);
  return op.has_value() ? &op->schema() : nullptr;
}

bool Writes(const c10::Argument& a) { return a.alias_info() != nullptr && a.alias_info()->isWrite(); }

VariantKind Classify(const c10::FunctionSchema& schema) {
  bool writes = false, out = false;
  for (const c10::Argument& a : schema.arguments()) {
    writes |= Writes(a);
    out |= a.is_out();
  }
  if (!writes && !out) return VariantKind::kFunctional;
  if (out) return VariantKind::kOut;
  const absl::string_view name = schema.name();
  if (!schema.arguments().empty() && Writes(schema.arguments()[0]) && absl::EndsWith(name, "_")) {
    return VariantKind::kInPlace;
  }
  return VariantKind::kOther;
}

// torchgen's signature comparison: names, types without alias annotations
// (c10 keeps those apart from the type) and keyword-only-ness, out=
// arguments left out.
bool SameSignature(const c10::FunctionSchema& functional, const c10::FunctionSchema& variant) {
  std::vector<const c10::Argument*> args;
  for (const c10::Argument& a : variant.arguments()) {
    if (!a.is_out()) args.push_back(&a);
  }
  if (args.size() != functional.arguments().size()) return false;
  for (size_t i = 0; i < args.size(); ++i) {
    const c10::Argument& f = functional.arguments()[i];
    if (f.name() != args[i]->name() || f.kwarg_only() != args[i]->kwarg_only() ||
        f.type()->str() != args[i]->type()->str()) {
      return false;
    }
  }
  return true;
}

}  // namespace

const char* VariantKindName(VariantKind kind) {
  switch (kind) {
    case VariantKind::kFunctional: return "functional";
    case VariantKind::kInPlace: return "in-place";
    case VariantKind::kOut: return "out=";
    case VariantKind::kOther: return "other";
  }
  return "?";
}

std::vector<c10::OperatorName> OpGroup::Overloads() const {
  std::vector<c10::OperatorName> out = {functional};
  if (inplace.has_value()) out.push_back(*inplace);
  if (this->out.has_value()) out.push_back(*this->out);
  return out;
}

absl::StatusOr<VariantKind> KindOf(const c10::OperatorName& name) {
  if (absl::Status s = CheckOverloadExists(name); !s.ok()) return s;
  return Classify(*SchemaOf(name));
}

absl::StatusOr<OpGroup> FindOpGroup(const c10::OperatorName& functional) {
  if (absl::Status s = CheckOverloadExists(functional); !s.ok()) return s;
  OpGroup group;
  group.functional = functional;
  const c10::FunctionSchema& f = *SchemaOf(functional);
  if (Classify(f) != VariantKind::kFunctional) return group;
  const std::string inplace_name = functional.name + "_";
  std::vector<c10::OperatorName> candidates = OverloadsNamed(functional.name);
  for (c10::OperatorName& name : OverloadsNamed(inplace_name)) {
    candidates.push_back(std::move(name));
  }
  for (const c10::OperatorName& name : candidates) {
    const c10::FunctionSchema* schema = SchemaOf(name);
    if (schema == nullptr || !SameSignature(f, *schema)) continue;
    const VariantKind kind = Classify(*schema);
    std::optional<c10::OperatorName>* slot = nullptr;
    if (kind == VariantKind::kInPlace && name.name == inplace_name) slot = &group.inplace;
    if (kind == VariantKind::kOut && name.name == functional.name) slot = &group.out;
    if (slot == nullptr) continue;
    if (slot->has_value()) {
      return absl::FailedPreconditionError(
          absl::StrCat("both ", OverloadToString(**slot), " and ", OverloadToString(name),
                       " match as the ", VariantKindName(kind), " variant of ",
                       OverloadToString(functional)));
    }
    *slot = name;
  }
  if (group.out.has_value()) {
    for (const c10::Argument& a : SchemaOf(*group.out)->arguments()) {
      if (a.is_out()) group.out_arguments.push_back(a.name());
    }
  }
  return group;
}

absl::StatusOr<std::optional<c10::OperatorName>> FunctionalOf(const c10::OperatorName& variant) {
  absl::StatusOr<VariantKind> kind = KindOf(variant);
  if (!kind.ok()) return kind.status();
  if (*kind != VariantKind::kInPlace && *kind != VariantKind::kOut) return std::nullopt;
  std::string base = variant.name;
  if (*kind == VariantKind::kInPlace) base.pop_back();
  for (const c10::OperatorName& name : OverloadsNamed(base)) {
    const c10::FunctionSchema* schema = SchemaOf(name);
    if (schema == nullptr || Classify(*schema) != VariantKind::kFunctional ||
        !SameSignature(*schema, *SchemaOf(variant))) {
      continue;
    }
    absl::StatusOr<OpGroup> group = FindOpGroup(name);
    if (!group.ok()) return group.status();
    if (group->inplace == variant || group->out == variant) return name;
  }
  return std::nullopt;
}

}  // namespace shrt
