#include "shrt/recipes.h"

#include <filesystem>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "shrt/text_proto.h"

namespace shrt {
namespace {

// Why generator `g`'s parameters are unusable, or "" if they are fine.
std::string BadParameters(const Generator& g) {
  switch (g.kind_case()) {
    case Generator::kUniform:
      return g.uniform().low() < g.uniform().high() ? "" : "uniform needs low < high";
    case Generator::kSparse:
      if (g.sparse().density() <= 0 || g.sparse().density() > 1) return "sparse density must be in (0, 1]";
      return g.sparse().low() < g.sparse().high() ? "" : "sparse needs low < high";
    case Generator::kMagnitude:
      return g.magnitude().min_exp() < g.magnitude().max_exp() ? ""
                                                              : "magnitude needs min_exp < max_exp";
    case Generator::kTies:
      return g.ties().values_size() >= 2 ? "" : "ties needs at least 2 values";
    case Generator::kMask:
      return g.mask().alternating() || (g.mask().density() >= 0 && g.mask().density() <= 1)
                 ? ""
                 : "mask density must be in [0, 1]";
    case Generator::kConstant:
      return g.constant().per_input_step() != 0
                 ? ""
                 : "constant needs a non-zero per_input_step so that inputs differ";
    case Generator::kIndex:
      if (g.index().of_arg().empty()) return "index needs of_arg";
      return g.index().along_case() == IndexGen::ALONG_NOT_SET ? "index needs dim or dim_arg" : "";
    case Generator::KIND_NOT_SET:
      return "generator has no kind (arange, normal, uniform, constant, sparse, magnitude, ties, "
             "mask or index)";
    default:
      return "";
  }
}

}  // namespace

absl::StatusOr<RecipeSet> RecipeSet::FromFiles(
    const std::vector<std::pair<std::string, std::string>>& files) {
  RecipeSet set;
  for (const auto& [path, text] : files) {
    Recipe recipe;
    absl::StatusOr<TextLocations> where = ParseTextProto(text, path, &recipe);
    if (!where.ok()) return where.status();
    const std::string stem = std::filesystem::path(path).stem().string();
    if (recipe.name() != stem) {
      return FieldError(where->Where({{"name", -1}}, recipe), "name",
                        absl::StrCat("'", recipe.name(), "' must equal the file name's stem '",
                                     stem, "'"));
    }
    if (set.recipes_.count(recipe.name())) {
      return FieldError(where->Where({{"name", -1}}, recipe), "name",
                        absl::StrCat("recipe '", recipe.name(), "' is defined twice"));
    }
    if (recipe.generator_size() == 0) {
      return FieldError(path, "generator", "a recipe needs at least one generator");
    }
    absl::flat_hash_set<std::string> names;
    for (int i = 0; i < recipe.generator_size(); ++i) {
      const Generator& g = recipe.generator(i);
      const std::string field = absl::StrCat("generator[", i, "]");
      const std::string at = where->Where({{"generator", i}}, recipe);
      if (g.name().empty()) return FieldError(at, field, "a generator needs a name");
      if (!names.insert(g.name()).second) {
        return FieldError(at, field, absl::StrCat("generator name '", g.name(), "' is used twice"));
      }
      if (std::string why = BadParameters(g); !why.empty()) {
        return FieldError(at, absl::StrCat(field, " (", g.name(), ")"), why);
      }
    }
    set.recipes_.emplace(recipe.name(), std::move(recipe));
  }
  return set;
}

absl::StatusOr<RecipeSet> RecipeSet::FromDir(const std::string& dir) {
  std::error_code ec;
  std::vector<std::string> paths;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    if (e.path().extension() == ".textproto") paths.push_back(e.path().string());
  }
  if (ec) return absl::NotFoundError(absl::StrCat(dir, ": cannot list the directory: ", ec.message()));
  std::sort(paths.begin(), paths.end());
  std::vector<std::pair<std::string, std::string>> files;
  for (const std::string& p : paths) {
    absl::StatusOr<std::string> text = ReadFile(p);
    if (!text.ok()) return text.status();
    files.emplace_back(p, *std::move(text));
  }
  return FromFiles(files);
}

absl::StatusOr<const Recipe*> RecipeSet::Find(absl::string_view name) const {
  auto it = recipes_.find(name);
  if (it == recipes_.end()) {
    return absl::NotFoundError(absl::StrCat("unknown recipe '", name, "' (known: ",
                                            absl::StrJoin(Names(), ", "), ")"));
  }
  return &it->second;
}

std::vector<std::string> RecipeSet::Names() const {
  std::vector<std::string> names;
  for (const auto& [name, recipe] : recipes_) names.push_back(name);
  return names;
}

bool IsIndexRecipe(const Recipe& recipe) {
  for (const Generator& g : recipe.generator()) {
    if (g.kind_case() != Generator::kIndex) return false;
  }
  return recipe.generator_size() > 0;
}

}  // namespace shrt
