#include "shrt/sample.h"

#include <algorithm>
#include <stdexcept>

#include "ATen/core/dispatch/Dispatcher.h"
#include "ATen/core/ivalue.h"
#include "ATen/core/jit_type.h"
#include "ATen/ops/empty.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "c10/util/Exception.h"
#include "shrt/isolation.h"
#include "shrt/cases.h"
#include "shrt/limits.h"
#include "shrt/op_lookup.h"
#include "shrt/overload_name.h"
#include "shrt/recipe_fit.h"
#include "shrt/recipes.h"
#include "shrt/torch_runtime.h"

namespace shrt {
namespace {

// What an argument's schema type accepts, after stripping one Optional.
enum class ArgKind {
  kTensor, kTensorList, kOptTensorList, kInt, kFloat, kBool, kScalar, kIntList, kBoolList,
  kString, kScalarType, kOther
};

struct ArgType {
  ArgKind kind;
  bool optional;
};

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
      return {ArgKind::kOther, optional};
    }
    default: return {ArgKind::kOther, optional};
  }
}

// True for a SymInt or SymInt[] argument (optional or not): the schema's
// mark of a size (view's `size`, embedding_dense_backward's `num_weights`),
// which limits.h bounds before the operator allocates by it.
bool IsSizeArgument(const c10::Argument& a) {
  c10::TypePtr t = a.real_type();
  if (auto o = t->cast<c10::OptionalType>()) t = o->getElementType();
  if (auto l = t->cast<c10::ListType>()) t = l->getElementType();
  return t->kind() == c10::TypeKind::SymIntType;
}

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

c10::ScalarType ToScalarType(Dtype d) {
  for (const auto& e : kDtypes) {
    if (e.proto == d) return e.torch;
  }
  return c10::ScalarType::Float;
}

// Which proto value kinds each schema kind accepts.
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
    case ArgKind::kString: return v == Arg::kStrValue;
    case ArgKind::kScalarType: return v == Arg::kDtypeValue;
    case ArgKind::kOther: return false;
  }
  return false;
}

// The ArgValue a strategy sees for a non-tensor IValue.
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

// The ArgValue of a non-tensor proto value (for sweep labels).
ArgValue ToArgValue(const Arg& a) {
  switch (a.value_case()) {
    case Arg::kIntValue: return a.int_value();
    case Arg::kFloatValue: return a.float_value();
    case Arg::kBoolValue: return a.bool_value();
    case Arg::kIntList: return std::vector<int64_t>(a.int_list().value().begin(), a.int_list().value().end());
    case Arg::kStrValue: return a.str_value();
    case Arg::kBoolList: return std::vector<bool>(a.bool_list().value().begin(), a.bool_list().value().end());
    default: return std::monostate{};
  }
}

// True if the schema writes an argument other than out=: `Tensor(a!) self`
// (add_.Tensor), `Tensor(a!)[] self` (_foreach_add_.List), batch_norm's
// `Tensor(b!) running_mean`. An out= variant writes only its out= tensors,
// which every call creates afresh (Stack), so it writes no input and its
// calls may share inputs and be shared between ranks.
// FunctionSchema::is_mutable() counts out= arguments too.
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

}  // namespace

