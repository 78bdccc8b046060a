#include "shrt/engine/sample.h"

#include <algorithm>

#include "ATen/core/dispatch/Dispatcher.h"
#include "ATen/core/ivalue.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "shrt/engine/isolation.h"
#include "shrt/engine/sample_schema.h"
#include "shrt/spec/aten_functions.h"

// A bound sample's boxed stacks: its arguments with the tensor holes
// filled, fresh out= tensors of the right dtypes, and, for the out=
// variants whose kernels need it, out= tensors shaped like the functional
// overload's outputs (sample.h CallStack).

namespace shrt {

using sample_internal::ArgKind;
using sample_internal::Classify;

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
                                      : c10::IValue(Empty({0}, at::TensorOptions().dtype(dtypes[k])));
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
    for (const at::Tensor& r : results) outs.push_back(Empty(r.sizes(), r.options()));
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
        Empty(results[k].sizes(), at::TensorOptions().dtype(out.toTensor().scalar_type()));
  }
  return absl::OkStatus();
}

}  // namespace shrt
