#include "shrt/spec_loader.h"

#include <algorithm>
#include <filesystem>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "shrt/mesh.h"
#include "shrt/op_lookup.h"
#include "shrt/overload_name.h"

namespace shrt {
namespace {

bool IsIdentifier(absl::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

// How many kinds of values a sweep sets (int, bool, float, int-list).
int ValueKinds(const Sweep& w) {
  return (w.int_values_size() > 0) + (w.bool_values_size() > 0) + (w.float_values_size() > 0) +
         (w.int_lists_size() > 0);
}

}  // namespace

std::vector<int> LoadedSpec::world_sizes() const {
  if (proto_.world_sizes().empty()) return {4};
  return {proto_.world_sizes().begin(), proto_.world_sizes().end()};
}

std::string LoadedSpec::WhereOp() const { return locations_.Where({{"op", -1}}, proto_); }

std::string LoadedSpec::WhereLocalShapeArg() const {
  return locations_.Where({{"local_shape_arg", -1}}, proto_);
}

std::string LoadedSpec::WhereSample(int s) const {
  return locations_.Where({{"sample", s}}, proto_);
}

std::string LoadedSpec::WhereArg(int s, int a) const {
  return locations_.Where({{"sample", s}, {"arg", a}}, proto_);
}

std::string LoadedSpec::WhereSweep(int s, int w) const {
  return locations_.Where({{"sample", s}, {"sweep", w}}, proto_);
}

absl::StatusOr<LoadedSpec> LoadedSpec::FromText(absl::string_view text, const std::string& path,
                                                std::shared_ptr<const RecipeSet> recipes) {
  OpSpec proto;
  absl::StatusOr<TextLocations> locations = ParseTextProto(text, path, &proto);
  if (!locations.ok()) return locations.status();
  LoadedSpec spec(std::move(proto), *std::move(locations), std::move(recipes));
  const OpSpec& p = spec.proto_;
  if (p.op().empty()) return FieldError(path, "op", "is missing");
  absl::StatusOr<c10::OperatorName> op = ParseOverloadName(p.op());
  if (!op.ok()) return FieldError(spec.WhereOp(), "op", op.status().message());
  spec.op_ = *op;
  if (absl::Status s = CheckOverloadExists(spec.op_); !s.ok()) {
    return absl::NotFoundError(absl::StrCat(spec.WhereOp(), ": field 'op': ", s.message()));
  }
  auto check_recipe = [&](const std::string& name, const std::string& where,
                          const std::string& field) -> absl::Status {
    if (name.empty()) return absl::OkStatus();
    absl::StatusOr<const Recipe*> r = spec.recipes_->Find(name);
    return r.ok() ? absl::OkStatus() : FieldError(where, field, r.status().message());
  };
  if (absl::Status s = check_recipe(p.recipe(), spec.locations_.Where({{"recipe", -1}}, p), "recipe");
      !s.ok()) {
    return s;
  }
  for (int i = 0; i < p.world_sizes_size(); ++i) {
    if (absl::StatusOr<Mesh> m = Mesh::Create(p.world_sizes(i)); !m.ok()) {
      return FieldError(spec.locations_.Where({{"world_sizes", i}}, p),
                        absl::StrCat("world_sizes[", i, "]"), m.status().message());
    }
  }
  if (p.sample_size() == 0) return FieldError(path, "sample", "at least one is required");
  absl::flat_hash_set<std::string> names;
  for (int s = 0; s < p.sample_size(); ++s) {
    const Sample& sample = p.sample(s);
    const std::string field = absl::StrCat("sample[", s, "]");
    if (!IsIdentifier(sample.name())) {
      return FieldError(spec.WhereSample(s), field + ".name",
                        absl::StrCat("'", sample.name(), "' is not an identifier (letters, digits, '_')"));
    }
    if (!names.insert(sample.name()).second) {
      return FieldError(spec.WhereSample(s), field + ".name",
                        absl::StrCat("'", sample.name(), "' is used twice"));
    }
    for (int a = 0; a < sample.arg_size(); ++a) {
      const Arg& arg = sample.arg(a);
      std::vector<const TensorArg*> tensors;
      if (arg.has_tensor()) tensors.push_back(&arg.tensor());
      for (const TensorArg& t : arg.tensors().tensor()) tensors.push_back(&t);
      for (const TensorArg* t : tensors) {
        if (absl::Status st = check_recipe(t->recipe(), spec.WhereArg(s, a),
                                           absl::StrCat(field, ".arg[", a, "] (", arg.name(), ").recipe"));
            !st.ok()) {
          return st;
        }
      }
    }
    absl::flat_hash_set<std::string> swept;
    for (int w = 0; w < sample.sweep_size(); ++w) {
      const Sweep& sweep = sample.sweep(w);
      const std::string wfield = absl::StrCat(field, ".sweep[", w, "]");
      if (ValueKinds(sweep) > 1) {
        return FieldError(spec.WhereSweep(s, w), wfield, "set one kind of values only");
      }
      if (ValueKinds(sweep) == 0 && !sweep.include_none()) {
        return FieldError(spec.WhereSweep(s, w), wfield, "sweeps no value");
      }
      bool also_arg = false;
      for (const Arg& a : sample.arg()) also_arg = also_arg || a.name() == sweep.name();
      if (also_arg || !swept.insert(sweep.name()).second) {
        return FieldError(spec.WhereSweep(s, w), wfield,
                          absl::StrCat("argument '", sweep.name(), "' is given more than once"));
      }
    }
  }
  return spec;
}

absl::StatusOr<LoadedSpec> LoadedSpec::FromFile(const std::string& path,
                                                std::shared_ptr<const RecipeSet> recipes) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  return FromText(*text, path, std::move(recipes));
}

absl::StatusOr<std::vector<LoadedSpec>> LoadSpecTree(const std::string& root,
                                                     const std::string& recipe_dir) {
  absl::StatusOr<RecipeSet> recipes = RecipeSet::FromDir(recipe_dir);
  if (!recipes.ok()) return recipes.status();
  auto shared = std::make_shared<const RecipeSet>(*std::move(recipes));
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path skip = fs::weakly_canonical(recipe_dir, ec);
  std::vector<std::string> paths;
  fs::recursive_directory_iterator it(root, ec), end;
  if (ec) return absl::NotFoundError(absl::StrCat(root, ": cannot list the directory: ", ec.message()));
  for (; it != end; it.increment(ec)) {
    if (it->is_directory() && fs::weakly_canonical(it->path(), ec) == skip) {
      it.disable_recursion_pending();
      continue;
    }
    const std::string file = it->path().filename().string();
    if (it->path().extension() == ".textproto" && file != kXfailFile && file != kExemptionFile) {
      paths.push_back(it->path().string());
    }
  }
  std::sort(paths.begin(), paths.end());
  std::vector<LoadedSpec> specs;
  for (const std::string& p : paths) {
    absl::StatusOr<LoadedSpec> spec = LoadedSpec::FromFile(p, shared);
    if (!spec.ok()) return spec.status();
    specs.push_back(*std::move(spec));
  }
  return specs;
}

}  // namespace shrt
