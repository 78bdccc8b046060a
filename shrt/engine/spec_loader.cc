#include "shrt/engine/spec_loader.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "shrt/engine/sample.h"
#include "shrt/ops/op_lookup.h"
#include "shrt/ops/overload_name.h"
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

}  // namespace

std::vector<int> LoadedSpec::world_sizes() const {
  if (proto_.world_sizes().empty()) return {4};
  return {proto_.world_sizes().begin(), proto_.world_sizes().end()};
}

std::vector<c10::OperatorName> LoadedSpec::overloads() const {
  std::vector<c10::OperatorName> out;
  for (const c10::OperatorName& name : group_.Overloads()) {
    const std::string text = OverloadToString(name);
    bool excluded = false;
    for (const ExcludedVariant& e : proto_.exclude()) excluded = excluded || e.op() == text;
    if (!excluded) out.push_back(name);
  }
  return out;
}

absl::StatusOr<LoadedSpec> LoadedSpec::ForOverload(const c10::OperatorName& name) const {
  for (const c10::OperatorName& o : overloads()) {
    if (o == name) {
      LoadedSpec copy = *this;
      copy.op_ = name;
      return copy;
    }
  }
  return absl::NotFoundError(absl::StrCat(path(), ": ", OverloadToString(name),
                                          " is not a checked overload of the group of ",
                                          OverloadToString(group_.functional)));
}

bool LoadedSpec::IgnoresArgument(absl::string_view name) const {
  if (group_.out.has_value() && op_ == *group_.out) return false;
  return std::find(group_.out_arguments.begin(), group_.out_arguments.end(), name) !=
         group_.out_arguments.end();
}

std::string LoadedSpec::WhereInSample(
    int s, std::initializer_list<std::pair<absl::string_view, int>> rest) const {
  const int n = source_ == nullptr ? 0 : source_->proto().sample_size();
  if (s < n) return source_->WhereInSample(s, rest);  // down the chain
  std::vector<std::pair<absl::string_view, int>> nested = {{"sample", s - n}};
  nested.insert(nested.end(), rest.begin(), rest.end());
  // TextLocations::Where takes an initializer_list: at most two levels here.
  if (nested.size() == 1) return locations_.Where({nested[0]}, proto_);
  return locations_.Where({nested[0], nested[1]}, proto_);
}

std::vector<std::string> LoadedSpec::samples_from_paths() const {
  std::vector<std::string> paths;
  for (const LoadedSpec* s = source_.get(); s != nullptr; s = s->source_.get()) {
    paths.push_back(s->path());
  }
  return paths;
}

std::string LoadedSpec::WhereMissing(int m) const {
  return locations_.Where({{"missing", m}}, proto_);
}

std::string LoadedSpec::WhereCrash(int c) const {
  return locations_.Where({{"crash", c}}, proto_);
}

std::string LoadedSpec::WhereOp() const { return locations_.Where({{"op", -1}}, proto_); }

std::string LoadedSpec::WhereLocalShapeArg() const {
  return locations_.Where({{"local_shape_arg", -1}}, proto_);
}

std::string LoadedSpec::WhereSample(int s) const { return WhereInSample(s, {}); }

std::string LoadedSpec::WhereArg(int s, int a) const { return WhereInSample(s, {{"arg", a}}); }

std::string LoadedSpec::WhereSweep(int s, int w) const { return WhereInSample(s, {{"sweep", w}}); }

