#include "shrt/engine/spec_tree.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "shrt/engine/sample.h"
#include "shrt/ops/overload_name.h"
#include "shrt/vocab/text_proto.h"

namespace shrt {

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

// `text` as an overload name in canonical form ("aten::add.Tensor"), or
// `text` itself when it does not parse (FromText reports that).
std::string Canonical(const std::string& text) {
  absl::StatusOr<c10::OperatorName> name = ParseOverloadName(text);
  return name.ok() ? OverloadToString(*name) : text;
}

// The ops of the spec text's samples_from entries, canonical, each once;
// none for text that does not parse (FromText reports that). An entry
// naming an alias (spec.proto OpSpec.alias) of a spec in `op_of_alias`
// counts as that spec's `op`.
std::vector<std::string> SamplesFrom(const OpSpec& proto,
                                     const std::map<std::string, std::string>& op_of_alias = {}) {
  std::vector<std::string> ops;
  for (const SampleSource& e : proto.samples_from()) {
    std::string op = Canonical(e.op());
    if (auto it = op_of_alias.find(op); it != op_of_alias.end()) op = it->second;
    if (std::find(ops.begin(), ops.end(), op) == ops.end()) ops.push_back(std::move(op));
  }
  return ops;
}

// The names a spec text is found by: its `op` and its aliases, canonical.
std::vector<std::string> Names(const OpSpec& proto) {
  std::vector<std::string> names = {Canonical(proto.op())};
  for (const std::string& a : proto.alias()) names.push_back(Canonical(a));
  return names;
}

// A cycle of samples_from among `from_of` (op -> the ops it takes samples
// from, canonical) through `op`'s sources, as "aten::a", "aten::b",
// "aten::a"; empty when there is none. `path` is the walk so far.
std::vector<std::string> Cycle(const std::string& op,
                               const std::map<std::string, std::vector<std::string>>& from_of,
                               std::vector<std::string>& path) {
  if (std::find(path.begin(), path.end(), op) != path.end()) {
    std::vector<std::string> cycle(std::find(path.begin(), path.end(), op), path.end());
    cycle.push_back(op);
    return cycle;
  }
  auto it = from_of.find(op);
  if (it == from_of.end()) return {};
  path.push_back(op);
  for (const std::string& from : it->second) {
    if (std::vector<std::string> c = Cycle(from, from_of, path); !c.empty()) return c;
  }
  path.pop_back();
  return {};
}

// Loads `paths` in dependency order: a spec after every spec it takes
// samples from (over several passes).
absl::StatusOr<std::vector<LoadedSpec>> LoadGroups(const std::vector<std::string>& paths,
                                                   std::shared_ptr<const RecipeSet> recipes) {
  struct Text {
    std::string path, text;
    std::string op;                 // its op, canonical ("" if it does not parse)
    std::vector<std::string> from;  // SamplesFrom
    bool loaded = false;
  };
  std::vector<Text> texts;
  std::vector<OpSpec> protos;
  std::map<std::string, std::string> op_of_alias;
  for (const std::string& p : paths) {
    absl::StatusOr<std::string> text = ReadFile(p);
    if (!text.ok()) return text.status();
    OpSpec& proto = protos.emplace_back();
    if (!ParseTextProto(*text, "", &proto).ok()) proto.Clear();  // quietly: FromText reports it
    for (const std::string& a : proto.alias()) op_of_alias.emplace(Canonical(a), Canonical(proto.op()));
    texts.push_back({p, *std::move(text), Canonical(proto.op())});
  }
  for (size_t i = 0; i < texts.size(); ++i) texts[i].from = SamplesFrom(protos[i], op_of_alias);
  std::vector<LoadedSpec> groups;
  groups.reserve(texts.size());  // sources are pointed to while loading
  std::map<std::string, size_t> by_op;  // functional overload -> index in groups
  // The loaded specs among t's sources.
  auto sources = [&](const Text& t) {
    std::vector<const LoadedSpec*> out;
    for (const std::string& from : t.from) {
      if (auto it = by_op.find(from); it != by_op.end()) out.push_back(&groups[it->second]);
    }
    return out;
  };
  auto load = [&](Text& t) -> absl::Status {
    absl::StatusOr<LoadedSpec> spec = LoadedSpec::FromText(t.text, t.path, recipes, sources(t));
    if (!spec.ok()) return spec.status();
    if (absl::Status s = CheckFileName(*spec); !s.ok()) return s;
    by_op.emplace(OverloadToString(spec->group().functional), groups.size());  // its `op`
    groups.push_back(*std::move(spec));
    t.loaded = true;
    return absl::OkStatus();
  };
  for (bool progress = true; progress;) {
    progress = false;
    for (Text& t : texts) {
      if (t.loaded || sources(t).size() < t.from.size()) continue;  // a source is not loaded yet
      if (absl::Status s = load(t); !s.ok()) return s;
      progress = true;
    }
  }
  // What is left is on a cycle, or takes samples from a spec that is not
  // in `paths`, directly or through others.
  std::map<std::string, std::vector<std::string>> from_of;  // of those left
  for (const Text& t : texts) {
    if (!t.loaded) from_of[t.op] = t.from;
  }
  for (const Text& t : texts) {
    if (t.loaded) continue;
    std::vector<std::string> path;
    if (std::vector<std::string> cycle = Cycle(t.op, from_of, path); !cycle.empty()) {
      // Named at the spec where it starts: one that only leads into it is
      // not on it.
      const Text& first = *std::find_if(texts.begin(), texts.end(), [&](const Text& u) {
        return !u.loaded && u.op == cycle.front();
      });
      OpSpec proto;
      absl::StatusOr<TextLocations> where = ParseTextProto(first.text, first.path, &proto);
      return FieldError(where->Where({{"samples_from", 0}}, proto), "samples_from",
                        absl::StrCat("a cycle: ", absl::StrJoin(cycle, " -> ")));
    }
  }
  for (Text& t : texts) {
    if (t.loaded) continue;
    bool waits = false;  // on a spec of `paths` that is left too
    for (const std::string& from : t.from) waits = waits || from_of.count(from) > 0;
    if (!waits) {
      if (absl::Status s = load(t); !s.ok()) return s;  // names the missing source
    }
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
  OpSpec proto;
  if (ParseTextProto(*text, "", &proto).ok() && !proto.samples_from().empty()) {
    // The specs below `root` that it takes samples from, directly or
    // through others; LoadGroups reports a missing one, or a cycle.
    std::map<std::string, std::pair<std::string, std::vector<std::string>>> by_op;  // op -> path, SamplesFrom
    absl::StatusOr<std::vector<std::string>> all = SpecPaths(root, DefaultRecipeDir(root));
    for (const std::string& p : all.ok() ? *all : std::vector<std::string>{}) {
      absl::StatusOr<std::string> t = ReadFile(p);
      OpSpec other;
      if (t.ok() && ParseTextProto(*t, p, &other).ok() &&
          std::filesystem::path(p) != std::filesystem::path(path)) {
        for (const std::string& name : Names(other)) {
          by_op.emplace(name, std::make_pair(p, SamplesFrom(other)));
        }
      }
    }
    std::vector<std::string> todo = SamplesFrom(proto);
    while (!todo.empty()) {
      auto it = by_op.find(todo.back());
      todo.pop_back();
      if (it == by_op.end() ||
          std::find(paths.begin(), paths.end(), it->second.first) != paths.end()) {
        continue;
      }
      paths.push_back(it->second.first);
      todo.insert(todo.end(), it->second.second.begin(), it->second.second.end());
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
