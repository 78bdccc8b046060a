#include "shrt/spec/recipes.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/descriptor.h"
#include "shrt/vocab/limits.h"
#include "shrt/vocab/suggest.h"
#include "shrt/vocab/text_proto.h"

namespace shrt {
namespace {

// Why the parameters of `g`'s kind (or of an `indexes` message) are not all
// finite, or "": one check for every floating field, present and future.
std::string NonFinite(const google::protobuf::Message& kind) {
  using google::protobuf::FieldDescriptor;
  const google::protobuf::Reflection& r = *kind.GetReflection();
  const google::protobuf::Descriptor& d = *kind.GetDescriptor();
  for (int f = 0; f < d.field_count(); ++f) {
    const FieldDescriptor* field = d.field(f);
    if (field->cpp_type() != FieldDescriptor::CPPTYPE_DOUBLE) continue;
    const int n = field->is_repeated() ? r.FieldSize(kind, field) : 1;
    for (int i = 0; i < n; ++i) {
      const double v = field->is_repeated() ? r.GetRepeatedDouble(kind, field, i) : r.GetDouble(kind, field);
      if (!std::isfinite(v)) {
        return absl::StrCat(field->is_repeated() ? absl::StrCat(field->name(), "[", i, "]") : field->name(),
                            " is ", v, "; parameters must be finite");
      }
    }
  }
  return "";
}

// Why an index generator, or a recipe's `indexes`, does not say what it
// indexes, or "".
std::string BadIndexTarget(const IndexGen& x) {
  const bool of_arg = !x.of_arg().empty() || x.along_case() != IndexGen::ALONG_NOT_SET;
  if (of_arg == !x.size_arg().empty()) {
    return "give either of_arg with dim or dim_arg, or size_arg (what the indices index)";
  }
  if (of_arg && x.of_arg().empty()) return "index needs of_arg";
  if (of_arg && x.along_case() == IndexGen::ALONG_NOT_SET) return "index needs dim or dim_arg";
  return "";
}

// "arange, normal, ... or positive_definite": the kinds a generator may
// take, in recipe.proto's order, read from its `kind` oneof.
std::string KindNames() {
  const google::protobuf::OneofDescriptor& kind = *Generator::descriptor()->FindOneofByName("kind");
  std::vector<std::string> names;
  for (int f = 0; f < kind.field_count(); ++f) names.push_back(kind.field(f)->name());
  const std::string last = names.back();
  names.pop_back();
  return absl::StrCat(absl::StrJoin(names, ", "), " or ", last);
}

// Why generator `g`'s parameters are unusable, or "" if they are fine.
std::string BadParameters(const Generator& g) {
  const google::protobuf::FieldDescriptor* kind =
      Generator::descriptor()->FindFieldByNumber(g.kind_case());
  if (kind != nullptr) {
    if (std::string why = NonFinite(g.GetReflection()->GetMessage(g, kind)); !why.empty()) {
      return absl::StrCat(kind->name(), " ", why);
    }
  }
  switch (g.kind_case()) {
    case Generator::kNormal:
      return g.normal().std() >= 0 ? "" : "normal std must not be negative";
    case Generator::kUniform:
      return g.uniform().low() < g.uniform().high() ? "" : "uniform needs low < high";
    case Generator::kSparse:
      if (g.sparse().density() <= 0 || g.sparse().density() > 1) return "sparse density must be in (0, 1]";
      if (g.sparse().low() < 0) return "sparse low is a magnitude and must not be negative";
      return g.sparse().low() < g.sparse().high() ? "" : "sparse needs low < high";
    case Generator::kMagnitude:
      if (g.magnitude().max_exp() > kMaxMagnitudeExp) {
        return absl::StrCat("magnitude max_exp ", g.magnitude().max_exp(), " is more than ",
                            kMaxMagnitudeExp, ": 10^max_exp overflows to inf");
      }
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
      return BadIndexTarget(g.index());
    case Generator::kSpecial:
      if (g.special().values_size() == 0) return "special needs at least one value";
      return g.special().density() > 0 && g.special().density() <= 1
                 ? ""
                 : "special density must be in (0, 1]";
    case Generator::KIND_NOT_SET:
      return absl::StrCat("generator has no kind (", KindNames(), ")");
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
    if (recipe.has_indexes()) {
      if (std::string why = BadIndexTarget(recipe.indexes()); !why.empty()) {
        return FieldError(where->Where({{"indexes", -1}}, recipe), "indexes", why);
      }
    }
    set.recipes_.emplace(recipe.name(), std::move(recipe));
  }
  return set;
}

absl::StatusOr<RecipeSet> RecipeSet::FromDir(const std::string& dir) {
  std::error_code ec;
  std::vector<std::string> paths;
  std::filesystem::directory_iterator it(dir, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() == ".textproto") paths.push_back(it->path().string());
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
    const std::vector<std::string> close = CloseMatches(name, Names(), 1);
    return absl::NotFoundError(absl::StrCat(
        "unknown recipe '", name, "'", close.empty() ? "" : absl::StrCat("; did you mean ", close[0], "?"),
        " (known: ", absl::StrJoin(Names(), ", "), ")"));
  }
  return &it->second;
}

std::vector<std::string> RecipeSet::Names() const {
  std::vector<std::string> names;
  for (const auto& [name, recipe] : recipes_) names.push_back(name);
  return names;
}

bool IsIndexRecipe(const Recipe& recipe) {
  if (recipe.has_indexes()) return true;
  for (const Generator& g : recipe.generator()) {
    if (g.kind_case() != Generator::kIndex) return false;
  }
  return recipe.generator_size() > 0;
}

}  // namespace shrt
