#include "shrt/ops/op_args.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace shrt {

const ArgValue* OpArgs::Find(absl::string_view name) const {
  for (const OpArg& arg : args_) {
    if (arg.name == name) return &arg.value;
  }
  return nullptr;
}

std::optional<int64_t> OpArgs::GetInt(absl::string_view name) const {
  const ArgValue* v = Find(name);
  if (v == nullptr) return std::nullopt;
  if (const auto* i = std::get_if<int64_t>(v)) return *i;
  if (const auto* b = std::get_if<bool>(v)) return *b ? 1 : 0;
  return std::nullopt;
}

std::optional<double> OpArgs::GetDouble(absl::string_view name) const {
  const ArgValue* v = Find(name);
  if (v == nullptr) return std::nullopt;
  if (const auto* d = std::get_if<double>(v)) return *d;
  if (const auto* i = std::get_if<int64_t>(v)) return static_cast<double>(*i);
  if (const auto* b = std::get_if<bool>(v)) return *b ? 1.0 : 0.0;
  return std::nullopt;
}

std::optional<bool> OpArgs::GetBool(absl::string_view name) const {
  const ArgValue* v = Find(name);
  if (v == nullptr) return std::nullopt;
  if (const auto* b = std::get_if<bool>(v)) return *b;
  return std::nullopt;
}

std::optional<std::vector<int64_t>> OpArgs::GetIntList(absl::string_view name) const {
  const ArgValue* v = Find(name);
  if (v == nullptr) return std::nullopt;
  if (const auto* l = std::get_if<std::vector<int64_t>>(v)) return *l;
  if (const auto* i = std::get_if<int64_t>(v)) return std::vector<int64_t>{*i};
  return std::nullopt;
}

std::optional<std::vector<bool>> OpArgs::GetBoolList(absl::string_view name) const {
  const ArgValue* v = Find(name);
  if (v == nullptr) return std::nullopt;
  if (const auto* l = std::get_if<std::vector<bool>>(v)) return *l;
  return std::nullopt;
}

std::string TensorMetaToString(const TensorMeta& meta) {
  return absl::StrCat(c10::toString(meta.dtype), "[", absl::StrJoin(meta.sizes, ", "), "]");
}

}  // namespace shrt
