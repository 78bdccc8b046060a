// Loading op specs (spec.proto) from protobuf text files, with errors that
// name the file, line and field. A spec file describes an op group
// (op_group.h) and the groups of its aliases (spec.proto OpSpec.alias);
// LoadedSpec::ForOverload gives the spec of one overload of those groups,
// which is what the validator runs.
#ifndef SHRT_ENGINE_SPEC_LOADER_H_
#define SHRT_ENGINE_SPEC_LOADER_H_

#include <memory>
#include <string>
#include <vector>

#include "ATen/core/operator_name.h"
#include "absl/container/flat_hash_map.h"
#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "shrt/ops/op_group.h"
#include "shrt/spec/recipes.h"
#include "shrt/spec/spec.pb.h"
#include "shrt/vocab/text_proto.h"

namespace shrt {

// A parsed, checked spec, the recipes it may use, and where each of its
// fields came from; bound to one overload of its groups (at first the
// spec's own `op`).
class LoadedSpec {
 public:
  // Parses `text` as the content of `path`. `samples_from` holds the loaded
  // specs that the proto's samples_from entries may name (each loaded with
  // its own sources), any others are ignored: the samples of the entries
  // come first (spec.proto OpSpec.samples_from).
  // Errors (every message starts "<path>:<line>"):
  //   NotFound          `op`, an `alias`, an `exclude` or a `missing`
  //                     entry's `op` names no overload the dispatcher
  //                     knows (close matches are suggested);
  //   InvalidArgument   a syntax error or unknown field, a malformed `op`, no
  //                     sample, a sample name that is not an identifier or is
  //                     repeated, a recipe `recipes` lacks, an
  //                     `arg_recipe` entry without `arg` or `recipe` or
  //                     naming an argument another entry names, a world size
  //                     outside [2, 64], a sweep with no values, with two
  //                     kinds of values, or naming an argument twice; an
  //                     `alias` whose group has an overload that `op`'s
  //                     group or an earlier alias's has (`op` itself, an
  //                     alias named twice, a variant of either); an
  //                     `exclude` entry that names no in-place or out=
  //                     variant of the groups or has no reason; a
  //                     `missing` entry whose rule does not parse, is
  //                     listed twice, has no reason, or names an overload
  //                     outside the groups; a samples_from
  //                     entry that names a spec which was not given, or a
  //                     sample that spec lacks, or names one twice, or
  //                     whose `recipe` or `arg_recipe` entry is unknown,
  //                     repeated or reaches no tensor input that names no
  //                     recipe of its own, or whose `rename` entry lacks
  //                     `arg` or `to`, repeats either, names no argument
  //                     of the taken samples or gives one argument twice;
  //                     two different samples of one name;
  //   FailedPrecondition the dispatcher's schemas make a group ambiguous.
  // Schema checks (argument names, types, arity) happen when a sample is
  // bound (sample.h).
  static absl::StatusOr<LoadedSpec> FromText(absl::string_view text, const std::string& path,
                                             std::shared_ptr<const RecipeSet> recipes,
                                             const std::vector<const LoadedSpec*>& samples_from = {});
  // As FromText, reading `path`. Errors: also NotFound if it cannot be read.
  static absl::StatusOr<LoadedSpec> FromFile(const std::string& path,
                                             std::shared_ptr<const RecipeSet> recipes,
                                             const std::vector<const LoadedSpec*>& samples_from = {});

  // The proto, with the samples of its samples_from entries first.
  const OpSpec& proto() const { return proto_; }
  const std::string& path() const { return locations_.path(); }
  // The overload this spec runs: the spec's `op`, or another of overloads()
  // after ForOverload.
  const c10::OperatorName& op() const { return op_; }
  // The group of op() (op_group.h): `op`'s, or an alias's (spec.proto
  // OpSpec.alias).
  const OpGroup& group() const { return groups_[group_index_]; }
  // The overloads that get checked: each group's Overloads() minus the
  // `exclude`d ones, group by group (`op`'s first), functional first.
  std::vector<c10::OperatorName> overloads() const;
  // This spec bound to `name`, one of overloads(). Errors: NotFound
  // otherwise.
  absl::StatusOr<LoadedSpec> ForOverload(const c10::OperatorName& name) const;
  // True when op() is an in-place or out= variant of its group's
  // functional overload: a sample it rejects on full inputs is then a
  // finding about the variant, not a bad spec (validate.h).
  bool is_variant() const { return !(op_ == group().functional); }
  // True for a sample argument that op() does not take because it is an
  // out= argument of the group's out= variant (e.g. `out`, to choose the
  // out= tensor's dtype): only that variant gets it.
  bool IgnoresArgument(absl::string_view name) const;
  // The paths of the specs this one takes samples from, directly or
  // through theirs, each once, in dependency order: a spec after every spec
  // it takes samples from (the farthest first). Empty without samples_from.
  std::vector<std::string> samples_from_paths() const;
  const RecipeSet& recipes() const { return *recipes_; }
  // The world sizes to check: proto().world_sizes(), or {4} when empty.
  std::vector<int> world_sizes() const;

