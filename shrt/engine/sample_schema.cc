#include "shrt/engine/sample_schema.h"

#include <algorithm>
#include <variant>

#include "ATen/core/jit_type.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace shrt {
namespace sample_internal {
namespace {

struct DtypeEntry {
  Dtype proto;
  c10::ScalarType torch;
};
constexpr DtypeEntry kDtypes[] = {
    {FLOAT32, c10::ScalarType::Float}, {FLOAT64, c10::ScalarType::Double},
    {FLOAT16, c10::ScalarType::Half},  {BFLOAT16, c10::ScalarType::BFloat16},
    {INT64, c10::ScalarType::Long},    {INT32, c10::ScalarType::Int},
    {INT16, c10::ScalarType::Short},   {INT8, c10::ScalarType::Char},
    {UINT8, c10::ScalarType::Byte},    {BOOL, c10::ScalarType::Bool},
    {COMPLEX64, c10::ScalarType::ComplexFloat}, {COMPLEX128, c10::ScalarType::ComplexDouble},
};

}  // namespace

ArgType Classify(const c10::Argument& a) {
  c10::TypePtr t = a.real_type();
  bool optional = false;
  if (auto o = t->cast<c10::OptionalType>()) {
    optional = true;
    t = o->getElementType();
  }
  switch (t->kind()) {
    case c10::TypeKind::TensorType: return {ArgKind::kTensor, optional};
    case c10::TypeKind::IntType:
    case c10::TypeKind::SymIntType: return {ArgKind::kInt, optional};
    case c10::TypeKind::FloatType: return {ArgKind::kFloat, optional};
    case c10::TypeKind::BoolType: return {ArgKind::kBool, optional};
    case c10::TypeKind::NumberType: return {ArgKind::kScalar, optional};
    case c10::TypeKind::StringType: return {ArgKind::kString, optional};
    case c10::TypeKind::ScalarTypeType: return {ArgKind::kScalarType, optional};
    case c10::TypeKind::ListType: {
      c10::TypePtr e = t->castRaw<c10::ListType>()->getElementType();
      if (e->kind() == c10::TypeKind::TensorType) return {ArgKind::kTensorList, optional};
      if (auto oe = e->cast<c10::OptionalType>();
          oe && oe->getElementType()->kind() == c10::TypeKind::TensorType) {
        return {ArgKind::kOptTensorList, optional};
      }
      if (e->kind() == c10::TypeKind::IntType || e->kind() == c10::TypeKind::SymIntType) {
        return {ArgKind::kIntList, optional};
      }
      if (e->kind() == c10::TypeKind::BoolType) return {ArgKind::kBoolList, optional};
      if (e->kind() == c10::TypeKind::NumberType || e->kind() == c10::TypeKind::FloatType) {
        return {ArgKind::kScalarList, optional};
      }
      return {ArgKind::kOther, optional};
    }
    default: return {ArgKind::kOther, optional};
  }
}

bool IsSizeArgument(const c10::Argument& a) {
  c10::TypePtr t = a.real_type();
  if (auto o = t->cast<c10::OptionalType>()) t = o->getElementType();
  if (auto l = t->cast<c10::ListType>()) t = l->getElementType();
  return t->kind() == c10::TypeKind::SymIntType;
}

c10::ScalarType ToScalarType(Dtype d) {
  for (const auto& e : kDtypes) {
    if (e.proto == d) return e.torch;
  }
  return c10::ScalarType::Float;
}

bool Accepts(ArgKind kind, Arg::ValueCase v) {
  switch (kind) {
    case ArgKind::kTensor: return v == Arg::kTensor;
    case ArgKind::kTensorList:
    case ArgKind::kOptTensorList: return v == Arg::kTensors;
    case ArgKind::kInt: return v == Arg::kIntValue;
    case ArgKind::kFloat: return v == Arg::kFloatValue || v == Arg::kIntValue;
    case ArgKind::kBool: return v == Arg::kBoolValue;
    case ArgKind::kScalar:
      return v == Arg::kIntValue || v == Arg::kFloatValue || v == Arg::kBoolValue;
    case ArgKind::kIntList: return v == Arg::kIntList || v == Arg::kIntValue;
    case ArgKind::kBoolList: return v == Arg::kBoolList;
    case ArgKind::kScalarList: return v == Arg::kFloatList || v == Arg::kIntList;
    case ArgKind::kString: return v == Arg::kStrValue;
    case ArgKind::kScalarType: return v == Arg::kDtypeValue;
    case ArgKind::kOther: return false;
  }
  return false;
}

ArgValue ToArgValue(const c10::IValue& v, ArgKind kind) {
  if (v.isNone()) return std::monostate{};
  if (kind == ArgKind::kScalarType) return v.toScalarType();
  if (v.isBool()) return v.toBool();
  if (v.isInt()) return v.toInt();
  if (v.isDouble()) return v.toDouble();
  if (v.isString()) return v.toStringRef();
  if (v.isIntList()) return v.toIntVector();
  if (v.isBoolList()) {
    const c10::List<bool> l = v.toBoolList();
    return std::vector<bool>(l.begin(), l.end());
  }
  if (kind == ArgKind::kScalarList && v.isList()) {
    std::vector<double> values;
    for (const c10::IValue& e : v.toListRef()) values.push_back(e.toScalar().toDouble());
    return values;
  }
  return std::monostate{};
}

std::string ValueText(const ArgValue& v) {
  struct Visitor {
    std::string operator()(std::monostate) const { return "None"; }
    std::string operator()(bool b) const { return b ? "True" : "False"; }
    std::string operator()(int64_t i) const { return absl::StrCat(i); }
    std::string operator()(double d) const { return absl::StrCat(d); }
    std::string operator()(const std::string& s) const { return absl::StrCat("\"", s, "\""); }
    std::string operator()(const std::vector<int64_t>& l) const {
      return absl::StrCat("[", absl::StrJoin(l, ", "), "]");
    }
    std::string operator()(const std::vector<bool>& l) const {
      return absl::StrCat("[", absl::StrJoin(l, ", ", [](std::string* out, bool b) {
                            out->append(b ? "True" : "False");
                          }), "]");
    }
    std::string operator()(const std::vector<double>& l) const {
      return absl::StrCat("[", absl::StrJoin(l, ", "), "]");
    }
    std::string operator()(c10::ScalarType t) const { return c10::toString(t); }
    std::string operator()(const TensorMeta& m) const { return TensorMetaToString(m); }
    std::string operator()(const std::vector<TensorMeta>& l) const {
      return absl::StrCat("[", absl::StrJoin(l, ", ", [](std::string* out, const TensorMeta& m) {
                            out->append(TensorMetaToString(m));
                          }), "]");
    }
  };
  return std::visit(Visitor{}, v);
}

ArgValue ToArgValue(const Arg& a) {
  switch (a.value_case()) {
    case Arg::kIntValue: return a.int_value();
    case Arg::kFloatValue: return a.float_value();
    case Arg::kBoolValue: return a.bool_value();
    case Arg::kIntList: return std::vector<int64_t>(a.int_list().value().begin(), a.int_list().value().end());
    case Arg::kStrValue: return a.str_value();
    case Arg::kBoolList: return std::vector<bool>(a.bool_list().value().begin(), a.bool_list().value().end());
    case Arg::kFloatList: return std::vector<double>(a.float_list().value().begin(), a.float_list().value().end());
    default: return std::monostate{};
  }
}

bool WritesInputArgument(const c10::FunctionSchema& schema) {
  return std::any_of(schema.arguments().begin(), schema.arguments().end(), [](const c10::Argument& a) {
    return !a.is_out() && a.alias_info() != nullptr && a.alias_info()->isWrite();
  });
}

TensorMeta MetaOf(const std::vector<int64_t>& shape, c10::ScalarType dtype) {
  TensorMeta m{shape, std::vector<int64_t>(shape.size()), dtype};
  int64_t stride = 1;
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    m.strides[d] = stride;
    stride *= std::max<int64_t>(shape[d], 1);
  }
  return m;
}

TensorMeta MetaOf(const at::Tensor& t) {
  return {t.sizes().vec(), t.strides().vec(), t.scalar_type()};
}

}  // namespace sample_internal
}  // namespace shrt
