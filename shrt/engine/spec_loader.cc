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
#include "shrt/vocab/placement.h"

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

std::vector<c10::OperatorName> LoadedSpec::CheckedOverloads(const OpGroup& group) const {
  std::vector<c10::OperatorName> out;
  for (const c10::OperatorName& name : group.Overloads()) {
    const std::string text = OverloadToString(name);
    bool excluded = false;
    for (const ExcludedVariant& e : proto_.exclude()) excluded = excluded || e.op() == text;
    if (!excluded) out.push_back(name);
  }
  return out;
}

std::vector<c10::OperatorName> LoadedSpec::overloads() const {
  std::vector<c10::OperatorName> out;
  for (const OpGroup& group : groups_) {
    for (c10::OperatorName& name : CheckedOverloads(group)) out.push_back(std::move(name));
  }
  return out;
}

absl::StatusOr<LoadedSpec> LoadedSpec::ForOverload(const c10::OperatorName& name) const {
  for (size_t g = 0; g < groups_.size(); ++g) {
    for (const c10::OperatorName& o : CheckedOverloads(groups_[g])) {
      if (o == name) {
        LoadedSpec copy = *this;
        copy.op_ = name;
        copy.group_index_ = static_cast<int>(g);
        return copy;
      }
    }
  }
  return absl::NotFoundError(absl::StrCat(path(), ": ", OverloadToString(name),
                                          " is not a checked overload of the group of ",
                                          OverloadToString(groups_.front().functional),
                                          groups_.size() > 1 ? " or of its aliases" : ""));
}

bool LoadedSpec::ChecksGroupOf(const c10::OperatorName& functional) const {
  return std::any_of(groups_.begin(), groups_.end(),
                     [&](const OpGroup& g) { return g.functional == functional; });
}

