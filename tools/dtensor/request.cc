#include "tools/dtensor/request.h"

#include <cmath>

#include <variant>

#include "ATen/core/dispatch/Dispatcher.h"
#include "absl/strings/str_cat.h"
#include "shrt/ops/overload_name.h"

namespace shrt {
namespace {

using google::protobuf::ListValue;
using google::protobuf::Struct;
using google::protobuf::Value;

// torch's Python names (torch/csrc/utils/tensor_dtypes.cpp getDtypeNames,
// the first of each pair).
constexpr std::pair<c10::ScalarType, const char*> kDtypeNames[] = {
    {c10::ScalarType::Bool, "bool"},           {c10::ScalarType::Byte, "uint8"},
    {c10::ScalarType::Char, "int8"},           {c10::ScalarType::Short, "int16"},
    {c10::ScalarType::Int, "int32"},           {c10::ScalarType::Long, "int64"},
    {c10::ScalarType::Half, "float16"},        {c10::ScalarType::BFloat16, "bfloat16"},
    {c10::ScalarType::Float, "float32"},       {c10::ScalarType::Double, "float64"},
    {c10::ScalarType::ComplexHalf, "complex32"}, {c10::ScalarType::ComplexFloat, "complex64"},
    {c10::ScalarType::ComplexDouble, "complex128"},
};

Value Ints(const std::vector<int64_t>& values) {
  Value v;
  ListValue* list = v.mutable_list_value();
  for (int64_t x : values) list->add_values()->set_number_value(static_cast<double>(x));
  return v;
}

absl::StatusOr<Value> Meta(const TensorMeta& meta) {
  absl::StatusOr<std::string> dtype = TorchDtypeName(meta.dtype);
  if (!dtype.ok()) return dtype.status();
  Value v;
  auto& fields = *v.mutable_struct_value()->mutable_fields();
  fields["shape"] = Ints(meta.sizes);
  fields["stride"] = Ints(meta.strides);
  fields["dtype"].set_string_value(*dtype);
  return v;
}

absl::StatusOr<Value> Tensor(const TensorMeta& meta) {
  absl::StatusOr<Value> m = Meta(meta);
  if (!m.ok()) return m.status();
  Value v;
  (*v.mutable_struct_value()->mutable_fields())["tensor"] = *std::move(m);
  return v;
}

absl::StatusOr<Value> Tensors(const std::vector<TensorMeta>& metas) {
  Value list;
  list.mutable_list_value();  // an empty list is still a list, not a value-less field
  for (const TensorMeta& meta : metas) {
    absl::StatusOr<Value> m = Meta(meta);
    if (!m.ok()) return m.status();
    *list.mutable_list_value()->add_values() = *std::move(m);
  }
  Value v;
  (*v.mutable_struct_value()->mutable_fields())["tensors"] = std::move(list);
  return v;
}

// One ArgValue as a request value (claims.proto RequestSample.args).
struct ToValue {
  absl::StatusOr<Value> operator()(std::monostate) const {
    Value v;
    v.set_null_value(google::protobuf::NULL_VALUE);
    return v;
  }
  absl::StatusOr<Value> operator()(bool b) const {
    Value v;
    v.set_bool_value(b);
    return v;
  }
  absl::StatusOr<Value> operator()(int64_t i) const {
    Value v;
    v.set_number_value(static_cast<double>(i));
    return v;
  }
  absl::StatusOr<Value> operator()(double d) const {
    Value v;
    if (std::isfinite(d)) {
      v.set_number_value(d);
    } else {
      // JSON has no inf or nan, and protobuf's printer writes them as the
      // strings "Infinity" and "NaN", which an operator would take for a
      // string argument: a tagged float, read back with Python's float().
      (*v.mutable_struct_value()->mutable_fields())["float"].set_string_value(
          std::isnan(d) ? "nan" : d > 0 ? "inf" : "-inf");
    }
    return v;
  }
  absl::StatusOr<Value> operator()(const std::string& s) const {
    Value v;
    v.set_string_value(s);
    return v;
  }
  absl::StatusOr<Value> operator()(const std::vector<int64_t>& ints) const { return Ints(ints); }
  absl::StatusOr<Value> operator()(c10::ScalarType dtype) const {
    absl::StatusOr<std::string> name = TorchDtypeName(dtype);
    if (!name.ok()) return name.status();
    Value v;
    (*v.mutable_struct_value()->mutable_fields())["dtype"].set_string_value(*name);
    return v;
  }
  absl::StatusOr<Value> operator()(const TensorMeta& meta) const { return Tensor(meta); }
  absl::StatusOr<Value> operator()(const std::vector<TensorMeta>& metas) const {
    return Tensors(metas);
  }
  absl::StatusOr<Value> operator()(const std::vector<double>& numbers) const {
    Value v;
    v.mutable_list_value();  // an empty list is still a list
    for (double d : numbers) {
      absl::StatusOr<Value> e = (*this)(d);
      if (!e.ok()) return e.status();
      *v.mutable_list_value()->add_values() = *std::move(e);
    }
    return v;
  }
  absl::StatusOr<Value> operator()(const std::vector<bool>& bools) const {
    Value v;
    v.mutable_list_value();  // an empty list is still a list
    for (bool b : bools) v.mutable_list_value()->add_values()->set_bool_value(b);
    return v;
  }
};

}  // namespace

absl::StatusOr<std::string> TorchDtypeName(c10::ScalarType dtype) {
  for (const auto& [type, name] : kDtypeNames) {
    if (type == dtype) return std::string(name);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("dtype ", c10::toString(dtype), " has no torch name known to ShRT"));
}

absl::StatusOr<Struct> RequestArgs(const c10::OperatorName& op, const OpArgs& args) {
  const std::optional<c10::OperatorHandle> handle = c10::Dispatcher::singleton().findOp(op);
  if (!handle.has_value() || !handle->hasSchema()) {
    return absl::NotFoundError(absl::StrCat(OverloadToString(op), " has no schema"));
  }
  Struct out;
  auto& fields = *out.mutable_fields();
  for (const OpArg& a : args.args()) {
    absl::StatusOr<Value> v = std::visit(ToValue{}, a.value);
    if (!v.ok()) return v.status();
    fields[a.name] = *std::move(v);
  }
  size_t next = 0;  // the next output an out= argument takes
  const std::vector<TensorMeta>& outputs = args.outputs();
  for (const c10::Argument& a : handle->schema().arguments()) {
    if (!a.is_out()) continue;
    absl::StatusOr<Value> v;
    if (a.type()->kind() == c10::TypeKind::ListType) {
      v = Tensors({outputs.begin() + std::min(next, outputs.size()), outputs.end()});
      next = outputs.size();
    } else if (next < outputs.size()) {
      v = Tensor(outputs[next++]);
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          OverloadToString(op), ": no output for out= argument '", a.name(), "'"));
    }
    if (!v.ok()) return v.status();
    fields[a.name()] = *std::move(v);
  }
  return out;
}

}  // namespace shrt
