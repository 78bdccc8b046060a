// A spec sample bound to its overload's schema: the IValues of one
// concrete call, with holes for the tensor inputs, callable through the c10
// dispatcher on any set of tensor inputs (the full tensors or one rank's
// locals).
#ifndef SHRT_ENGINE_SAMPLE_H_
#define SHRT_ENGINE_SAMPLE_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "shrt/engine/spec_loader.h"
#include "shrt/ops/op_args.h"
#include "shrt/spec/generators.h"

// Declared only: this header is included by most of the engine, and
// c10's dispatcher and IValue headers would cost each of those files ~2.5 s
// of compile time (BENCHMARKS.md "Issue 28, compiles"); sample.cc and the
// callers of Stack() and handle() include them.
namespace c10 {
class OperatorHandle;
struct IValue;
}  // namespace c10

namespace shrt {

// One tensor input of a sample, in rule order (Tensor[] elements flattened).
struct InputSpec {
  std::string label;  // "self", "tensors[1]"
  std::vector<int64_t> shape;
  c10::ScalarType dtype;
  std::string recipe;  // the input's override, else the spec's, else "default"
  Layout layout = CONTIGUOUS;
  // The input's number in the sample it was cut from: its own index, or,
  // in a list element (BoundSample::ListElements), the index of the same
  // tensor in the whole sample. Generators and Partial draws are seeded
  // with it, so an element's tensors and parts are the whole sample's.
  int seed_index = 0;
};

class BoundSample;

// One list element of a sample (BoundSample::ListElements).
struct ListElement {
  // The sample with every Tensor[] argument cut to this element, and every
  // float_list (Scalar[]) of the list's length to its value.
  std::unique_ptr<BoundSample> sample;
  // Per input of `sample`: the index of the same tensor in the whole
  // sample's inputs.
  std::vector<int> inputs;
};

// Defined by purpose: binding and its checks in sample.cc, the boxed stacks
// and out= shaping in sample_stack.cc, the calls in sample_call.cc, and
// ListElements in list_elements.cc; sample_schema.h reads the schema.
class BoundSample {
 public:
  // Copyable and movable; defined in sample.cc, where c10::IValue is whole.
  BoundSample(const BoundSample&);
  BoundSample(BoundSample&&) noexcept;
  BoundSample& operator=(const BoundSample&);
  BoundSample& operator=(BoundSample&&) noexcept;
  ~BoundSample();

  // Binds sample `s` of `spec` to the schema of spec.op(), one BoundSample
  // per combination of its sweeps (named "<name>[dim=0, keepdim=True]"), or
  // one named as the sample when it does not sweep. Every argument named in
  // the sample must exist in the schema and have a value of the schema's
  // type; omitted arguments take their defaults (an argument with no default
  // must be given); out= arguments take an empty tensor of the given dtype
  // (default: the first input's) at every call. Sizes are bounded before
  // anything is allocated (limits.h): each input's shape, the inputs'
  // elements together, every size argument (SymInt, SymInt[]) and the
  // sample's input placement tuples; and each input's recipe must fit it
  // (recipe_fit.h).
  // Errors: InvalidArgument "<path>:<line>: field 'sample[s].arg[a]' ..." (or
  // '.sweep[w]') naming the argument and what is wrong.
  static absl::StatusOr<std::vector<BoundSample>> BindAll(const LoadedSpec& spec, int s);

  // The list elements of this sample, bound from sample `s` of `spec` (as
  // given to BindAll): when its Tensor[] inputs all have one length L >= 2,
  // L samples, element k with every Tensor[] argument cut to its element k
  // and every other argument as it is; else none. Element k is named
  // "<name> (list element k)", and its inputs keep their labels ("self[1]")
  // and seeds (InputSpec::seed_index). Whether the overload's output k
  // depends on list element k alone is not decided here: the engine checks
  // it by calling both (list_elements.h). Errors: as BindAll.
  absl::StatusOr<std::vector<ListElement>> ListElements(const LoadedSpec& spec, int s) const;

