// The argument metadata a strategy sees: what DTensor's OpSchema gives a
// single-dim strategy (tensor shapes, strides and dtypes; non-tensor
// arguments as values), without any tensor data and without ATen headers,
// so that strategy sources compile in well under a second.
#ifndef SHRT_OPS_OP_ARGS_H_
#define SHRT_OPS_OP_ARGS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "absl/strings/string_view.h"
#include "c10/core/ScalarType.h"

namespace shrt {

// Metadata of one tensor: sizes and strides in elements, and its dtype.
struct TensorMeta {
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  c10::ScalarType dtype = c10::ScalarType::Float;

  int64_t ndim() const { return static_cast<int64_t>(sizes.size()); }
};

// The value of one schema argument. None (std::monostate) stands for an
// absent optional; Scalar arguments arrive as int64_t, double or bool,
// whichever the sample gave; ScalarType arguments as c10::ScalarType;
// bool[] arguments (output_mask) as std::vector<bool>.
using ArgValue = std::variant<std::monostate, bool, int64_t, double, std::string,
                              std::vector<int64_t>, c10::ScalarType, TensorMeta,
                              std::vector<TensorMeta>, std::vector<bool>, std::vector<double>>;

// One argument, named as in the operator's schema.
struct OpArg {
  std::string name;
  ArgValue value;
};

// All arguments of one sample in schema order, plus the flattened tensor
// inputs and outputs that rules index into. Built by the validator from a
// sample; strategies only read it.
class OpArgs {
 public:
  OpArgs(std::vector<OpArg> args, std::vector<TensorMeta> inputs, std::vector<TensorMeta> outputs)
      : args_(std::move(args)), inputs_(std::move(inputs)), outputs_(std::move(outputs)) {}

  // Every schema argument, in schema order (out= arguments excluded).
  const std::vector<OpArg>& args() const { return args_; }
  // The tensor inputs in rule order: Tensor and present Tensor? arguments,
  // and each element of a Tensor[] argument, in schema order.
  const std::vector<TensorMeta>& inputs() const { return inputs_; }
  // The tensor outputs in rule order (returns flattened), with the shapes
  // the operator produces on the full inputs (DTensor obtains the same from
  // shape propagation).
  const std::vector<TensorMeta>& outputs() const { return outputs_; }

  // The named argument's value, or nullptr if the schema has no such name.
  const ArgValue* Find(absl::string_view name) const;
  // Typed accessors: nullopt when the argument is absent, None, or of
  // another type. GetDouble also converts int64_t and bool; GetInt converts
  // bool; GetIntList turns a single int into a one-element list.
  std::optional<int64_t> GetInt(absl::string_view name) const;
  std::optional<double> GetDouble(absl::string_view name) const;
  std::optional<bool> GetBool(absl::string_view name) const;
  std::optional<std::vector<int64_t>> GetIntList(absl::string_view name) const;
  std::optional<std::vector<bool>> GetBoolList(absl::string_view name) const;

 private:
  std::vector<OpArg> args_;
  std::vector<TensorMeta> inputs_;
  std::vector<TensorMeta> outputs_;
};

// Human-readable summary of a tensor for reports: "Float[8, 16]".
std::string TensorMetaToString(const TensorMeta& meta);

}  // namespace shrt

#endif  // SHRT_OPS_OP_ARGS_H_