absl::StatusOr<std::vector<BoundSample>> BoundSample::BindAll(const LoadedSpec& spec, int s) {
  const Sample& declared = spec.proto().sample(s);
  std::vector<std::string> where;
  for (int a = 0; a < declared.arg_size(); ++a) where.push_back(spec.WhereArg(s, a));
  // Each sweep as the list of Arg values it takes.
  std::vector<std::vector<Arg>> axes;
  for (int w = 0; w < declared.sweep_size(); ++w) {
    const Sweep& sweep = declared.sweep(w);
    std::vector<Arg> values;
    auto add = [&](auto set) {
      Arg a;
      a.set_name(sweep.name());
      set(a);
      values.push_back(std::move(a));
    };
    for (int64_t v : sweep.int_values()) add([&](Arg& a) { a.set_int_value(v); });
    for (bool v : sweep.bool_values()) add([&](Arg& a) { a.set_bool_value(v); });
    for (double v : sweep.float_values()) add([&](Arg& a) { a.set_float_value(v); });
    for (const IntList& v : sweep.int_lists()) add([&](Arg& a) { *a.mutable_int_list() = v; });
    for (const BoolList& v : sweep.bool_lists()) add([&](Arg& a) { *a.mutable_bool_list() = v; });
    if (sweep.include_none()) add([&](Arg& a) { a.set_none(true); });
    axes.push_back(std::move(values));
    where.push_back(spec.WhereSweep(s, w));
  }
  std::vector<BoundSample> out;
  std::vector<size_t> pick(axes.size(), 0);
  while (true) {
    Sample expanded = declared;
    expanded.clear_sweep();
    std::vector<std::string> labels;
    for (size_t w = 0; w < axes.size(); ++w) {
      const Arg& a = axes[w][pick[w]];
      *expanded.add_arg() = a;
      labels.push_back(absl::StrCat(a.name(), "=", ValueText(ToArgValue(a))));
    }
    std::string name = labels.empty()
                           ? declared.name()
                           : absl::StrCat(declared.name(), "[", absl::StrJoin(labels, ", "), "]");
    absl::StatusOr<BoundSample> b = Bind(spec, s, expanded, where, std::move(name));
    if (!b.ok()) return b.status();
    out.push_back(*std::move(b));
    size_t w = 0;
    while (w < axes.size() && ++pick[w] == axes[w].size()) pick[w++] = 0;
    if (w == axes.size()) break;
  }
  return out;
}

BoundSample::BoundSample(const BoundSample&) = default;
BoundSample::BoundSample(BoundSample&&) noexcept = default;
BoundSample& BoundSample::operator=(const BoundSample&) = default;
BoundSample& BoundSample::operator=(BoundSample&&) noexcept = default;
BoundSample::~BoundSample() = default;

const c10::OperatorHandle& BoundSample::handle() const { return *op_; }

