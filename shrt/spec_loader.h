// Loading op specs (spec.proto) from protobuf text files, with errors that
// name the file, line and field.
#ifndef SHRT_SPEC_LOADER_H_
#define SHRT_SPEC_LOADER_H_

#include <memory>
#include <string>
#include <vector>

#include "ATen/core/operator_name.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "shrt/recipes.h"
#include "shrt/spec.pb.h"
#include "shrt/text_proto.h"

namespace shrt {

// A parsed, checked spec, the recipes it may use, and where each of its
// fields came from.
class LoadedSpec {
 public:
  // Parses `text` as the content of `path`. Errors (every message starts
  // "<path>:<line>"):
  //   NotFound          `op` names no overload the dispatcher knows (close
  //                     matches are suggested);
  //   InvalidArgument   a syntax error or unknown field, a malformed `op`, no
  //                     sample, a sample name that is not an identifier or is
  //                     repeated, a recipe `recipes` lacks, a world size
  //                     outside [2, 64], or a sweep with no values, with two
  //                     kinds of values, or naming an argument twice.
  // Schema checks (argument names, types, arity) happen when a sample is
  // bound (sample.h).
  static absl::StatusOr<LoadedSpec> FromText(absl::string_view text, const std::string& path,
                                             std::shared_ptr<const RecipeSet> recipes);
  // As FromText, reading `path`. Errors: also NotFound if it cannot be read.
  static absl::StatusOr<LoadedSpec> FromFile(const std::string& path,
                                             std::shared_ptr<const RecipeSet> recipes);

  const OpSpec& proto() const { return proto_; }
  const std::string& path() const { return locations_.path(); }
  const c10::OperatorName& op() const { return op_; }
  const RecipeSet& recipes() const { return *recipes_; }
  // The world sizes to check: proto().world_sizes(), or {4} when empty.
  std::vector<int> world_sizes() const;

  // "<path>:<line>" of the `op` field, of the `local_shape_arg` field, of
  // sample `s`, of argument `a` of sample `s`, and of sweep `w` of sample `s`.
  std::string WhereOp() const;
  std::string WhereLocalShapeArg() const;
  std::string WhereSample(int s) const;
  std::string WhereArg(int s, int a) const;
  std::string WhereSweep(int s, int w) const;

 private:
  LoadedSpec(OpSpec proto, TextLocations locations, std::shared_ptr<const RecipeSet> recipes)
      : proto_(std::move(proto)), locations_(std::move(locations)), recipes_(std::move(recipes)) {}
  OpSpec proto_;
  TextLocations locations_;
  std::shared_ptr<const RecipeSet> recipes_;
  c10::OperatorName op_{"", ""};
};

// The layout of a spec tree: <root>/<family>/*.textproto are specs,
// <root>/recipes/*.textproto recipes and <root>/xfails.textproto the
// xfails.
inline constexpr absl::string_view kRecipeDir = "recipes";
inline constexpr absl::string_view kXfailFile = "xfails.textproto";
inline constexpr absl::string_view kExemptionFile = "exemptions.textproto";

// Loads the recipes in `recipe_dir`, then every "*.textproto" below `root`
// (recursively) except the recipe directory, kXfailFile and kExemptionFile,
// sorted by path. Errors: NotFound if a directory cannot be listed;
// otherwise the first error RecipeSet::FromDir or LoadedSpec::FromFile
// reports.
absl::StatusOr<std::vector<LoadedSpec>> LoadSpecTree(const std::string& root,
                                                     const std::string& recipe_dir);

}  // namespace shrt

#endif  // SHRT_SPEC_LOADER_H_