bool LoadedSpec::IgnoresArgument(absl::string_view name) const {
  const OpGroup& g = group();
  if (g.out.has_value() && op_ == *g.out) return false;
  return std::find(g.out_arguments.begin(), g.out_arguments.end(), name) != g.out_arguments.end();
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

std::string LoadedSpec::WhereSample(int s) const { return WhereInSample(s, {}); }

std::string LoadedSpec::WhereArg(int s, int a) const { return WhereInSample(s, {{"arg", a}}); }

std::string LoadedSpec::WhereSweep(int s, int w) const { return WhereInSample(s, {{"sweep", w}}); }

absl::Status LoadedSpec::FindGroups() {
  absl::StatusOr<OpGroup> group = FindOpGroup(op_);
  if (!group.ok()) {
    return absl::Status(group.status().code(),
                        absl::StrCat(WhereOp(), ": field 'op': ", group.status().message()));
  }
  groups_ = {*std::move(group)};
  for (int a = 0; a < proto_.alias_size(); ++a) {
    const std::string where = locations_.Where({{"alias", a}}, proto_);
    const std::string field = absl::StrCat("alias[", a, "]");
    absl::StatusOr<c10::OperatorName> name = ParseOverloadName(proto_.alias(a));
    if (!name.ok()) return FieldError(where, field, name.status().message());
    if (absl::Status s = CheckOverloadExists(*name); !s.ok()) {
      return absl::NotFoundError(absl::StrCat(where, ": field '", field, "': ", s.message()));
    }
    absl::StatusOr<OpGroup> alias = FindOpGroup(*name);
    if (!alias.ok()) {
      return absl::Status(alias.status().code(),
                          absl::StrCat(where, ": field '", field, "': ", alias.status().message()));
    }
    // `op` itself, an alias named twice, or a variant of a group here.
    for (const c10::OperatorName& o : alias->Overloads()) {
      for (const OpGroup& g : groups_) {
        const std::vector<c10::OperatorName> have = g.Overloads();
        if (std::find(have.begin(), have.end(), o) != have.end()) {
          return FieldError(where, field,
                            absl::StrCat("'", proto_.alias(a), "': ", OverloadToString(o),
                                         " is checked here already, in the group of ",
                                         OverloadToString(g.functional)));
        }
      }
    }
    groups_.push_back(*std::move(alias));
  }
  return absl::OkStatus();
}

absl::Status LoadedSpec::CheckGroupFields() {
  if (absl::Status s = FindGroups(); !s.ok()) return s;
  // Every overload of every group here, and the functional ones.
  std::vector<std::string> variants, functionals;
  for (const OpGroup& g : groups_) {
    functionals.push_back(OverloadToString(g.functional));
    for (const c10::OperatorName& o : g.Overloads()) variants.push_back(OverloadToString(o));
  }
  const std::string members = absl::StrJoin(variants, ", ");
  absl::flat_hash_set<std::string> excluded;
  for (int e = 0; e < proto_.exclude_size(); ++e) {
    const ExcludedVariant& x = proto_.exclude(e);
    const std::string where = locations_.Where({{"exclude", e}}, proto_);
    const std::string field = absl::StrCat("exclude[", e, "]");
    absl::StatusOr<c10::OperatorName> name = ParseOverloadName(x.op());
    if (!name.ok()) return FieldError(where, field + ".op", name.status().message());
    const std::string text = OverloadToString(*name);
    if (std::find(functionals.begin(), functionals.end(), text) != functionals.end() ||
        std::find(variants.begin(), variants.end(), text) == variants.end()) {
      return FieldError(where, field + ".op",
                        absl::StrCat("'", x.op(), "' is not an in-place or out= variant of ",
                                     absl::StrJoin(functionals, " or "), " (",
                                     groups_.size() > 1 ? "their groups" : "its group", ": ",
                                     members, ")"));
    }
    if (!excluded.insert(text).second) return FieldError(where, field + ".op", "is excluded twice");
    if (x.reason().empty()) return FieldError(where, field + ".reason", "is required");
  }
  absl::flat_hash_set<std::string> rules;
  for (int m = 0; m < proto_.missing_size(); ++m) {
    const MissingRule& x = proto_.missing(m);
    const std::string field = absl::StrCat("missing[", m, "]");
    absl::StatusOr<Rule> rule = ParseRule(x.rule());
    if (!rule.ok()) return FieldError(WhereMissing(m), field + ".rule", rule.status().message());
    if (!rules.insert(RuleToString(*rule)).second) {
      return FieldError(WhereMissing(m), field + ".rule",
                        absl::StrCat("'", x.rule(), "' is explained twice"));
    }
    if (x.reason().empty()) return FieldError(WhereMissing(m), field + ".reason", "is required");
    for (const std::string& op : x.op()) {
      absl::StatusOr<c10::OperatorName> name = ParseOverloadName(op);
      const std::string text = name.ok() ? OverloadToString(*name) : op;
      if (std::find(variants.begin(), variants.end(), text) == variants.end() ||
          excluded.contains(text)) {
        return FieldError(WhereMissing(m), field + ".op",
                          absl::StrCat("'", op, "' is not a checked overload of ",
                                       groups_.size() > 1 ? "these groups" : "this group", " (",
                                       members, ")"));
      }
    }
    for (int w : x.world_sizes()) {
      if (absl::StatusOr<Mesh> mesh = Mesh::Create(w); !mesh.ok()) {
        return FieldError(WhereMissing(m), field + ".world_sizes", mesh.status().message());
      }
    }
  }
  absl::flat_hash_set<std::string> crashes;
  for (int c = 0; c < proto_.crash_size(); ++c) {
    const KnownCrash& x = proto_.crash(c);
    const std::string field = absl::StrCat("crash[", c, "]");
    if (x.inputs().empty()) return FieldError(WhereCrash(c), field + ".inputs", "is required");
    for (int i = 0; i < x.inputs_size(); ++i) {
      const std::string item = absl::StrCat(field, ".inputs[", i, "]");
      absl::StatusOr<std::vector<Placement>> inputs = ParsePlacements(x.inputs(i));
      if (!inputs.ok()) return FieldError(WhereCrash(c), item, inputs.status().message());
      if (inputs->empty()) return FieldError(WhereCrash(c), item, "is empty");
      if (!crashes.insert(PlacementsToString(*inputs)).second) {
        return FieldError(WhereCrash(c), item,
                          absl::StrCat("'", x.inputs(i), "' is explained twice"));
      }
    }
    if (x.reason().empty()) return FieldError(WhereCrash(c), field + ".reason", "is required");
    for (int w : x.world_sizes()) {
      if (absl::StatusOr<Mesh> mesh = Mesh::Create(w); !mesh.ok()) {
        return FieldError(WhereCrash(c), field + ".world_sizes", mesh.status().message());
      }
    }
  }
  return absl::OkStatus();
}

absl::Status LoadedSpec::TakeSamples(const std::vector<const LoadedSpec*>& given) {
  google::protobuf::RepeatedPtrField<Sample> merged;
  std::map<std::string, std::pair<int, std::string>> taken;  // name -> index in merged, from
  for (int e = 0; e < proto_.samples_from_size(); ++e) {
    const SampleSource& entry = proto_.samples_from(e);
    const std::string where = locations_.Where({{"samples_from", e}}, proto_);
    const std::string field = absl::StrCat("samples_from[", e, "]");
    absl::StatusOr<c10::OperatorName> from = ParseOverloadName(entry.op());
    if (!from.ok()) return FieldError(where, field + ".op", from.status().message());
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
  absl::StatusOr<c10::OperatorName> op = ParseOverloadName(p.op());
  if (!op.ok()) return FieldError(spec.WhereOp(), "op", op.status().message());
  spec.op_ = *op;
  if (absl::Status s = CheckOverloadExists(spec.op_); !s.ok()) {
    return absl::NotFoundError(absl::StrCat(spec.WhereOp(), ": field 'op': ", s.message()));
  }
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
