// Spec trees: the folder layout of a tree of op specs (op_specs/ and its
// kind), and loading every spec of a tree, or one spec file with the specs
// it takes samples from (spec.proto OpSpec.samples_from), in dependency
// order. One spec is parsed and
// checked by LoadedSpec (spec_loader.h).
#ifndef SHRT_ENGINE_SPEC_TREE_H_
#define SHRT_ENGINE_SPEC_TREE_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "shrt/engine/spec_loader.h"
#include "shrt/spec/recipes.h"

namespace shrt {

// The layout of a spec tree: <root>/<family>/*.textproto are specs,
// <root>/recipes/*.textproto recipes, <root>/xfails.textproto the
// xfails, <root>/exemptions.textproto the strategies without a spec and
// <root>/not_checkable.textproto the overloads that cannot be checked
// (shrt/report/checkability.h).
inline constexpr absl::string_view kRecipeDir = "recipes";
inline constexpr absl::string_view kXfailFile = "xfails.textproto";
inline constexpr absl::string_view kExemptionFile = "exemptions.textproto";
inline constexpr absl::string_view kNotCheckableFile = "not_checkable.textproto";

// <spec_dir>/recipes: where a spec tree keeps its recipes, and the recipe
// directory of the CLI unless --recipe_dir names another.
std::string DefaultRecipeDir(const std::string& spec_dir);

// Loads every "*.textproto" below `root`
// (recursively, following symlinked folders, each folder once however
// often links reach it) except those in `recipe_dir` and in
// DefaultRecipeDir(root), kXfailFile, kExemptionFile and kNotCheckableFile, with the recipes
// in `recipe_dir`, and returns one
// LoadedSpec per checked overload of every group, its aliases' groups
// included (ForOverload), sorted by file path, then group order. Every sample of every overload is bound
// (sample.h) before this returns, so a bad sample is reported at load.
// Errors: NotFound if a directory cannot be listed, or a link in the tree
// cannot be followed (dangling, or a loop of links); InvalidArgument
// "<path>:<line>: field 'op': ..." for a spec file not named after its op
// (TestTargetName + ".textproto", as codegen/naming.py), for a
// samples_from entry that no spec of the tree has, and "<path>:<line>:
// field 'samples_from': a cycle: aten::a -> aten::b -> aten::a" for specs
// that take samples from themselves through others; otherwise the first error
// RecipeSet::FromDir, LoadedSpec::FromFile or BoundSample::BindAll
// reports.
absl::StatusOr<std::vector<LoadedSpec>> LoadSpecTree(const std::string& root,
                                                     const std::string& recipe_dir);

// `specs` by canonical overload text ("aten::add.Tensor"): the one lookup
// of an overload's spec (validate --op, discover --op). Errors:
// InvalidArgument "<path>:<line>: field 'op': aten::x already has a spec in
// <other path>" when two specs check one overload (the line of its `op`,
// or of its `alias` entry).
absl::StatusOr<std::map<std::string, const LoadedSpec*>> SpecsByOverload(
    const std::vector<LoadedSpec>& specs);

// Loads the spec file `path` (with the specs below `root` it takes samples
// from, directly or through others) and
// returns one LoadedSpec per checked overload of its groups, every sample
// bound. Errors: as LoadSpecTree.
absl::StatusOr<std::vector<LoadedSpec>> LoadSpecFile(const std::string& path,
                                                     std::shared_ptr<const RecipeSet> recipes,
                                                     const std::string& root);

}  // namespace shrt

#endif  // SHRT_ENGINE_SPEC_TREE_H_
