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
