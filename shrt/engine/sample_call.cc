#include "shrt/engine/sample.h"

#include <functional>
#include <optional>

#include "ATen/core/dispatch/Dispatcher.h"
#include "ATen/core/ivalue.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "c10/util/Exception.h"
#include "shrt/engine/isolation.h"
#include "shrt/spec/aten_functions.h"

// Calling a bound sample's overload through the c10 dispatcher's boxed
// path: the plain call, the call with a rank's output shape, the float64
// reference call, and the out= variants' first-call decision (CallStack).

namespace shrt {

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
      stack[index] = Empty({0}, at::TensorOptions().dtype(*to));
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

}  // namespace shrt