absl::StatusOr<BoundSample> BoundSample::Bind(const LoadedSpec& spec, int s, const Sample& sample,
                                              const std::vector<std::string>& where,
                                              std::string name) {
  UseGroundTruthRuntime();  // before any operator under test runs
  BoundSample b;
  b.name_ = std::move(name);
  b.bound_ = sample;
  b.where_ = where;
  b.op_ = std::make_shared<const c10::OperatorHandle>(c10::Dispatcher::singleton().findSchemaOrThrow(
      spec.op().name.c_str(), spec.op().overload_name.c_str()));
  const c10::FunctionSchema& schema = b.op_->schema();
  b.mutates_ = WritesInputArgument(schema);
  const std::string default_recipe =
      spec.proto().recipe().empty() ? std::string(kDefaultRecipe) : spec.proto().recipe();

  const int declared_args = spec.proto().sample(s).arg_size();
  auto bad = [&](int a, absl::string_view what) {
    const std::string field =
        a < 0 ? absl::StrCat("sample[", s, "]")
              : a < declared_args ? absl::StrCat("sample[", s, "].arg[", a, "]")
                                  : absl::StrCat("sample[", s, "].sweep[", a - declared_args, "]");
    return FieldError(a < 0 ? spec.WhereSample(s) : where[a],
                      absl::StrCat(field, " (sample '", b.name_, "')"), what);
  };
  // Which proto arg names each schema argument, and each input.
  std::vector<int> given(schema.arguments().size(), -1);
  std::vector<int> input_arg;
  for (int a = 0; a < sample.arg_size(); ++a) {
    const std::string& name = sample.arg(a).name();
    auto idx = schema.argumentIndexWithName(name);
    if (!idx.has_value() && spec.IgnoresArgument(name)) continue;  // the out= variant's
    if (!idx.has_value()) {
      std::vector<std::string> names;
      for (const c10::Argument& arg : schema.arguments()) names.push_back(arg.name());
      return bad(a, absl::StrCat("no argument named '", name, "' in ", OverloadToString(schema.operator_name()),
                                 "(", absl::StrJoin(names, ", "), ")"));
    }
    if (given[*idx] >= 0) return bad(a, absl::StrCat("argument '", name, "' is given twice"));
    given[*idx] = a;
  }
  for (size_t i = 0; i < schema.arguments().size(); ++i) {
    const c10::Argument& arg = schema.arguments()[i];
    const ArgType type = Classify(arg);
    const int a = given[i];
    b.list_sizes_.push_back(-1);
    auto add_input = [&](std::string label, const TensorArg& t, int elem) -> absl::Status {
      std::vector<int64_t> shape(t.shape().begin(), t.shape().end());
      if (absl::Status st = CheckShape(shape); !st.ok()) {
        return bad(a, absl::StrCat("input '", label, "': ", st.message()));
      }
      if (t.layout() == TRANSPOSED && shape.size() < 2) {
        return bad(a, absl::StrCat("input '", label, "': layout TRANSPOSED needs >= 2 dims"));
      }
      b.slots_.push_back({static_cast<int>(i), elem});
      input_arg.push_back(a);
      b.inputs_.push_back({std::move(label), shape, ToScalarType(t.dtype()),
                           t.recipe().empty() ? default_recipe : t.recipe(), t.layout(),
                           static_cast<int>(b.inputs_.size())});
      return absl::OkStatus();
    };
    if (arg.is_out()) {
      c10::ScalarType dtype = c10::ScalarType::Undefined;
      if (type.kind == ArgKind::kTensorList) {
        // `Tensor(a!)[] out` (aten::_foreach_add.List_out, split_copy's):
        // as many tensors as the functional overload returns (ShapeOutArgs).
        if (a >= 0) {
          return bad(a, "a Tensor[] out= argument takes no value: each call gives it empty tensors "
                        "shaped like the functional overload's outputs");
        }
        if (b.out_list_ >= 0) return bad(-1, "ShRT supports one Tensor[] out= argument per overload");
        b.out_list_ = static_cast<int>(i);
      } else if (a >= 0) {
        if (!sample.arg(a).has_tensor()) return bad(a, "an out= argument takes a 'tensor' value");
        dtype = ToScalarType(sample.arg(a).tensor().dtype());
      }
      b.out_args_.emplace_back(static_cast<int>(i), dtype);
      b.args_.emplace_back();
      if (b.out_list_ >= 0 && b.out_args_.size() > 1) {
        return bad(-1, "ShRT supports a Tensor[] out= argument only as the overload's one out= argument");
      }
      continue;
    }
    if (a < 0) {
      if (!arg.default_value().has_value()) {
        return bad(-1, absl::StrCat("argument '", arg.name(), "' of ", OverloadToString(schema.operator_name()),
                                    " has no default and must be given"));
      }
      b.args_.push_back(*arg.default_value());
      b.strategy_args_.push_back({arg.name(), ToArgValue(*arg.default_value(), type.kind)});
      continue;
    }
    const Arg& given_arg = sample.arg(a);
    if (given_arg.value_case() == Arg::VALUE_NOT_SET) {
      return bad(a, absl::StrCat("argument '", arg.name(), "' has a name but no value"));
    }
    if (given_arg.value_case() == Arg::kNone) {
      if (!type.optional) return bad(a, absl::StrCat("argument '", arg.name(), "' is not optional"));
      b.args_.emplace_back();
      b.strategy_args_.push_back({arg.name(), std::monostate{}});
      continue;
    }
    if (!Accepts(type.kind, given_arg.value_case())) {
      return bad(a, absl::StrCat("argument '", arg.name(), "' has schema type ",
                                 arg.real_type()->str(), ", which a '",
                                 Arg::descriptor()->FindFieldByNumber(given_arg.value_case())->name(),
                                 "' value cannot give"));
    }
    if (IsSizeArgument(arg)) {
      const absl::Status st =
          given_arg.value_case() == Arg::kIntList
              ? CheckSizeList({given_arg.int_list().value().data(),
                               static_cast<size_t>(given_arg.int_list().value_size())})
              : CheckSize(given_arg.int_value());
      if (!st.ok()) return bad(a, absl::StrCat("argument '", arg.name(), "': ", st.message()));
    }
    switch (given_arg.value_case()) {
      case Arg::kTensor:
        if (absl::Status st = add_input(arg.name(), given_arg.tensor(), -1); !st.ok()) return st;
        b.args_.emplace_back();
        b.strategy_args_.push_back({arg.name(), MetaOf(b.inputs_.back().shape, b.inputs_.back().dtype)});
        break;
      case Arg::kTensors: {
        std::vector<TensorMeta> metas;
        for (int e = 0; e < given_arg.tensors().tensor_size(); ++e) {
          if (absl::Status st = add_input(absl::StrCat(arg.name(), "[", e, "]"),
                                          given_arg.tensors().tensor(e), e);
              !st.ok()) {
            return st;
          }
          metas.push_back(MetaOf(b.inputs_.back().shape, b.inputs_.back().dtype));
        }
        b.list_sizes_.back() = given_arg.tensors().tensor_size();
        b.args_.emplace_back();
        b.strategy_args_.push_back({arg.name(), std::move(metas)});
        break;
      }
      case Arg::kIntValue:
        if (type.kind == ArgKind::kIntList) {
          b.args_.emplace_back(std::vector<int64_t>{given_arg.int_value()});
        } else if (type.kind == ArgKind::kFloat) {
          b.args_.emplace_back(static_cast<double>(given_arg.int_value()));
        } else {
          b.args_.emplace_back(given_arg.int_value());
        }
        break;
      case Arg::kFloatValue: b.args_.emplace_back(given_arg.float_value()); break;
      case Arg::kBoolValue: b.args_.emplace_back(given_arg.bool_value()); break;
      case Arg::kIntList:
        b.args_.emplace_back(std::vector<int64_t>(given_arg.int_list().value().begin(),
                                                  given_arg.int_list().value().end()));
        break;
      case Arg::kBoolList: {
        c10::List<bool> values;
        for (bool v : given_arg.bool_list().value()) values.push_back(v);
        b.args_.emplace_back(std::move(values));
        break;
      }
      case Arg::kStrValue: b.args_.emplace_back(given_arg.str_value()); break;
      case Arg::kDtypeValue: b.args_.emplace_back(ToScalarType(given_arg.dtype_value())); break;
      default: return bad(a, "no value given");
    }
    if (given_arg.value_case() != Arg::kTensor && given_arg.value_case() != Arg::kTensors) {
      b.strategy_args_.push_back({arg.name(), ToArgValue(b.args_.back(), type.kind)});
    }
  }
  // In-place outputs: a Tensor return sharing its written alias set with a
  // Tensor input argument (`Tensor(a!) self -> Tensor(a!)`); a view's
  // `Tensor(a) self -> Tensor(a)` writes nothing and may change placement.
  for (const c10::Argument& ret : schema.returns()) {
    int alias = -1;
    const bool written = ret.alias_info() != nullptr && ret.alias_info()->isWrite();
    for (size_t k = 0; written && k < b.slots_.size(); ++k) {
      const c10::Argument& arg = schema.arguments()[b.slots_[k].arg];
      if (b.slots_[k].elem < 0 && arg.alias_info() != nullptr && !arg.is_out() &&
          *arg.alias_info() == *ret.alias_info()) {
        alias = static_cast<int>(k);
      }
    }
    b.output_aliases_.push_back(alias);
  }
  // An overload returning nothing: its outputs are the arguments it writes
  // (op_lookup.h), each element its own alias.
  b.written_args_ = WrittenArgumentsAsOutputs(schema);
  for (int a : b.written_args_) {
    for (size_t k = 0; k < b.slots_.size(); ++k) {
      if (b.slots_[k].arg == a) b.output_aliases_.push_back(static_cast<int>(k));
    }
  }
  if (const std::string& name = spec.proto().local_shape_arg(); !name.empty()) {
    auto bad_shape_arg = [&](absl::string_view what) {
      return FieldError(spec.WhereLocalShapeArg(), "local_shape_arg", what);
    };
    auto idx = schema.argumentIndexWithName(name);
    if (!idx.has_value() || Classify(schema.arguments()[*idx]).kind != ArgKind::kIntList) {
      return bad_shape_arg(absl::StrCat("'", name, "' is not an int[] argument of ",
                                        OverloadToString(schema.operator_name())));
    }
    if (WritesInputArgument(schema) || schema.returns().size() != 1 ||
        schema.returns()[0].type()->kind() != c10::TypeKind::TensorType) {
      return bad_shape_arg("needs an overload with one Tensor output that writes no input");
    }
    b.local_shape_index_ = static_cast<int>(*idx);
  }
  if (spec.group().out.has_value() && spec.op() == *spec.group().out) {
    b.functional_ = std::make_shared<const c10::OperatorHandle>(c10::Dispatcher::singleton().findSchemaOrThrow(
        spec.group().functional.name.c_str(), spec.group().functional.overload_name.c_str()));
    // An out= list has no length until the functional's outputs give one.
    if (b.out_list_ >= 0) b.shape_outs_ = ShapeOuts::kYes;
  }
  if (absl::Status st = b.CheckLimits(spec, input_arg, bad); !st.ok()) return st;
  return b;
}