  const std::string& name() const { return name_; }
  const std::vector<InputSpec>& inputs() const { return inputs_; }
  // True if the overload writes into one of its inputs: an argument its
  // schema marks as written other than out= (in-place, `Tensor(a!) self`),
  // or an input it was found writing with no such mark (MarkWritesInputs).
  // An out= variant's out= tensors are created afresh at every call and are
  // not inputs, so writing them is not mutating: its inputs are shared
  // between calls as a functional overload's are.
  bool mutates() const { return mutates_ || writes_unmarked_; }
  // Records that a call changed an input the schema does not mark as
  // written: libtorch 1.13's batch_norm, instance_norm and native_batch_norm
  // update running_mean and running_var in place with no `(a!)`. From then
  // on every call of the sample gets its own copies (ground_truth.h).
  void MarkWritesInputs() const { writes_unmarked_ = true; }
  // For each flattened output, the input (index into inputs()) that it is
  // written into in place (e.g. add_'s self), or -1. An in-place output
  // keeps its input's placement: a rule may not change it.
  const std::vector<int>& output_aliases() const { return output_aliases_; }
  // "self=Float[8, 16], other=Float[16], alpha=2".
  std::string Describe() const;

  // Calls the overload with `inputs` (one per InputSpec, in order) through
  // the dispatcher's boxed path and returns its tensor outputs flattened
  // (Tensor[] and tuples unpacked). In-place overloads mutate their inputs:
  // pass tensors this call may own. Errors: Internal with the operator's
  // exception text (c10::Error without backtrace) when it throws;
  // Unimplemented for a non-tensor return.
  absl::StatusOr<std::vector<at::Tensor>> Call(const std::vector<at::Tensor>& inputs) const;
  // The same with the spec's local_shape_arg set to `local_shape` (one
  // rank's output shape). Requires has_local_shape().
  absl::StatusOr<std::vector<at::Tensor>> Call(const std::vector<at::Tensor>& inputs,
                                               const std::vector<int64_t>& local_shape) const;
  // The float64 reference of a call (DESIGN.md §3, output_check.h
  // RoundingReference): Call(inputs) with every floating input and out=
  // tensor of less than float64 precision in float64 (dtype arguments such
  // as sum's `dtype` are kept). Errors: as Call(), e.g. for an overload
  // without a float64 kernel.
  absl::StatusOr<std::vector<at::Tensor>> CallInFloat64(const std::vector<at::Tensor>& inputs) const;
  // True if the spec names a local_shape_arg: every rank's call must then
  // get its own output shape (spec.proto OpSpec.local_shape_arg).
  bool has_local_shape() const { return local_shape_index_ >= 0; }

  // The boxed stack Call() passes to the dispatcher for `inputs` (fresh out=
  // tensors included), and the operator: for replaying the bare calls
  // (the throughput floor, tools/bench).
  std::vector<c10::IValue> Stack(const std::vector<at::Tensor>& inputs,
                                 const std::vector<int64_t>* local_shape = nullptr) const;
  const c10::OperatorHandle& handle() const;

  // The metadata a strategy sees for this sample, with `outputs` being the
  // outputs of a call on the full inputs.
  OpArgs MakeOpArgs(const std::vector<at::Tensor>& outputs) const;

  // What generators may read of this sample: tensor argument shapes and
  // int argument values, by schema name.
  GenContext MakeGenContext() const;