absl::Status LoadedSpec::CheckGroupFields() {
  absl::StatusOr<OpGroup> group = FindOpGroup(op_);
  if (!group.ok()) {
    return absl::Status(group.status().code(),
                        absl::StrCat(WhereOp(), ": field 'op': ", group.status().message()));
  }
  group_ = *std::move(group);
  std::vector<std::string> variants;
  for (const c10::OperatorName& o : group_.Overloads()) variants.push_back(OverloadToString(o));
  const std::string members = absl::StrJoin(variants, ", ");
  absl::flat_hash_set<std::string> excluded;
  for (int e = 0; e < proto_.exclude_size(); ++e) {
    const ExcludedVariant& x = proto_.exclude(e);
    const std::string where = locations_.Where({{"exclude", e}}, proto_);
    const std::string field = absl::StrCat("exclude[", e, "]");
    absl::StatusOr<c10::OperatorName> name = ParseOverloadName(x.op());
    if (!name.ok()) return FieldError(where, field + ".op", name.status().message());
    const std::string text = OverloadToString(*name);
    if (text == variants[0] ||
        std::find(variants.begin(), variants.end(), text) == variants.end()) {
      return FieldError(where, field + ".op",
                        absl::StrCat("'", x.op(), "' is not an in-place or out= variant of ",
                                     variants[0], " (its group: ", members, ")"));
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
                          absl::StrCat("'", op, "' is not a checked overload of this group (",
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

absl::StatusOr<LoadedSpec> LoadedSpec::FromText(absl::string_view text, const std::string& path,
                                                std::shared_ptr<const RecipeSet> recipes,
                                                const LoadedSpec* samples_from) {
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
  if (!p.samples_from().empty()) {
    const std::string where = spec.locations_.Where({{"samples_from", -1}}, p);
    absl::StatusOr<c10::OperatorName> from = ParseOverloadName(p.samples_from());
    if (!from.ok()) return FieldError(where, "samples_from", from.status().message());
    if (samples_from == nullptr || !(samples_from->group_.functional == *from)) {
      return FieldError(where, "samples_from",
                        absl::StrCat("no spec of ", p.samples_from(), " was found beside this one"));
    }
    spec.source_ = std::make_shared<const LoadedSpec>(*samples_from);
    google::protobuf::RepeatedPtrField<Sample> merged = samples_from->proto_.sample();
    merged.MergeFrom(spec.proto_.sample());
    spec.proto_.mutable_sample()->Swap(&merged);
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
                                                std::shared_ptr<const RecipeSet> recipes,
                                                const LoadedSpec* samples_from) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  return FromText(*text, path, std::move(recipes), samples_from);
}

namespace {

// Appends the spec files below `dir` to `paths` (see LoadSpecTree),
// following symlinked folders. `visited` holds the canonical paths of the
// folders walked so far (a folder reached twice, through a loop of links
// or two links to it, is walked once) and of those to skip. Errors:
// NotFound naming the folder that cannot be listed, or the entry whose
// type cannot be read (a dangling link, a loop of links).
absl::Status WalkSpecFolder(const std::filesystem::path& dir, std::set<std::filesystem::path>& visited,
                            std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path canonical = fs::canonical(dir, ec);
  if (ec) return absl::NotFoundError(absl::StrCat(dir.string(), ": cannot list the directory: ", ec.message()));
  if (!visited.insert(canonical).second) return absl::OkStatus();
  std::vector<fs::path> entries;
  fs::directory_iterator it(dir, ec), end;
  for (; !ec && it != end; it.increment(ec)) entries.push_back(it->path());
  if (ec) return absl::NotFoundError(absl::StrCat(dir.string(), ": cannot list the directory: ", ec.message()));
  std::sort(entries.begin(), entries.end());
  for (const fs::path& entry : entries) {
    const fs::file_status status = fs::status(entry, ec);  // follows links
    if (ec) {
      // A dangling link or a loop of links: said, never skipped.
      return absl::NotFoundError(
          absl::StrCat(entry.string(), ": cannot follow the link: ", ec.message()));
    }
    const std::string file = entry.filename().string();
    if (fs::is_directory(status)) {
      if (absl::Status s = WalkSpecFolder(entry, visited, paths); !s.ok()) return s;
    } else if (entry.extension() == ".textproto" && file != kXfailFile && file != kExemptionFile &&
               file != kNotCheckableFile) {
      paths.push_back(entry.string());
    }
  }
  return absl::OkStatus();
}

// The spec files below `root` (see LoadSpecTree), sorted.
absl::StatusOr<std::vector<std::string>> SpecPaths(const std::string& root,
                                                   const std::string& recipe_dir) {
  namespace fs = std::filesystem;
  std::set<fs::path> visited;
  for (const std::string& skip : {recipe_dir, DefaultRecipeDir(root)}) {
    std::error_code ec;
    if (fs::path p = fs::canonical(skip, ec); !ec) visited.insert(p);
  }
  std::vector<std::string> paths;
  if (absl::Status s = WalkSpecFolder(root, visited, paths); !s.ok()) return s;
  std::sort(paths.begin(), paths.end());
  return paths;
}

// OK if the file of `spec` is named after its op, as codegen/naming.py
// names it and the generated test targets (TestTargetName): one spec per op
// group, found by the name of its functional overload.
absl::Status CheckFileName(const LoadedSpec& spec) {
  const std::string want = absl::StrCat(TestTargetName(spec.op()), ".textproto");
  const std::string have = std::filesystem::path(spec.path()).filename().string();
  if (have == want) return absl::OkStatus();
  return FieldError(spec.WhereOp(), "op",
                    absl::StrCat("the spec of ", OverloadToString(spec.op()), " must be named ",
                                 want, ", not ", have,
                                 " (one spec per op group, named after its op: codegen/naming.py)"));
}

// OK if every sample of `spec` binds to its overload (sample.h): schema
// checks, size limits and recipe fit, at load time rather than when the
// sample's turn comes.
absl::Status CheckSamplesBind(const LoadedSpec& spec) {
  for (int s = 0; s < spec.proto().sample_size(); ++s) {
    if (absl::StatusOr<std::vector<BoundSample>> b = BoundSample::BindAll(spec, s); !b.ok()) {
      return b.status();
    }
  }
  return absl::OkStatus();
}

// The `samples_from` field of the spec text, or "" (also for text that does
// not parse: FromText reports that).
std::string SamplesFrom(const std::string& text) {
  OpSpec proto;
  if (!ParseTextProto(text, "", &proto).ok()) return "";  // quietly: FromText reports it
  return proto.samples_from();
}

// `text` as an overload name in canonical form ("aten::add.Tensor"), or
// `text` itself when it does not parse (FromText reports that).
std::string Canonical(const std::string& text) {
  absl::StatusOr<c10::OperatorName> name = ParseOverloadName(text);
  return name.ok() ? OverloadToString(*name) : text;
}

// The samples_from chain from `op` (canonical) through `from_of` (op ->
// its samples_from, both canonical), up to an op that names none in
// `from_of` or to the first op named twice: "aten::a", "aten::b", "aten::a".
std::vector<std::string> Chain(const std::string& op,
                               const std::map<std::string, std::string>& from_of) {
  std::vector<std::string> chain = {op};
  std::set<std::string> seen = {op};
  for (auto it = from_of.find(op); it != from_of.end(); it = from_of.find(chain.back())) {
    chain.push_back(it->second);
    if (!seen.insert(it->second).second) break;
  }
  return chain;
}

// Loads `paths` in dependency order: a spec after the spec its samples_from
// names (chains load over several passes).
absl::StatusOr<std::vector<LoadedSpec>> LoadGroups(const std::vector<std::string>& paths,
                                                   std::shared_ptr<const RecipeSet> recipes) {
  struct Text {
    std::string path, text;
    std::string op, from;  // its op and samples_from, canonical ("" if it does not parse)
    bool loaded = false;
  };
  std::vector<Text> texts;
  for (const std::string& p : paths) {
    absl::StatusOr<std::string> text = ReadFile(p);
    if (!text.ok()) return text.status();
    OpSpec proto;
    if (!ParseTextProto(*text, "", &proto).ok()) proto.Clear();  // quietly: FromText reports it
    texts.push_back({p, *std::move(text), Canonical(proto.op()), Canonical(proto.samples_from())});
  }
  std::vector<LoadedSpec> groups;
  groups.reserve(texts.size());  // sources are pointed to while loading
  std::map<std::string, size_t> by_op;  // functional overload -> index in groups
  auto load = [&](Text& t, const LoadedSpec* source) -> absl::Status {
    absl::StatusOr<LoadedSpec> spec = LoadedSpec::FromText(t.text, t.path, recipes, source);
    if (!spec.ok()) return spec.status();
    if (absl::Status s = CheckFileName(*spec); !s.ok()) return s;
    by_op.emplace(OverloadToString(spec->group().functional), groups.size());
    groups.push_back(*std::move(spec));
    t.loaded = true;
    return absl::OkStatus();
  };
  for (bool progress = true; progress;) {
    progress = false;
    for (Text& t : texts) {
      if (t.loaded) continue;
      auto it = by_op.find(t.from);
      if (!t.from.empty() && it == by_op.end()) continue;  // its source is not loaded yet
      if (absl::Status s = load(t, t.from.empty() ? nullptr : &groups[it->second]); !s.ok()) {
        return s;
      }
      progress = true;
    }
  }
  // What is left is a cycle, or leads to a spec whose samples_from names
  // no spec of `paths`.
  std::map<std::string, std::string> from_of;  // op -> samples_from, of those left
  for (const Text& t : texts) {
    if (!t.loaded) from_of[t.op] = t.from;
  }
  for (const Text& t : texts) {
    if (t.loaded) continue;
    const std::vector<std::string> chain = Chain(t.op, from_of);
    if (chain.size() > 1 && chain.back() == chain.front()) {
      OpSpec proto;
      absl::StatusOr<TextLocations> where = ParseTextProto(t.text, t.path, &proto);
      return FieldError(where->Where({{"samples_from", -1}}, proto), "samples_from",
                        absl::StrCat("a cycle: ", absl::StrJoin(chain, " -> ")));
    }
  }
  for (Text& t : texts) {
    if (t.loaded || from_of.count(t.from) > 0) continue;
    if (absl::Status s = load(t, nullptr); !s.ok()) return s;  // names the missing source
  }
  std::vector<LoadedSpec> specs;
  for (const std::string& p : paths) {  // file order, then group order
    for (const LoadedSpec& g : groups) {
      if (g.path() != p) continue;
      for (const c10::OperatorName& o : g.overloads()) {
        specs.push_back(*g.ForOverload(o));
        if (absl::Status s = CheckSamplesBind(specs.back()); !s.ok()) return s;
      }
    }
  }
  return specs;
}

}  // namespace

std::string DefaultRecipeDir(const std::string& spec_dir) {
  return (std::filesystem::path(spec_dir) / std::string(kRecipeDir)).string();
}

absl::StatusOr<std::vector<LoadedSpec>> LoadSpecTree(const std::string& root,
                                                     const std::string& recipe_dir) {
  absl::StatusOr<std::vector<std::string>> paths = SpecPaths(root, recipe_dir);
  if (!paths.ok()) return paths.status();
  absl::StatusOr<RecipeSet> recipes = RecipeSet::FromDir(recipe_dir);
  if (!recipes.ok()) return recipes.status();
  return LoadGroups(*paths, std::make_shared<const RecipeSet>(*std::move(recipes)));
}

absl::StatusOr<std::vector<LoadedSpec>> LoadSpecFile(const std::string& path,
                                                     std::shared_ptr<const RecipeSet> recipes,
                                                     const std::string& root) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  std::vector<std::string> paths = {path};
  if (const std::string from = Canonical(SamplesFrom(*text)); !from.empty()) {
    // The chain's specs are those below `root` whose op the previous one's
    // samples_from names; LoadGroups reports a missing one, or a cycle.
    std::map<std::string, std::pair<std::string, std::string>> by_op;  // op -> path, samples_from
    absl::StatusOr<std::vector<std::string>> all = SpecPaths(root, DefaultRecipeDir(root));
    for (const std::string& p : all.ok() ? *all : std::vector<std::string>{}) {
      absl::StatusOr<std::string> t = ReadFile(p);
      OpSpec proto;
      if (t.ok() && ParseTextProto(*t, p, &proto).ok() &&
          std::filesystem::path(p) != std::filesystem::path(path)) {
        by_op.emplace(Canonical(proto.op()), std::make_pair(p, Canonical(proto.samples_from())));
      }
    }
    for (auto it = by_op.find(from);
         it != by_op.end() && std::find(paths.begin(), paths.end(), it->second.first) == paths.end();
         it = by_op.find(it->second.second)) {
      paths.push_back(it->second.first);
    }
  }
  absl::StatusOr<std::vector<LoadedSpec>> specs = LoadGroups(paths, std::move(recipes));
  if (!specs.ok()) return specs.status();
  std::vector<LoadedSpec> mine;
  for (LoadedSpec& s : *specs) {
    if (s.path() == path) mine.push_back(std::move(s));
  }
  return mine;
}

absl::StatusOr<std::map<std::string, const LoadedSpec*>> SpecsByOverload(
    const std::vector<LoadedSpec>& specs) {
  std::map<std::string, const LoadedSpec*> by_op;
  for (const LoadedSpec& spec : specs) {
    const std::string op = OverloadToString(spec.op());
    auto [it, fresh] = by_op.emplace(op, &spec);
    if (!fresh) {
      return absl::InvalidArgumentError(absl::StrCat(spec.WhereOp(), ": field 'op': ", op,
                                                     " already has a spec in ",
                                                     it->second->path()));
    }
  }
  return by_op;
}

}  // namespace shrt