absl::StatusOr<std::vector<ListElement>> BoundSample::ListElements(const LoadedSpec& spec,
                                                                   int s) const {
  std::vector<ListElement> out;
  int length = -1;
  for (size_t i = 0; i < list_sizes_.size(); ++i) {
    if (list_sizes_[i] < 0 || static_cast<int>(i) == out_list_) continue;
    if (length >= 0 && list_sizes_[i] != length) return out;
    length = list_sizes_[i];
  }
  if (length < 2) return out;
  for (int k = 0; k < length; ++k) {
    Sample cut = bound_;
    for (Arg& a : *cut.mutable_arg()) {
      if (!a.has_tensors()) continue;
      TensorArg element = a.tensors().tensor(k);
      a.mutable_tensors()->clear_tensor();
      *a.mutable_tensors()->add_tensor() = std::move(element);
    }
    absl::StatusOr<BoundSample> bound =
        Bind(spec, s, cut, where_, absl::StrCat(name_, " (list element ", k, ")"));
    if (!bound.ok()) return bound.status();
    ListElement e;
    for (size_t j = 0; j < bound->slots_.size(); ++j) {
      const Slot& slot = bound->slots_[j];
      const Slot whole{slot.arg, slot.elem < 0 ? -1 : k};
      const auto it = std::find_if(slots_.begin(), slots_.end(), [&](const Slot& x) {
        return x.arg == whole.arg && x.elem == whole.elem;
      });
      const int i = static_cast<int>(it - slots_.begin());
      bound->inputs_[j].label = inputs_[i].label;
      bound->inputs_[j].seed_index = inputs_[i].seed_index;
      e.inputs.push_back(i);
    }
    e.sample = std::make_unique<BoundSample>(*std::move(bound));
    out.push_back(std::move(e));
  }
  return out;
}