 private:
  BoundSample() = default;
  // Binds one expansion: `sample` is the spec's sample with swept values
  // appended as args; where[a] locates arg a for errors.
  static absl::StatusOr<BoundSample> Bind(const LoadedSpec& spec, int s, const Sample& sample,
                                          const std::vector<std::string>& where,
                                          std::string name);
  // The checks of a whole bound sample (DESIGN.md §10): its inputs hold at
  // most kMaxSampleElements together and have at most kMaxPlacementTuples
  // tuples of candidate placements (limits.h), and each input's recipe
  // fits it (recipe_fit.h: values finite in its dtype, indices inside what
  // they index). `input_arg[k]` is the proto arg (or sweep) of input k;
  // `bad(arg, what)` builds the error, as in Bind.
  absl::Status CheckLimits(const LoadedSpec& spec, const std::vector<int>& input_arg,
                           const std::function<absl::Status(int, absl::string_view)>& bad) const;
  // The dtype of each out= argument for a call on `stack` (out= holes
  // unset): the sample's, else functional_'s output dtype, else the first
  // input's.
  const std::vector<c10::ScalarType>& OutDtypes(const std::vector<c10::IValue>& stack) const;
  // Calls the overload on `stack` (from Stack()); see Call(). An out=
  // variant gets empty out= tensors, which its kernel resizes; when, on the
  // sample's first call, it raises on them or leaves them another shape
  // than its functional overload's outputs, every call of the sample gives
  // it out= tensors of those shapes instead (ShapeOutArgs): libtorch 1.13's
  // generated out= kernels of the view copies (view_copy.out, ...) and
  // binary_cross_entropy(_backward) do not resize an empty out=, and DTensor
  // hands an out= variant a local tensor of the local result's shape anyway.
  absl::StatusOr<std::vector<at::Tensor>> CallStack(std::vector<c10::IValue> stack) const;
  // One call of the overload on `stack`, its outputs flattened.
  absl::StatusOr<std::vector<at::Tensor>> CallOnce(std::vector<c10::IValue> stack) const;
  // Calls functional_ (set) on the arguments of `stack` other than the out=
  // ones, as an operator call numbered like the others (isolation.h), and
  // returns its tensor outputs, tuples and lists flattened. Errors: the call's
  // (Internal), or the crash status of a call known to crash.
  absl::StatusOr<std::vector<at::Tensor>> CallFunctional(const std::vector<c10::IValue>& stack) const;
  // Replaces the out= tensors of `stack` by empty tensors (of their dtypes)
  // shaped like functional_'s outputs for the other arguments
  // (CallFunctional); a Tensor[] out= argument (out_list_) gets one tensor
  // per output, of its shape and dtype. Errors: CallFunctional's, or
  // FailedPrecondition when it returns another number of tensors than
  // there are out= tensors.
  absl::Status ShapeOutArgs(std::vector<c10::IValue>& stack) const;
  struct Slot {
    int arg;   // schema argument index
    int elem;  // element of a Tensor[] argument, or -1
  };
  std::string name_;
  // The expansion this sample was bound from, and where each of its args
  // is written (Bind's `sample` and `where`), for ListElements.
  Sample bound_;
  std::vector<std::string> where_;
  std::shared_ptr<const c10::OperatorHandle> op_;
  std::vector<c10::IValue> args_;                 // schema order; tensors are holes
  std::vector<int> list_sizes_;                   // per arg: Tensor[] length, or -1
  std::vector<Slot> slots_;                       // per input, where it goes
  // out= arguments: schema index and dtype (Undefined: as functional_'s
  // output, see OutDtypes()).
  std::vector<std::pair<int, c10::ScalarType>> out_args_;
  // Schema index of a `Tensor(a!)[]` out= argument (then the only one), or
  // -1: every call gives it one empty tensor per functional output, of that
  // output's shape and dtype (ShapeOutArgs).
  int out_list_ = -1;
  // For the out= variant of an op group: its functional overload, whose
  // outputs' dtypes the out= tensors take when the sample names none (the
  // dtype out= must have to be written without a cast), resolved once.
  std::shared_ptr<const c10::OperatorHandle> functional_;  // or null
  mutable std::vector<c10::ScalarType> out_dtypes_;
  // Whether calls shape the out= tensors (CallStack); decided on the first.
  enum class ShapeOuts { kUndecided, kNo, kYes };
  mutable ShapeOuts shape_outs_ = ShapeOuts::kUndecided;
  std::vector<OpArg> strategy_args_;              // non-out args, tensors as metas
  std::vector<InputSpec> inputs_;
  std::vector<int> output_aliases_;
  // The written arguments that are the outputs of an overload returning
  // nothing (op_lookup.h WrittenArgumentsAsOutputs), by schema index.
  std::vector<int> written_args_;
  bool mutates_ = false;
  mutable bool writes_unmarked_ = false;
  int local_shape_index_ = -1;  // schema index of the spec's local_shape_arg
};

}  // namespace shrt

#endif  // SHRT_ENGINE_SAMPLE_H_
