// The strategy registry: a plugin to PyTorch's operator registry that maps
// each overload (c10::OperatorName) to its single-dim strategy.
//
// Strategies register at static-initialisation time with
// SHRT_REGISTER_STRATEGY in the library of their own source file, so that a
// test depends only on its overload's strategy code (DESIGN.md §5). Because
// custom operators (TORCH_LIBRARY) may register with the dispatcher after
// our registrars run, registration only records the entry; Check() later
// validates every entry against the c10 dispatcher.
//
// Strategies are registered for functional overloads (or for overloads of a
// group of one, op_group.h); the in-place and out= variants of a functional
// overload with a strategy get theirs derived from it as DTensor derives
// them (variant_rules.h): an in-place variant keeps the rules whose outputs
// keep self's placement, an out= variant all of them.
// Registering a strategy for such a variant is a contract error (Check()).
//
// Tests build their own StrategyRegistry (e.g. for deliberately wrong
// strategies) instead of touching Global().
//
// Not thread-safe for Add(); Query() and the accessors may be called
// concurrently once registration is over.
#ifndef SHRT_STRATEGIES_REGISTRY_H_
#define SHRT_STRATEGIES_REGISTRY_H_

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "ATen/core/operator_name.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "shrt/ops/op_args.h"
#include "shrt/strategies/strategy.h"
#include "shrt/vocab/placement.h"

namespace shrt {

class StrategyRegistry {
 public:
  // The process-wide registry that SHRT_REGISTER_STRATEGY fills.
  static StrategyRegistry& Global();

  // Records `strategy` for `overload` ("aten::add.Tensor").
  // Errors: InvalidArgument for a malformed overload name; AlreadyExists if
  // the overload already has a strategy in this registry.
  absl::Status Add(absl::string_view overload, Strategy strategy);

  // Validates every entry against the c10 dispatcher: the overload must
  // exist with a schema and must not be the in-place or out= variant of a
  // functional overload that has a strategy here (its strategy is derived).
  // Errors: NotFound naming every unknown overload (with close matches) and
  // every such variant, plus any error a static registrar recorded.
  absl::Status Check() const;

  // True if `name` has a strategy here, registered or derived.
  bool Contains(const c10::OperatorName& name) const;

  // Every overload with a strategy, registered or derived, sorted by name.
  std::vector<c10::OperatorName> Overloads() const;

  // Runs the overload's strategy (registered, or derived from its
  // functional overload's as above) on `args` and returns its rules with
  // shard placeholders normalised (0 <= dim < ndim), in the strategy's
  // order. Errors: NotFound if the overload has no strategy;
  // FailedPrecondition if the strategy failed or broke the contract of
  // strategy.h (the message names the rule and what is wrong).
  absl::StatusOr<std::vector<Rule>> Query(const c10::OperatorName& name,
                                          const OpArgs& args) const;

  // Used by StrategyRegistrar for errors that static initialisation cannot
  // return; reported by Check().
  void RecordError(absl::Status status) { deferred_errors_.push_back(std::move(status)); }

 private:
  std::map<c10::OperatorName, Strategy, bool (*)(const c10::OperatorName&,
                                                 const c10::OperatorName&)>
      strategies_{&NameLess};
  std::vector<absl::Status> deferred_errors_;

  // The registered strategy of `name`, or of the functional overload it is
  // a variant of (with `*inplace` telling which), or nullptr. A variant's
  // functional is looked up in the dispatcher once (op_group.h scans every
  // schema) and remembered in derived_; Query() runs per sample.
  const Strategy* Find(const c10::OperatorName& name, bool* inplace) const;

  struct Derived {
    const Strategy* strategy;
    bool inplace;
  };
  mutable std::mutex derived_mu_;
  mutable std::map<c10::OperatorName, Derived,
                   bool (*)(const c10::OperatorName&, const c10::OperatorName&)>
      derived_{&NameLess};

  static bool NameLess(const c10::OperatorName& a, const c10::OperatorName& b);
};

// Registers a strategy with a registry from a static initialiser; errors are
// recorded for StrategyRegistry::Check() instead of aborting the process.
class StrategyRegistrar {
 public:
  StrategyRegistrar(const char* overload, Strategy strategy,
                    StrategyRegistry& registry = StrategyRegistry::Global());
};

}  // namespace shrt

// Registers `strategy` (a callable OpArgs -> absl::StatusOr<std::vector<Rule>>) for the
// overload named by the string literal `overload` in the global registry.
// The strategy's library must be linked with alwayslink = True.
#define SHRT_REGISTER_STRATEGY(overload, strategy) \
  SHRT_REGISTER_STRATEGY_IMPL(overload, strategy, __COUNTER__)
#define SHRT_REGISTER_STRATEGY_IMPL(overload, strategy, n) \
  SHRT_REGISTER_STRATEGY_IMPL2(overload, strategy, n)
#define SHRT_REGISTER_STRATEGY_IMPL2(overload, strategy, n) \
  static ::shrt::StrategyRegistrar shrt_strategy_registrar_##n(overload, strategy)

#endif  // SHRT_STRATEGIES_REGISTRY_H_