absl::Status BoundSample::CheckLimits(
    const LoadedSpec& spec, const std::vector<int>& input_arg,
    const std::function<absl::Status(int, absl::string_view)>& bad) const {
  int64_t elements = 0;
  std::vector<size_t> candidates;
  const GenContext context = MakeGenContext();
  for (size_t k = 0; k < inputs_.size(); ++k) {
    const InputSpec& in = inputs_[k];
    elements += NumElements(in.shape);  // each <= kMaxSampleElements: no overflow
    if (elements > kMaxSampleElements) {
      return bad(input_arg[k], absl::StrCat("the inputs up to '", in.label, "' hold ", elements,
                                            " elements together, more than the ",
                                            kMaxSampleElements,
                                            " a sample may hold (shrt/limits.h)"));
    }
    // FromText checked the recipes a spec names, not the implicit "default".
    absl::StatusOr<const Recipe*> recipe = spec.recipes().Find(in.recipe);
    if (!recipe.ok()) return bad(input_arg[k], recipe.status().message());
    candidates.push_back(
        InputCandidates(static_cast<int64_t>(in.shape.size()), in.dtype, IsIndexRecipe(**recipe))
            .size());
    if (absl::Status st =
            CheckRecipeFits(**recipe, in.shape, in.dtype, static_cast<int>(k), context);
        !st.ok()) {
      return bad(input_arg[k], absl::StrCat("input '", in.label, "': ", st.message()));
    }
  }
  if (const int64_t tuples = PlacementTuples(candidates); tuples > kMaxPlacementTuples) {
    return bad(-1, absl::StrCat("its ", inputs_.size(), " tensor inputs have more than ",
                                kMaxPlacementTuples,
                                " tuples of candidate placements, the most a sample may have "
                                "(shrt/limits.h): use fewer or smaller tensors"));
  }
  return absl::OkStatus();
}

