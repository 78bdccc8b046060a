#include "shrt/fuzz/repo_data.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "shrt/engine/sample.h"
#include "shrt/engine/spec_tree.h"
#include "shrt/ops/overload_name.h"
#include "shrt/spec/aten_functions.h"

namespace shrt::fuzz {
namespace {

constexpr char kRecipeDir[] = "op_specs/recipes";
constexpr const char* kSpecDirs[] = {"op_specs", "tables/specs"};

template <typename T>
T OrDie(absl::StatusOr<T> value) {
  if (!value.ok()) {
    std::fprintf(stderr, "fuzz target: cannot load the repository's data (run from the runfiles): %s\n",
                 value.status().ToString().c_str());
    std::abort();
  }
  return *std::move(value);
}

// Every spec of kSpecDirs, by canonical overload.
const std::map<std::string, LoadedSpec>& RepoSpecs() {
  static const auto* specs = [] {
    auto* out = new std::map<std::string, LoadedSpec>;
    for (const char* dir : kSpecDirs) {
      for (LoadedSpec& spec : OrDie(LoadSpecTree(dir, kRecipeDir))) {
        out->emplace(OverloadToString(spec.op()), std::move(spec));
      }
    }
    return out;
  }();
  return *specs;
}

std::optional<OpArgs> ArgsOfFirstSample(const LoadedSpec& spec) {
  absl::StatusOr<std::vector<BoundSample>> bound = BoundSample::BindAll(spec, 0);
  if (!bound.ok() || bound->empty()) return std::nullopt;
  const BoundSample& sample = bound->front();
  std::vector<at::Tensor> inputs;
  for (const InputSpec& in : sample.inputs()) {
    inputs.push_back(Zeros(in.shape, at::TensorOptions().dtype(in.dtype)));
  }
  absl::StatusOr<std::vector<at::Tensor>> outputs = sample.Call(inputs);
  if (!outputs.ok()) return std::nullopt;
  return sample.MakeOpArgs(*outputs);
}

}  // namespace

std::shared_ptr<const RecipeSet> RepoRecipes() {
  static const auto* recipes =
      new std::shared_ptr<const RecipeSet>(std::make_shared<RecipeSet>(OrDie(RecipeSet::FromDir(kRecipeDir))));
  return *recipes;
}

const OpArgs* RepoSampleArgs(const c10::OperatorName& op) {
  static auto* cache = new std::map<std::string, std::optional<OpArgs>>;
  const std::string name = OverloadToString(op);
  auto it = cache->find(name);
  if (it == cache->end()) {
    const auto& specs = RepoSpecs();
    auto spec = specs.find(name);
    it = cache->emplace(name, spec == specs.end() ? std::nullopt : ArgsOfFirstSample(spec->second)).first;
  }
  return it->second ? &*it->second : nullptr;
}

}  // namespace shrt::fuzz
