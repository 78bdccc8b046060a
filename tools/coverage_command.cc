#include "tools/coverage_command.h"

#include <algorithm>
#include <map>

#include <filesystem>

#include "ATen/core/dispatch/Dispatcher.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/util/json_util.h"
#include "shrt/engine/spec_tree.h"
#include "shrt/report/checkability.h"
#include "shrt/report/coverage.h"
#include "tools/validate_command.h"

namespace shrt {
namespace {

// The spec's family: its directory below `root` ("" at the root).
std::string FamilyOf(const std::string& path, const std::string& root) {
  const std::filesystem::path rel =
      std::filesystem::path(path).lexically_relative(root).parent_path();
  return rel.empty() ? "" : rel.begin()->string();
}

void Table(std::ostream& out, const char* title, bool with_overloads,
           const google::protobuf::RepeatedPtrField<CoverageGroup>& groups) {
  out << absl::StrFormat("%-20s | %9s | %5s | %8s | %7s\n", title,
                         with_overloads ? "Overloads" : "", "Spec", "Strategy", "Checked");
  CoverageGroup total;
  for (const CoverageGroup& g : groups) {
    out << absl::StrFormat("%-20s | %9s | %5d | %8d | %7d\n", g.name().empty() ? "(root)" : g.name(),
                           with_overloads ? absl::StrCat(g.overloads()) : "", g.with_spec(),
                           g.with_strategy(), g.checked());
    total.set_overloads(total.overloads() + g.overloads());
    total.set_with_spec(total.with_spec() + g.with_spec());
    total.set_with_strategy(total.with_strategy() + g.with_strategy());
    total.set_checked(total.checked() + g.checked());
  }
  out << absl::StrFormat("%-20s | %9s | %5d | %8d | %7d\n\n", "total",
                         with_overloads ? absl::StrCat(total.overloads()) : "", total.with_spec(),
                         total.with_strategy(), total.checked());
}

// Checked, not checkable (by category) and not yet covered, per namespace.
void Accounting(std::ostream& out, const CoverageReport& report) {
  out << absl::StrFormat("%-20s | %9s | %7s | %13s | %15s\n", "Namespace", "Overloads", "Checked",
                         "Not checkable", "Not yet covered");
  for (const CoverageGroup& g : report.namespaces()) {
    out << absl::StrFormat("%-20s | %9d | %7d | %13d | %15d\n", g.name(), g.overloads(),
                           g.checked(), g.not_checkable(), g.not_yet_covered());
  }
  out << "\nNot checkable here, by category (shrt/report/checkability.h):\n";
  for (const CategoryCount& c : report.not_checkable()) {
    out << absl::StrFormat("  %-22s %5d\n", c.category(), c.overloads());
  }
  out << "\n";
}

void List(std::ostream& out, const std::string& title,
          const google::protobuf::RepeatedPtrField<std::string>& names,
          absl::string_view indent = "") {
  out << indent << title << " (" << names.size() << ")" << (names.empty() ? "\n" : ":\n");
  for (const std::string& n : names) out << indent << "  " << n << "\n";
}

}  // namespace

int RunCoverage(const CoverageCommand& cmd, const StrategyRegistry& registry, std::ostream& out,
                std::ostream& err) {
  if (cmd.format != "text" && cmd.format != "json") {
    return UsageError(err, "coverage", absl::StrCat("--format must be text or json, not '", cmd.format, "'"));
  }
  if (absl::Status st = registry.Check(); !st.ok()) {
    return UsageError(err, "coverage", st.message());
  }
  absl::StatusOr<std::vector<LoadedSpec>> specs = LoadSpecTree(cmd.spec_dir, cmd.recipe_dir);
  if (!specs.ok()) {
    return UsageError(err, "coverage", specs.status().message());
  }
  std::vector<SpecEntry> entries;
  std::map<std::string, std::string> excluded;  // overload -> reason
  for (const LoadedSpec& s : *specs) {
    entries.push_back({s.op(), FamilyOf(s.path(), cmd.spec_dir)});
    for (const ExcludedVariant& x : s.proto().exclude()) excluded[x.op()] = x.reason();
  }
  // The overloads the schema facts do not classify (DATA_DEPENDENT_SHAPE,
  // ...); a spec tree without the file (a custom op's) has none.
  absl::StatusOr<NotCheckableFile> not_checkable = NotCheckableFileOf(cmd.spec_dir);
  if (!not_checkable.ok()) {
    return UsageError(err, "coverage", not_checkable.status().message());
  }
  std::vector<DispatcherOverload> dispatcher;
  for (const c10::OperatorName& name : c10::Dispatcher::singleton().getAllOpNames()) {
    const c10::optional<c10::OperatorHandle> op = c10::Dispatcher::singleton().findSchema(name);
    if (!op.has_value()) continue;  // a name registered without a schema yet
    dispatcher.push_back({name, CategoryOf(*op, *not_checkable)});
  }
  CoverageReport report =
      ComputeCoverage(dispatcher, registry.Overloads(), entries, cmd.ns, cmd.uncovered);
  // A variant its group's spec excludes is accounted for, with its reason.
  auto* unspecced = report.mutable_strategy_without_spec();
  unspecced->erase(std::remove_if(unspecced->begin(), unspecced->end(),
                                  [&](const std::string& op) { return excluded.count(op) > 0; }),
                   unspecced->end());
  for (const auto& [op, reason] : excluded) report.add_excluded(absl::StrCat(op, ": ", reason));
  if (!cmd.ns.empty() && report.namespaces().empty()) {
    return UsageError(err, "coverage",
                      absl::StrCat("--namespace: the dispatcher has no overload in '", cmd.ns, "'"));
  }
  if (cmd.format == "json") {
    std::string json;
    google::protobuf::util::JsonPrintOptions o;
    o.add_whitespace = true;
    o.always_print_primitive_fields = true;
    o.preserve_proto_field_names = true;
    (void)google::protobuf::util::MessageToJsonString(report, &json, o);
    out << json;
    return kExitOk;
  }
  out << "Coverage of the dispatcher's overloads (specs below " << cmd.spec_dir << ")\n\n";
  Accounting(out, report);
  Table(out, "Namespace", true, report.namespaces());
  Table(out, "Family", false, report.families());
  List(out, "Strategy without a spec, never checked", report.strategy_without_spec());
  List(out, "Spec without a strategy, ground truth only", report.spec_without_strategy());
  List(out, "Excluded by their group's spec", report.excluded());
  if (cmd.uncovered) {
    out << "Not yet covered (checkable, not checked)" << (cmd.ns.empty() ? "" : " in " + cmd.ns)
        << " (" << report.uncovered_size() << "), by family:\n";
    for (const UncoveredFamily& f : report.uncovered_families()) {
      List(out, f.family(), f.overloads(), "  ");
    }
  }
  return kExitOk;
}

}  // namespace shrt