std::string BoundSample::Describe() const {
  return absl::StrJoin(strategy_args_, ", ", [](std::string* out, const OpArg& a) {
    absl::StrAppend(out, a.name, "=", ValueText(a.value));
  });
}

std::vector<c10::IValue> BoundSample::Stack(const std::vector<at::Tensor>& inputs,
                                            const std::vector<int64_t>* local_shape) const {
  std::vector<c10::IValue> stack = args_;
  if (local_shape != nullptr) stack[local_shape_index_] = *local_shape;
  // Tensor[] arguments are assembled from their flattened elements.
  std::vector<std::vector<at::Tensor>> lists(args_.size());
  for (size_t k = 0; k < slots_.size(); ++k) {
    const Slot& slot = slots_[k];
    if (slot.elem < 0) {
      stack[slot.arg] = inputs[k];
    } else {
      lists[slot.arg].push_back(inputs[k]);
    }
  }
  for (size_t i = 0; i < args_.size(); ++i) {
    if (list_sizes_[i] < 0) continue;
    if (Classify(op_->schema().arguments()[i]).kind == ArgKind::kOptTensorList) {
      c10::List<c10::optional<at::Tensor>> l;
      for (const at::Tensor& x : lists[i]) l.push_back(x);
      stack[i] = l;
    } else {
      stack[i] = c10::List<at::Tensor>(lists[i]);
    }
  }
  if (!out_args_.empty()) {
    const std::vector<c10::ScalarType>& dtypes = OutDtypes(stack);
    for (size_t k = 0; k < out_args_.size(); ++k) {
      stack[out_args_[k].first] = out_args_[k].first == out_list_
                                      ? c10::IValue(c10::List<at::Tensor>())
                                      : c10::IValue(at::empty({0}, at::TensorOptions().dtype(dtypes[k])));
    }
  }
  return stack;
}

const std::vector<c10::ScalarType>& BoundSample::OutDtypes(
    const std::vector<c10::IValue>& stack) const {
  if (!out_dtypes_.empty()) return out_dtypes_;
  std::vector<c10::ScalarType> from_functional;
  const bool open = std::any_of(out_args_.begin(), out_args_.end(), [](const auto& o) {
    return o.second == c10::ScalarType::Undefined;
  });
  if (open && functional_ != nullptr) {
    // An error leaves the fallback below to the real call.
    absl::StatusOr<std::vector<at::Tensor>> outputs = CallFunctional(stack);
    if (outputs.ok()) {
      for (const at::Tensor& t : *outputs) from_functional.push_back(t.scalar_type());
    }
  }
  for (size_t k = 0; k < out_args_.size(); ++k) {
    c10::ScalarType dtype = out_args_[k].second;
    if (dtype == c10::ScalarType::Undefined && k < from_functional.size()) dtype = from_functional[k];
    if (dtype == c10::ScalarType::Undefined) {
      dtype = inputs_.empty() ? c10::ScalarType::Float : inputs_.front().dtype;
    }
    out_dtypes_.push_back(dtype);
  }
  return out_dtypes_;
}

absl::StatusOr<std::vector<at::Tensor>> BoundSample::Call(
    const std::vector<at::Tensor>& inputs) const {
  return CallStack(Stack(inputs));
}

absl::StatusOr<std::vector<at::Tensor>> BoundSample::Call(
    const std::vector<at::Tensor>& inputs, const std::vector<int64_t>& local_shape) const {
  return CallStack(Stack(inputs, &local_shape));
}

