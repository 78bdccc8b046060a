#include "shrt/engine/sample.h"

#include <algorithm>

#include "ATen/core/dispatch/Dispatcher.h"
#include "ATen/core/ivalue.h"
#include "ATen/core/jit_type.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "shrt/engine/cases.h"
#include "shrt/engine/sample_schema.h"
#include "shrt/engine/torch_runtime.h"
#include "shrt/ops/op_lookup.h"
#include "shrt/ops/overload_name.h"
#include "shrt/spec/recipe_fit.h"
#include "shrt/spec/recipes.h"
#include "shrt/vocab/limits.h"

// Binding: a spec sample (and its sweeps) to its overload's schema, with
// the checks of a whole sample; the calls are in sample_call.cc, the
// boxed stacks and out= shaping in sample_stack.cc.

namespace shrt {

using sample_internal::Accepts;
using sample_internal::ArgKind;
using sample_internal::ArgType;
using sample_internal::Classify;
using sample_internal::IsSizeArgument;
using sample_internal::MetaOf;
using sample_internal::ToArgValue;
using sample_internal::ToScalarType;
using sample_internal::ValueText;
using sample_internal::WritesInputArgument;

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
  // The recipe of an input that names none: its argument's arg_recipe,
  // else the spec's recipe, else "default" (spec.proto OpSpec.arg_recipe).
  const std::string spec_recipe =
      spec.proto().recipe().empty() ? std::string(kDefaultRecipe) : spec.proto().recipe();
  absl::flat_hash_map<std::string, std::string> arg_recipes;
  for (int r = 0; r < spec.proto().arg_recipe_size(); ++r) {
    const ArgRecipe& entry = spec.proto().arg_recipe(r);
    auto idx = schema.argumentIndexWithName(entry.arg());
    const ArgKind kind = idx.has_value() ? Classify(schema.arguments()[*idx]).kind : ArgKind::kOther;
    if (kind != ArgKind::kTensor && kind != ArgKind::kTensorList && kind != ArgKind::kOptTensorList) {
      return FieldError(spec.WhereArgRecipe(r), absl::StrCat("arg_recipe[", r, "].arg"),
                        absl::StrCat("'", entry.arg(), "' is not a tensor argument of ",
                                     OverloadToString(schema.operator_name())));
    }
    arg_recipes[entry.arg()] = entry.recipe();
  }
  auto default_recipe_of = [&](const std::string& arg) -> const std::string& {
    auto it = arg_recipes.find(arg);
    return it == arg_recipes.end() ? spec_recipe : it->second;
  };

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
                           t.recipe().empty() ? default_recipe_of(arg.name()) : t.recipe(), t.layout(),
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
        if (type.kind == ArgKind::kScalarList) {
          std::vector<c10::Scalar> values(given_arg.int_list().value().begin(),
                                          given_arg.int_list().value().end());
          b.args_.emplace_back(c10::IValue(values));
        } else {
          b.args_.emplace_back(std::vector<int64_t>(given_arg.int_list().value().begin(),
                                                    given_arg.int_list().value().end()));
        }
        break;
      case Arg::kFloatList: {
        std::vector<c10::Scalar> values(given_arg.float_list().value().begin(),
                                        given_arg.float_list().value().end());
        b.args_.emplace_back(c10::IValue(values));
        break;
      }
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
                                            " a sample may hold (shrt/vocab/limits.h)"));
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
                                "(shrt/vocab/limits.h): use fewer or smaller tensors"));
  }
  return absl::OkStatus();
}

std::string BoundSample::Describe() const {
  return absl::StrJoin(strategy_args_, ", ", [](std::string* out, const OpArg& a) {
    absl::StrAppend(out, a.name, "=", ValueText(a.value));
  });
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
