#include "shrt/engine/spec_loader.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/util/message_differencer.h"
#include "shrt/ops/op_lookup.h"
#include "shrt/ops/overload_name.h"
#include "shrt/spec/tensor_args.h"
#include "shrt/vocab/mesh.h"

namespace shrt {
namespace {

bool IsIdentifier(absl::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

// How many kinds of values a sweep sets (int, bool, float, int-list,
// bool-list).
int ValueKinds(const Sweep& w) {
  return (w.int_values_size() > 0) + (w.bool_values_size() > 0) + (w.float_values_size() > 0) +
         (w.int_lists_size() > 0) + (w.bool_lists_size() > 0);
}

// The recipes a SampleSource stamps on a taken sample's tensor inputs
// that name none (spec.proto SampleSource.recipe and .arg_recipe), and
// which of them reached an input.
struct SourceRecipes {
  std::string recipe;
  absl::flat_hash_map<std::string, std::string> by_arg;
  bool recipe_used = false;
  absl::flat_hash_set<std::string> args_used;

  // Writes the recipe into every tensor input of `sample` that names none.
  void Stamp(Sample& sample) {
    for (Arg& arg : *sample.mutable_arg()) {
      auto it = by_arg.find(arg.name());
      for (TensorArg* t : MutableTensorArgsOf(arg)) {
        if (!t->recipe().empty()) continue;
        if (it != by_arg.end()) {
          t->set_recipe(it->second);
          args_used.insert(arg.name());
        } else if (!recipe.empty()) {
          t->set_recipe(recipe);
          recipe_used = true;
        }
      }
    }
  }
};

// The argument names a SampleSource gives a taken sample's args and
// sweeps (spec.proto SampleSource.rename), and which of them reached one.
struct SourceRenames {
  absl::flat_hash_map<std::string, std::string> to_of;  // source's name -> this spec's
  absl::flat_hash_set<std::string> used;

  // Reads `entries` (a SampleSource's rename, reported as `field`[r] at
  // `where`): an `arg` and a `to` each, one entry per `arg` and per `to`.
  absl::Status Read(const google::protobuf::RepeatedPtrField<ArgRename>& entries,
                    const std::string& where, const std::string& field) {
    absl::flat_hash_set<std::string> targets;
    for (int r = 0; r < entries.size(); ++r) {
      const ArgRename& entry = entries.Get(r);
      const std::string item = absl::StrCat(field, "[", r, "]");
      if (entry.arg().empty()) return FieldError(where, item + ".arg", "is required");
      if (entry.to().empty()) return FieldError(where, item + ".to", "is required");
      if (!to_of.emplace(entry.arg(), entry.to()).second) {
        return FieldError(where, item + ".arg", absl::StrCat("'", entry.arg(), "' has an entry already"));
      }
      if (!targets.insert(entry.to()).second) {
        return FieldError(where, item + ".to",
                          absl::StrCat("'", entry.to(), "' is another entry's `to` already"));
      }
    }
    return absl::OkStatus();
  }

  // Renames `sample`'s args and sweeps, all at once; an error naming
  // `field` if two of them then share a name.
  absl::Status Apply(Sample& sample, const std::string& where, const std::string& field) {
    if (to_of.empty()) return absl::OkStatus();
    absl::flat_hash_set<std::string> names;
    auto rename = [&](std::string* name) -> absl::Status {
      if (auto it = to_of.find(*name); it != to_of.end()) {
        used.insert(*name);
        *name = it->second;
      }
      if (!names.insert(*name).second) {
        return FieldError(where, field,
                          absl::StrCat("sample '", sample.name(), "' gives argument '", *name,
                                       "' twice once renamed"));
      }
      return absl::OkStatus();
    };
    for (Arg& arg : *sample.mutable_arg()) {
      if (absl::Status s = rename(arg.mutable_name()); !s.ok()) return s;
    }
    for (Sweep& sweep : *sample.mutable_sweep()) {
      if (absl::Status s = rename(sweep.mutable_name()); !s.ok()) return s;
    }
    return absl::OkStatus();
  }
};

}  // namespace

absl::Status LoadedSpec::CheckRecipe(const std::string& name, const std::string& where,
                                     const std::string& field) const {
  if (name.empty()) return absl::OkStatus();
  absl::StatusOr<const Recipe*> found = recipes_->Find(name);
  return found.ok() ? absl::OkStatus() : FieldError(where, field, found.status().message());
}

absl::Status LoadedSpec::CheckArgRecipes(const google::protobuf::RepeatedPtrField<ArgRecipe>& entries,
                                         absl::FunctionRef<std::string(int)> where_of,
                                         const std::string& field,
                                         absl::flat_hash_map<std::string, std::string>* by_arg) const {
  for (int r = 0; r < entries.size(); ++r) {
    const ArgRecipe& entry = entries.Get(r);
    const std::string where = where_of(r);
    const std::string item = absl::StrCat(field, "[", r, "]");
    if (entry.arg().empty()) return FieldError(where, item + ".arg", "is required");
    if (by_arg->contains(entry.arg())) {
      return FieldError(where, item + ".arg", absl::StrCat("'", entry.arg(), "' has an entry already"));
    }
    if (entry.recipe().empty()) return FieldError(where, item + ".recipe", "is required");
    if (absl::Status st = CheckRecipe(entry.recipe(), where, item + ".recipe"); !st.ok()) return st;
    (*by_arg)[entry.arg()] = entry.recipe();
  }
  return absl::OkStatus();
}

std::vector<int> LoadedSpec::world_sizes() const {
  if (proto_.world_sizes().empty()) return {4};
  return {proto_.world_sizes().begin(), proto_.world_sizes().end()};
}

std::string LoadedSpec::WhereInSample(
    int s, std::initializer_list<std::pair<absl::string_view, int>> rest) const {
  const Origin& origin = origins_[s];
  if (origin.spec != nullptr) return origin.spec->WhereInSample(origin.index, rest);
  std::vector<std::pair<absl::string_view, int>> nested = {{"sample", origin.index}};
  nested.insert(nested.end(), rest.begin(), rest.end());
  // TextLocations::Where takes an initializer_list: at most two levels here.
  if (nested.size() == 1) return locations_.Where({nested[0]}, proto_);
  return locations_.Where({nested[0], nested[1]}, proto_);
}

std::vector<std::string> LoadedSpec::samples_from_paths() const {
  std::vector<std::string> paths;
  for (const std::shared_ptr<const LoadedSpec>& source : sources_) {
    std::vector<std::string> more = source->samples_from_paths();
    more.push_back(source->path());
    for (std::string& p : more) {
      if (std::find(paths.begin(), paths.end(), p) == paths.end()) paths.push_back(std::move(p));
    }
  }
  return paths;
}

std::string LoadedSpec::WhereMissing(int m) const {
  return locations_.Where({{"missing", m}}, proto_);
}

std::string LoadedSpec::WhereCrash(int c) const {
  return locations_.Where({{"crash", c}}, proto_);
}

std::string LoadedSpec::WhereOp() const {
  if (group_index_ == 0) return locations_.Where({{"op", -1}}, proto_);
  return locations_.Where({{"alias", group_index_ - 1}}, proto_);
}

std::string LoadedSpec::WhereLocalShapeArg() const {
  return locations_.Where({{"local_shape_arg", -1}}, proto_);
}

std::string LoadedSpec::WhereArgRecipe(int r) const {
  return locations_.Where({{"arg_recipe", r}}, proto_);
}

absl::StatusOr<c10::OperatorName> LoadedSpec::ParseOverloadField(absl::string_view text,
                                                                absl::string_view where,
                                                                absl::string_view field,
                                                                bool must_exist) {
  absl::StatusOr<c10::OperatorName> name = ParseOverloadName(text);
  if (!name.ok()) return FieldError(where, field, name.status().message());
  if (must_exist) {
    if (absl::Status s = CheckOverloadExists(*name); !s.ok()) {
      return absl::NotFoundError(absl::StrCat(where, ": field '", field, "': ", s.message()));
    }
  }
  return name;
}

std::string LoadedSpec::WhereSample(int s) const { return WhereInSample(s, {}); }

std::string LoadedSpec::WhereArg(int s, int a) const { return WhereInSample(s, {{"arg", a}}); }

std::string LoadedSpec::WhereSweep(int s, int w) const { return WhereInSample(s, {{"sweep", w}}); }

absl::Status LoadedSpec::TakeSamples(const std::vector<const LoadedSpec*>& given) {
  google::protobuf::RepeatedPtrField<Sample> merged;
  std::map<std::string, std::pair<int, std::string>> taken;  // name -> index in merged, from
  for (int e = 0; e < proto_.samples_from_size(); ++e) {
    const SampleSource& entry = proto_.samples_from(e);
    const std::string where = locations_.Where({{"samples_from", e}}, proto_);
    const std::string field = absl::StrCat("samples_from[", e, "]");
    absl::StatusOr<c10::OperatorName> from =
        ParseOverloadField(entry.op(), where, field + ".op", /*must_exist=*/false);
    if (!from.ok()) return from.status();
    auto it = std::find_if(given.begin(), given.end(), [&](const LoadedSpec* g) {
      return g != nullptr && g->ChecksGroupOf(*from);
    });
    if (it == given.end()) {
      return FieldError(where, field + ".op",
                        absl::StrCat("no spec of ", entry.op(), " was found beside this one"));
    }
    const LoadedSpec& source = **it;
    std::shared_ptr<const LoadedSpec> shared;
    for (const auto& s : sources_) {
      if (s->ChecksGroupOf(*from)) shared = s;
    }
    if (shared == nullptr) {
      shared = std::make_shared<const LoadedSpec>(source);
      sources_.push_back(shared);
    }
    SourceRecipes stamp;
    stamp.recipe = entry.recipe();
    if (absl::Status st = CheckRecipe(stamp.recipe, where, field + ".recipe"); !st.ok()) return st;
    if (absl::Status st =
            CheckArgRecipes(entry.arg_recipe(), [&](int) { return where; }, field + ".arg_recipe",
                            &stamp.by_arg);
        !st.ok()) {
      return st;
    }
    SourceRenames renames;
    if (absl::Status st = renames.Read(entry.rename(), where, field + ".rename"); !st.ok()) return st;
    std::vector<int> picked;  // indices into the source's samples
    if (entry.sample().empty()) {
      for (int s = 0; s < source.proto_.sample_size(); ++s) picked.push_back(s);
    }
    for (int k = 0; k < entry.sample_size(); ++k) {
      const std::string& name = entry.sample(k);
      std::vector<std::string> names;
      int found = -1;
      for (int s = 0; s < source.proto_.sample_size(); ++s) {
        names.push_back(source.proto_.sample(s).name());
        if (names.back() == name) found = s;
      }
      const std::string item = absl::StrCat(field, ".sample[", k, "]");
      if (found < 0) {
        return FieldError(where, item,
                          absl::StrCat(entry.op(), " has no sample '", name, "' (its samples: ",
                                       absl::StrJoin(names, ", "), ")"));
      }
      if (std::find(picked.begin(), picked.end(), found) != picked.end()) {
        return FieldError(where, item, absl::StrCat("'", name, "' is named twice"));
      }
      picked.push_back(found);
    }
    for (int s : picked) {
      Sample sample = source.proto_.sample(s);
      if (absl::Status st = renames.Apply(sample, where, field + ".rename"); !st.ok()) return st;
      stamp.Stamp(sample);
      auto [at, fresh] =
          taken.emplace(sample.name(), std::make_pair(merged.size(), entry.op()));
      if (!fresh) {
        // The same sample through two entries (a spec both take it from) is
        // listed once; another sample of its name is an error.
        if (google::protobuf::util::MessageDifferencer::Equals(merged.Get(at->second.first),
                                                               sample)) {
          continue;
        }
        return FieldError(where, field + ".op",
                          absl::StrCat("its sample '", sample.name(), "' (", source.WhereSample(s),
                                       ") differs from the sample of that name that ",
                                       at->second.second, " gives"));
      }
      *merged.Add() = std::move(sample);
      origins_.push_back({shared, s});
    }
    // A recipe that reaches no input would be silently ignored.
    if (!stamp.recipe.empty() && !stamp.recipe_used) {
      return FieldError(where, field + ".recipe",
                        "reaches no tensor input: every input of the taken samples names its "
                        "own recipe or has an arg_recipe entry here");
    }
    for (int r = 0; r < entry.rename_size(); ++r) {
      if (!renames.used.contains(entry.rename(r).arg())) {
        return FieldError(where, absl::StrCat(field, ".rename[", r, "].arg"),
                          absl::StrCat("'", entry.rename(r).arg(),
                                       "' is no argument of the taken samples"));
      }
    }
    for (int r = 0; r < entry.arg_recipe_size(); ++r) {
      if (!stamp.args_used.contains(entry.arg_recipe(r).arg())) {
        return FieldError(where, absl::StrCat(field, ".arg_recipe[", r, "].arg"),
                          absl::StrCat("'", entry.arg_recipe(r).arg(),
                                       "' is no tensor input of the taken samples that names no "
                                       "recipe of its own"));
      }
    }
  }
  for (int s = 0; s < proto_.sample_size(); ++s) origins_.push_back({nullptr, s});
  merged.MergeFrom(proto_.sample());
  proto_.mutable_sample()->Swap(&merged);
  return absl::OkStatus();
}

absl::StatusOr<LoadedSpec> LoadedSpec::FromText(absl::string_view text, const std::string& path,
                                                std::shared_ptr<const RecipeSet> recipes,
                                                const std::vector<const LoadedSpec*>& samples_from) {
  OpSpec proto;
  absl::StatusOr<TextLocations> locations = ParseTextProto(text, path, &proto);
  if (!locations.ok()) return locations.status();
  LoadedSpec spec(std::move(proto), *std::move(locations), std::move(recipes));
  const OpSpec& p = spec.proto_;
  if (p.op().empty()) return FieldError(path, "op", "is missing");
  absl::StatusOr<c10::OperatorName> op =
      ParseOverloadField(p.op(), spec.WhereOp(), "op", /*must_exist=*/true);
  if (!op.ok()) return op.status();
  spec.op_ = *op;
  if (absl::Status s = spec.CheckGroupFields(); !s.ok()) return s;
  if (p.has_tolerance()) {
    // A NaN, infinite or negative tolerance would pass or fail every
    // comparison silently (inventing missing or incorrect rules).
    const std::string where = spec.locations_.Where({{"tolerance", -1}}, p);
    for (const auto& [field, value] : {std::pair<const char*, double>{"tolerance.rtol",
                                                                      p.tolerance().rtol()},
                                       {"tolerance.atol", p.tolerance().atol()}}) {
      if (!std::isfinite(value) || value < 0) {
        return FieldError(where, field,
                          absl::StrCat(value, " is not a finite, non-negative tolerance"));
      }
    }
  }
  if (absl::Status s = spec.TakeSamples(samples_from); !s.ok()) return s;
  if (absl::Status s = spec.CheckRecipe(p.recipe(), spec.locations_.Where({{"recipe", -1}}, p), "recipe");
      !s.ok()) {
    return s;
  }
  absl::flat_hash_map<std::string, std::string> recipe_args;
  if (absl::Status st = spec.CheckArgRecipes(
          p.arg_recipe(), [&](int r) { return spec.WhereArgRecipe(r); }, "arg_recipe", &recipe_args);
      !st.ok()) {
    return st;
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
      for (const TensorArg* t : TensorArgsOf(arg)) {
        if (absl::Status st = spec.CheckRecipe(t->recipe(), spec.WhereArg(s, a),
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
                                                std::shared_ptr<const RecipeSet> recipes,
                                                const std::vector<const LoadedSpec*>& samples_from) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  return FromText(*text, path, std::move(recipes), samples_from);
}

}  // namespace shrt
