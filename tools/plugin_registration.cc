#include "tools/plugin_registration.h"

#include <atomic>
#include <exception>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "shrt/ops/op_args.h"
#include "shrt/strategies/registry.h"
#include "shrt/vocab/placement.h"

namespace shrt {
namespace {

std::atomic<int> registrations{0};

// plugin::Args over one sample's OpArgs.
class ArgsView final : public plugin::Args {
 public:
  explicit ArgsView(const OpArgs& args) : args_(args) {}

  int num_inputs() const override { return static_cast<int>(args_.inputs().size()); }
  int num_outputs() const override { return static_cast<int>(args_.outputs().size()); }
  std::vector<int64_t> input_sizes(int i) const override { return SizesOf(args_.inputs(), i); }
  std::vector<int64_t> output_sizes(int i) const override { return SizesOf(args_.outputs(), i); }
  std::optional<int64_t> GetInt(const std::string& name) const override {
    return args_.GetInt(name);
  }
  std::optional<double> GetDouble(const std::string& name) const override {
    return args_.GetDouble(name);
  }
  std::optional<bool> GetBool(const std::string& name) const override {
    return args_.GetBool(name);
  }
  std::optional<std::vector<int64_t>> GetIntList(const std::string& name) const override {
    return args_.GetIntList(name);
  }

 private:
  static std::vector<int64_t> SizesOf(const std::vector<TensorMeta>& tensors, int i) {
    if (i < 0 || i >= static_cast<int>(tensors.size())) return {};
    return tensors[i].sizes;
  }

  const OpArgs& args_;
};

}  // namespace

int PluginRegistrations() { return registrations.load(); }

Strategy FromPlugin(plugin::Strategy strategy) {
  return [strategy](const OpArgs& args) -> absl::StatusOr<std::vector<Rule>> {
    std::vector<std::string> texts;
    try {
      texts = strategy(ArgsView(args));
    } catch (const std::exception& e) {
      return absl::InvalidArgumentError(absl::StrCat("the strategy threw: ", e.what()));
    } catch (...) {
      return absl::InvalidArgumentError("the strategy threw a non-standard exception");
    }
    std::vector<Rule> rules;
    for (const std::string& text : texts) {
      absl::StatusOr<Rule> rule = ParseRule(text);
      if (!rule.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat("rule '", text, "': ", rule.status().message()));
      }
      rules.push_back(*std::move(rule));
    }
    return rules;
  };
}

}  // namespace shrt

extern "C" void shrt_plugin_register_strategy_v1(const char* overload,
                                                 shrt::plugin::Strategy strategy) {
  ++shrt::registrations;
  shrt::StrategyRegistry& registry = shrt::StrategyRegistry::Global();
  if (overload == nullptr || strategy == nullptr) {
    registry.RecordError(
        absl::InvalidArgumentError("a loaded library registered a null overload name or strategy"));
    return;
  }
  if (absl::Status s = registry.Add(overload, shrt::FromPlugin(strategy)); !s.ok()) {
    registry.RecordError(s);
  }
}