absl::StatusOr<std::vector<at::Tensor>> BoundSample::CallInFloat64(
    const std::vector<at::Tensor>& inputs) const {
  // The float64 (complex128) dtype of a less precise floating (complex)
  // tensor, or nullopt.
  auto wide = [](const at::Tensor& t) -> std::optional<c10::ScalarType> {
    if (!t.defined()) return std::nullopt;
    const c10::ScalarType s = t.scalar_type();
    if (at::isFloatingType(s) && s != at::kDouble) return at::kDouble;
    if (at::isComplexType(s) && s != at::kComplexDouble) return at::kComplexDouble;
    return std::nullopt;
  };
  std::vector<at::Tensor> widened;
  widened.reserve(inputs.size());
  for (const at::Tensor& t : inputs) {
    const std::optional<c10::ScalarType> to = wide(t);
    widened.push_back(to.has_value() ? t.to(*to) : t);
  }
  std::vector<c10::IValue> stack = Stack(widened);
  for (const auto& [index, dtype] : out_args_) {
    if (index == out_list_) continue;  // shaped from the (float64) functional's outputs
    if (const std::optional<c10::ScalarType> to = wide(stack[index].toTensor())) {
      stack[index] = at::empty({0}, at::TensorOptions().dtype(*to));
    }
  }
  return CallStack(std::move(stack));
}

absl::StatusOr<std::vector<at::Tensor>> BoundSample::CallStack(
    std::vector<c10::IValue> stack) const {
  if (out_args_.empty() || functional_ == nullptr || shape_outs_ == ShapeOuts::kNo) {
    return CallOnce(std::move(stack));
  }
  if (shape_outs_ == ShapeOuts::kYes) {
    if (absl::Status s = ShapeOutArgs(stack); !s.ok()) return s;
    return CallOnce(std::move(stack));
  }
  // The sample's first call decides: does the out= kernel give its outputs
  // the functional's shapes from empty out= tensors?
  std::vector<c10::IValue> shaped = stack;  // IValues share their tensors
  absl::StatusOr<std::vector<at::Tensor>> outputs = CallOnce(std::move(stack));
  if (IsCrash(outputs.status())) return outputs;
  if (!ShapeOutArgs(shaped).ok()) {
    shape_outs_ = ShapeOuts::kNo;  // the functional raises too: the out= call's result stands
    return outputs;
  }
  bool resized = outputs.ok();
  for (size_t k = 0; resized && k < out_args_.size() && k < outputs->size(); ++k) {
    resized = (*outputs)[k].sizes() == shaped[out_args_[k].first].toTensor().sizes();
  }
  shape_outs_ = resized ? ShapeOuts::kNo : ShapeOuts::kYes;
  return resized ? outputs : CallOnce(std::move(shaped));
}

absl::StatusOr<std::vector<at::Tensor>> BoundSample::CallFunctional(
    const std::vector<c10::IValue>& stack) const {
  // The functional overload takes the same arguments minus the out= ones
  // (op_group.h).
  std::vector<c10::IValue> call;
  for (size_t i = 0; i < stack.size(); ++i) {
    const bool is_out = std::any_of(out_args_.begin(), out_args_.end(),
                                    [&](const auto& o) { return o.first == static_cast<int>(i); });
    if (!is_out) call.push_back(stack[i]);
  }
  // Numbered like every call of an operator under test (isolation.h).
  if (absl::Status crash = BeginOperatorCall(); !crash.ok()) return crash;
  absl::Status raised;
  try {
    functional_->callBoxed(&call);
  } catch (const std::exception& e) {
    raised = absl::InternalError(e.what());
  }
  EndOperatorCall();
  if (!raised.ok()) return raised;
  std::vector<at::Tensor> results;
  for (const c10::IValue& v : call) {
    if (v.isTensor()) results.push_back(v.toTensor());
    if (v.isTensorList()) {
      for (const at::Tensor& t : v.toTensorVector()) results.push_back(t);
    }
    if (v.isTuple()) {
      for (const c10::IValue& e : v.toTupleRef().elements()) {
        if (e.isTensor()) results.push_back(e.toTensor());
      }
    }
  }
  return results;
}