  // "<path>:<line>" of the field naming op()'s group (`op`, or the
  // `alias` entry of an alias's group), of the `local_shape_arg` field, of
  // `arg_recipe` entry `r`, of sample `s`, of argument `a` of sample `s`,
  // of sweep `w` of sample `s` (in the spec that writes it, for samples
  // taken from samples_from), of `missing` entry `m` and of `crash` entry
  // `c`.
  std::string WhereOp() const;
  std::string WhereLocalShapeArg() const;
  std::string WhereArgRecipe(int r) const;
  std::string WhereSample(int s) const;
  std::string WhereArg(int s, int a) const;
  std::string WhereSweep(int s, int w) const;
  std::string WhereMissing(int m) const;
  std::string WhereCrash(int c) const;

 private:
  LoadedSpec(OpSpec proto, TextLocations locations, std::shared_ptr<const RecipeSet> recipes)
      : proto_(std::move(proto)), locations_(std::move(locations)), recipes_(std::move(recipes)) {}
  // Where sample `s` of proto() is: in its own file, or in the file of the
  // spec that writes it.
  std::string WhereInSample(int s, std::initializer_list<std::pair<absl::string_view, int>> rest) const;
  // Parses `text`, the overload name of field `field` at `where`.
  // Errors: InvalidArgument "<where>: field '<field>': ..." for a name
  // ParseOverloadName refuses; with `must_exist`, NotFound in that form
  // for an overload the registry lacks (CheckOverloadExists's message).
  static absl::StatusOr<c10::OperatorName> ParseOverloadField(absl::string_view text,
                                                              absl::string_view where,
                                                              absl::string_view field,
                                                              bool must_exist);
  // Finds the groups of `op` and of each `alias` (FromText's alias errors).
  absl::Status FindGroups();
  absl::Status CheckGroupFields();
  // The overloads of `group` that are not `exclude`d, functional first.
  std::vector<c10::OperatorName> CheckedOverloads(const OpGroup& group) const;
  // True when `functional` is the functional overload of one of groups_:
  // a samples_from entry may name the spec by `op` or by an alias.
  bool ChecksGroupOf(const c10::OperatorName& functional) const;
  // Puts the samples the samples_from entries name, taken from `given`,
  // before proto_'s own, and records every sample's origin (FromText's
  // samples_from errors).
  absl::Status TakeSamples(const std::vector<const LoadedSpec*>& given);
  // OK for an empty `name` or one `recipes_` has; else the error
  // "<where>: field '<field>': " followed by RecipeSet::Find's message.
  absl::Status CheckRecipe(const std::string& name, const std::string& where,
                           const std::string& field) const;
  // Checks `entries` (an OpSpec's or a SampleSource's arg_recipe, reported
  // as `field`[r] at where_of(r)): an argument and a known recipe each,
  // one entry per argument; fills `by_arg` with argument -> recipe.
  absl::Status CheckArgRecipes(const google::protobuf::RepeatedPtrField<ArgRecipe>& entries,
                               absl::FunctionRef<std::string(int)> where_of, const std::string& field,
                               absl::flat_hash_map<std::string, std::string>* by_arg) const;

  OpSpec proto_;
  TextLocations locations_;
  std::shared_ptr<const RecipeSet> recipes_;
  c10::OperatorName op_{"", ""};
  // The groups this spec checks: `op`'s, then each alias's in the order of
  // the `alias` entries.
  std::vector<OpGroup> groups_{OpGroup{}};
  int group_index_ = 0;  // op_'s group in groups_
  // Where each sample of proto_ comes from: a spec it takes samples from
  // (with its own sources) and the sample's index there, or nullptr and
  // the index among this file's own samples.
  struct Origin {
    std::shared_ptr<const LoadedSpec> spec;
    int index = 0;
  };
  std::vector<Origin> origins_;
  // The specs the samples_from entries name, in order of first mention.
  std::vector<std::shared_ptr<const LoadedSpec>> sources_;
};

}  // namespace shrt

#endif  // SHRT_ENGINE_SPEC_LOADER_H_
