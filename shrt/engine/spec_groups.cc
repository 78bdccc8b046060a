// LoadedSpec's op groups (spec_loader.h): `op`'s and its aliases'
// (spec.proto OpSpec.alias), the overloads of theirs that get checked, and
// the fields that name those overloads or explain their rules (`exclude`,
// `missing`, `crash`).
#include "shrt/engine/spec_loader.h"

#include <algorithm>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "shrt/ops/overload_name.h"
#include "shrt/vocab/mesh.h"
#include "shrt/vocab/placement.h"

namespace shrt {

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
    absl::StatusOr<c10::OperatorName> name =
        ParseOverloadField(proto_.alias(a), where, field, /*must_exist=*/true);
    if (!name.ok()) return name.status();
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
    absl::StatusOr<c10::OperatorName> name =
        ParseOverloadField(x.op(), where, field + ".op", /*must_exist=*/false);
    if (!name.ok()) return name.status();
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

}  // namespace shrt