absl::Status BoundSample::ShapeOutArgs(std::vector<c10::IValue>& stack) const {
  absl::StatusOr<std::vector<at::Tensor>> functional = CallFunctional(stack);
  if (!functional.ok()) return functional.status();
  const std::vector<at::Tensor>& results = *functional;
  if (out_list_ >= 0) {
    // The one out= argument, a list: one tensor per functional output.
    c10::List<at::Tensor> outs;
    for (const at::Tensor& r : results) outs.push_back(at::empty(r.sizes(), r.options()));
    stack[out_list_] = std::move(outs);
    return absl::OkStatus();
  }
  if (results.size() != out_args_.size()) {
    return absl::FailedPreconditionError(absl::StrCat("the functional overload returned ",
                                                      results.size(), " tensors for ",
                                                      out_args_.size(), " out= arguments"));
  }
  for (size_t k = 0; k < out_args_.size(); ++k) {
    const c10::IValue& out = stack[out_args_[k].first];
    if (!out.isTensor()) return absl::FailedPreconditionError("an out= argument is not a tensor");
    stack[out_args_[k].first] =
        at::empty(results[k].sizes(), at::TensorOptions().dtype(out.toTensor().scalar_type()));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<at::Tensor>> BoundSample::CallOnce(
    std::vector<c10::IValue> stack) const {
  // The out= tensors must outlive the call: libtorch 1.13's boxed wrapper of
  // a kernel returning `std::tuple<Tensor&, Tensor&>` (aten::max.dim_max,
  // aten::sort.values) drops the arguments before it pushes the returned
  // references, so with the stack as their only owner the results point at
  // freed tensors (seen as heap corruption; Python callers hold theirs).
  std::vector<c10::IValue> out_tensors;
  for (const auto& [index, dtype] : out_args_) out_tensors.push_back(stack[index]);
  // What an overload returning nothing writes: its outputs after the call.
  std::vector<c10::IValue> written;
  for (int index : written_args_) written.push_back(stack[index]);
  // A call known to crash (isolation.h) is not made again.
  if (absl::Status crash = BeginOperatorCall(); !crash.ok()) return crash;
  absl::Status raised;
  try {
    op_->callBoxed(&stack);
  } catch (const c10::Error& e) {
    raised = absl::InternalError(e.what_without_backtrace());
  } catch (const std::exception& e) {
    raised = absl::InternalError(e.what());
  }
  EndOperatorCall();
  if (!raised.ok()) return raised;
  std::vector<at::Tensor> outputs;
  std::function<absl::Status(const c10::IValue&)> flatten = [&](const c10::IValue& v) {
    if (v.isTensor()) {
      outputs.push_back(v.toTensor());
    } else if (v.isTensorList()) {
      for (const at::Tensor& t : v.toTensorVector()) outputs.push_back(t);
    } else if (v.isTuple()) {
      for (const c10::IValue& e : v.toTupleRef().elements()) {
        if (absl::Status s = flatten(e); !s.ok()) return s;
      }
    } else {
      return absl::UnimplementedError(
          absl::StrCat("the overload returned a ", v.tagKind(), "; only tensor returns are checked"));
    }
    return absl::OkStatus();
  };
  for (const c10::IValue& v : written_args_.empty() ? stack : written) {
    if (absl::Status s = flatten(v); !s.ok()) return s;
  }
  for (size_t k = 0; k < outputs.size(); ++k) {
    if (!outputs[k].defined()) {
      // An output an output_mask switched off: it has no value to place.
      return absl::UnimplementedError(absl::StrCat(
          "output ", k, " is an undefined tensor (an output_mask entry set to false?); "
          "ShRT checks defined outputs only"));
    }
  }
  return outputs;
}

GenContext BoundSample::MakeGenContext() const {
  GenContext ctx;
  ctx.shape_of = [this](absl::string_view name) -> std::optional<std::vector<int64_t>> {
    for (const OpArg& a : strategy_args_) {
      if (a.name != name) continue;
      if (const auto* m = std::get_if<TensorMeta>(&a.value)) return m->sizes;
    }
    return std::nullopt;
  };
  ctx.int_of = [this](absl::string_view name) -> std::optional<int64_t> {
    for (const OpArg& a : strategy_args_) {
      if (a.name != name) continue;
      if (const auto* i = std::get_if<int64_t>(&a.value)) return *i;
    }
    return std::nullopt;
  };
  return ctx;
}

OpArgs BoundSample::MakeOpArgs(const std::vector<at::Tensor>& outputs) const {
  std::vector<TensorMeta> in, out;
  for (const InputSpec& i : inputs_) in.push_back(MetaOf(i.shape, i.dtype));
  for (const at::Tensor& t : outputs) out.push_back(MetaOf(t));
  return OpArgs(strategy_args_, std::move(in), std::move(out));
}

}  // namespace shrt
