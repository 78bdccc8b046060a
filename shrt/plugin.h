// The public API of ShRT for custom-op libraries loaded at run time:
//
//   shrt validate --load=libmyops.so --spec=myops.textproto
//
// A custom-op author builds a shared library anywhere (setuptools'
// torch.utils.cpp_extension, CMake, plain g++) against the installed
// libtorch and this one header; nothing of ShRT is linked into it and
// nothing of it is built by Bazel. The library registers its operators with
// TORCH_LIBRARY, as usual, and their single-dim strategies (DESIGN.md §1)
// with SHRT_PLUGIN_STRATEGY:
//
//   #include "shrt/plugin.h"
//
//   // myops::scaled_mul(Tensor self, Tensor other, float scale) -> Tensor,
//   // for inputs of one shape.
//   std::vector<std::string> ScaledMulStrategy(const shrt::plugin::Args& args) {
//     using namespace shrt::plugin;
//     std::vector<std::string> rules = {Rule({P(), R()}, {P()}), Rule({R(), P()}, {P()})};
//     for (int64_t d = 0; d < args.input_ndim(0); ++d) {
//       rules.push_back(Rule({S(d), S(d)}, {S(d)}));
//     }
//     return rules;
//   }
//   SHRT_PLUGIN_STRATEGY("myops::scaled_mul", ScaledMulStrategy);
//
// A strategy returns rules as text in the notation of reports and specs
// (shrt/vocab/placement.h): "S(0), R -> S(0)", one placement per flattened tensor
// input, "->", one per output. The strategy contract is the one of every
// ShRT strategy (shrt/strategies/strategy.h): Shard dims may be negative (counted from
// the end), the all-Replicate rule is implicit, no rule twice. A rule that
// does not parse or breaks the contract is reported as the overload's error
// when the strategy is queried, naming the rule; an exception the strategy
// throws is reported the same way.
//
// The library also loads where ShRT is absent (torch.ops.load_library in a
// training job): the registration function is a weak symbol, and
// SHRT_PLUGIN_STRATEGY does nothing when no shrt binary defines it.
//
// This header needs only the C++17 standard library. Strategies register
// for functional overloads; in-place and out= variants derive theirs
// (shrt/strategies/registry.h).
#ifndef SHRT_PLUGIN_H_
#define SHRT_PLUGIN_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace shrt {
namespace plugin {

// What a strategy sees of one sample: the metadata of the operator's
// arguments, as a DTensor strategy sees an OpSchema (no tensor data).
// Implemented by the shrt binary; valid only during the strategy call.
class Args {
 public:
  // The flattened tensor inputs, in rule order: Tensor and present Tensor?
  // arguments, and each element of a Tensor[] argument, in schema order.
  virtual int num_inputs() const = 0;
  // The tensor outputs in rule order (tuple returns flattened).
  virtual int num_outputs() const = 0;
  // Sizes, in elements per dim, of tensor input / output `i`
  // (0 <= i < num_inputs() / num_outputs(); empty for other `i`). Output
  // sizes are those the operator produces on the full inputs.
  virtual std::vector<int64_t> input_sizes(int i) const = 0;
  virtual std::vector<int64_t> output_sizes(int i) const = 0;
  // The non-tensor argument named `name` in the schema: nullopt when the
  // schema has no such argument, it is None, or of another type. GetDouble
  // also converts int and bool arguments; GetIntList turns an int into a
  // one-element list.
  virtual std::optional<int64_t> GetInt(const std::string& name) const = 0;
  virtual std::optional<double> GetDouble(const std::string& name) const = 0;
  virtual std::optional<bool> GetBool(const std::string& name) const = 0;
  virtual std::optional<std::vector<int64_t>> GetIntList(const std::string& name) const = 0;

  // The rank (number of dims) of tensor input / output `i`.
  int64_t input_ndim(int i) const { return static_cast<int64_t>(input_sizes(i).size()); }
  int64_t output_ndim(int i) const { return static_cast<int64_t>(output_sizes(i).size()); }

 protected:
  ~Args() = default;
};

// A single-dim strategy: the rules under which every rank can run the
// operator on its local tensors with no communication.
using Strategy = std::vector<std::string> (*)(const Args& args);

// Rule builders: placement text as shrt/vocab/placement.h writes it.
// Replicate: "R".
inline std::string R() { return "R"; }
// Shard along `dim` (negative counts from the end): "S(0)".
inline std::string S(int64_t dim) { return "S(" + std::to_string(dim) + ")"; }
// Partial with reduction "sum", "avg", "max" or "min": "P(sum)".
inline std::string P(const std::string& reduce = "sum") { return "P(" + reduce + ")"; }
// A rule: "S(0), R -> S(0)".
inline std::string Rule(const std::vector<std::string>& inputs,
                        const std::vector<std::string>& outputs) {
  std::string text;
  for (size_t i = 0; i < inputs.size(); ++i) text += (i ? ", " : "") + inputs[i];
  text += " -> ";
  for (size_t i = 0; i < outputs.size(); ++i) text += (i ? ", " : "") + outputs[i];
  return text;
}

}  // namespace plugin
}  // namespace shrt

// Defined by the shrt binary (tools/plugin_registration.cc), which exports
// it to the libraries it loads; weak, so that a library including this
// header also loads without ShRT. Records `strategy` for `overload`
// ("myops::scaled_mul", or "myops::scaled_mul.overload") in ShRT's
// registry; errors (malformed or duplicate overload, unknown to the
// dispatcher) are reported by shrt when it checks the registry, never here.
// The _v1 suffix is the API version: a library built against another
// version of this header registers nothing, which shrt reports.
extern "C" __attribute__((weak)) void shrt_plugin_register_strategy_v1(
    const char* overload, shrt::plugin::Strategy strategy);

// Registers `strategy` (a shrt::plugin::Strategy) for the overload named by
// the string literal `overload` when the library is loaded.
#define SHRT_PLUGIN_STRATEGY(overload, strategy) \
  SHRT_PLUGIN_STRATEGY_IMPL(overload, strategy, __COUNTER__)
#define SHRT_PLUGIN_STRATEGY_IMPL(overload, strategy, n) \
  SHRT_PLUGIN_STRATEGY_IMPL2(overload, strategy, n)
#define SHRT_PLUGIN_STRATEGY_IMPL2(overload, strategy, n)                         \
  [[maybe_unused]] static const bool shrt_plugin_strategy_##n =                   \
      (shrt_plugin_register_strategy_v1 != nullptr                                \
           ? (shrt_plugin_register_strategy_v1(overload, strategy), true) \
           : false)

#endif  // SHRT_PLUGIN_H_
