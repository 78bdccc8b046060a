#include "tools/validate_command.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "shrt/engine/spec_tree.h"
#include "shrt/engine/validate.h"
#include "shrt/ops/op_lookup.h"
#include "shrt/ops/overload_name.h"
#include "shrt/report/html_report.h"
#include "shrt/report/report.h"
#include "shrt/report/table_claims.h"
#include "shrt/vocab/atomic_file.h"
#include "shrt/vocab/mesh.h"
#include "shrt/vocab/printable.h"
#include "tools/dtensor/ask_dtensor.h"
#include "tools/dtensor/unjudged.h"
#include "tools/progress.h"

namespace shrt {
namespace {

absl::StatusOr<std::vector<LoadedSpec>> LoadSpecFiles(const ValidateCommand& cmd) {
  absl::StatusOr<RecipeSet> recipes = RecipeSet::FromDir(cmd.recipe_dir);
  if (!recipes.ok()) return recipes.status();
  auto shared = std::make_shared<const RecipeSet>(*std::move(recipes));
  std::vector<LoadedSpec> specs;
  for (const std::string& path : cmd.specs) {
    // Every checked overload of the file's op group.
    absl::StatusOr<std::vector<LoadedSpec>> group = LoadSpecFile(path, shared, cmd.spec_dir);
    if (!group.ok()) return group.status();
    for (LoadedSpec& spec : *group) specs.push_back(std::move(spec));
  }
  return specs;
}

// Checks before the run that the --html file can be written: its directory
// exists and is writable, and what is at the path (if anything) is a
// readable file. Returns what it holds, for WriteFileAtomically.
absl::StatusOr<FileSnapshot> CheckHtmlPath(const std::string& path) {
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  if (dir.empty()) dir = ".";
  if (access(dir.c_str(), W_OK | X_OK) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": directory ", dir.string(), " does not exist or is not writable"));
  }
  return ReadSnapshot(path);
}

// The DTensor registrations an `--all` run does not judge: those without a
// spec in `by_op`, or none of whose samples DTensor was asked about
// (tools/dtensor/unjudged.h), with the spec tree's exclusions and
// not_checkable file. Errors: the file's.
absl::StatusOr<std::vector<UnjudgedRegistration>> Unjudged(
    const DTensorClaims& dtensor, const std::map<std::string, const LoadedSpec*>& by_op,
    const std::string& spec_dir) {
  absl::StatusOr<NotCheckableFile> not_checkable = NotCheckableFileOf(spec_dir);
  if (!not_checkable.ok()) return not_checkable.status();
  std::set<std::string> judged, unasked;
  std::map<std::string, std::string> excluded;
  for (const auto& [op, spec] : by_op) {
    absl::StatusOr<c10::OperatorName> name = ParseOverloadName(op);
    (name.ok() && dtensor.NoneAsked(*name) ? unasked : judged).insert(op);
    for (const ExcludedVariant& x : spec->proto().exclude()) excluded[x.op()] = x.reason();
  }
  return UnjudgedRegistrations(dtensor.Registered(), judged, unasked, excluded, *not_checkable);
}

}  // namespace

int UsageError(std::ostream& err, absl::string_view command, absl::string_view message) {
  err << "shrt" << (command.empty() ? "" : " ") << Printable(command) << ": " << Printable(message)
      << "\n";
  return kExitUsage;
}

int RunValidate(const ValidateCommand& cmd, const StrategyRegistry& registry, std::ostream& out,
                std::ostream& err) {
  auto usage = [&](absl::string_view message) { return UsageError(err, "validate", message); };
  if (cmd.all + !cmd.ops.empty() + !cmd.specs.empty() != 1) {
    return usage("give exactly one of --op=OVERLOAD[,...], --all and --spec=FILE[,...]");
  }
  if (cmd.format != "text" && cmd.format != "json") {
    return usage(absl::StrCat("--format: unknown format '", cmd.format, "' (text or json)"));
  }
  if (absl::StatusOr<Mesh> mesh = Mesh::Create(cmd.world_size); !mesh.ok()) {
    return usage(absl::StrCat("--world_size: ", mesh.status().message()));
  }
  std::optional<MeshShape> mesh;
  if (!cmd.mesh.empty()) {
    absl::StatusOr<MeshShape> m = MeshShape::Parse(cmd.mesh);
    if (!m.ok()) return usage(absl::StrCat("--mesh: ", m.status().message()));
    mesh = *m;
  }
  if (cmd.dtensor && !cmd.strategies.empty()) {
    return usage("give at most one of --strategies and --dtensor");
  }
  if (!cmd.dtensor && !cmd.dtensor_rules.empty()) {
    return usage("--dtensor_rules: only with --dtensor");
  }
  if (cmd.redraws < 1) return usage("--redraws: must be at least 1");
  if (cmd.call_time_limit <= absl::ZeroDuration()) {
    return usage("--call_time_limit: must be positive, e.g. 60s");
  }
  if (cmd.jobs < 0) {
    return usage(absl::StrCat("--jobs: ", cmd.jobs, " is negative (0 means one per core)"));
  }
  if (absl::Status s = registry.Check(); !s.ok()) return usage(s.message());
  FileSnapshot html_before;
  if (!cmd.html.empty()) {
    absl::StatusOr<FileSnapshot> read = CheckHtmlPath(cmd.html);
    if (!read.ok()) return usage(absl::StrCat("--html: ", read.status().message()));
    html_before = *std::move(read);
  }

  std::vector<c10::OperatorName> names;
  for (const std::string& text : cmd.ops) {
    absl::StatusOr<c10::OperatorName> name = ParseOverloadName(text);
    if (!name.ok()) return usage(absl::StrCat("--op: ", name.status().message()));
    if (absl::Status s = CheckOverloadExists(*name); !s.ok()) {
      return usage(absl::StrCat("--op: ", s.message()));
    }
    names.push_back(*name);
  }
  absl::StatusOr<std::vector<LoadedSpec>> specs =
      cmd.specs.empty() ? LoadSpecTree(cmd.spec_dir, cmd.recipe_dir) : LoadSpecFiles(cmd);
  if (!specs.ok()) return usage(specs.status().message());
  absl::StatusOr<std::map<std::string, const LoadedSpec*>> indexed = SpecsByOverload(*specs);
  if (!indexed.ok()) return usage(indexed.status().message());
  const std::map<std::string, const LoadedSpec*>& by_op = *indexed;

  std::optional<StrategyTableFile> table;
  if (!cmd.strategies.empty()) {
    absl::StatusOr<StrategyTableFile> t = StrategyTableFile::FromFile(cmd.strategies);
    if (!t.ok()) return usage(absl::StrCat("--strategies: ", t.status().message()));
    table = *std::move(t);
  }
  ValidateOptions options;
  options.world_size = cmd.world_size;
  options.seed = cmd.seed;
  options.partial_redraws = cmd.redraws;
  IsolationOptions isolation;
  isolation.jobs = std::max(1, cmd.jobs > 0 ? cmd.jobs
                                            : static_cast<int>(std::thread::hardware_concurrency()));
  isolation.call_time_limit = cmd.call_time_limit;
  const auto start = std::chrono::steady_clock::now();
  std::optional<DTensorClaims> dtensor;
  if (cmd.dtensor) {
    // Every overload the run may validate is asked about.
    std::vector<const LoadedSpec*> asked;
    if (cmd.all) {
      for (const auto& [op, spec] : by_op) asked.push_back(spec);
    }
    if (!cmd.specs.empty()) {
      for (const LoadedSpec& spec : *specs) asked.push_back(&spec);
    }
    for (const c10::OperatorName& name : names) {
      auto it = by_op.find(OverloadToString(name));
      if (it != by_op.end()) asked.push_back(it->second);
    }
    const DTensorAsk ask{cmd.dtensor_program, cmd.load, cmd.dtensor_rules, mesh,
                         /*list_registered=*/cmd.all};
    absl::StatusOr<DTensorClaims> claims = AskDTensor(ask, asked, options, isolation);
    if (!claims.ok()) return usage(absl::StrCat("--dtensor: ", claims.status().message()));
    dtensor = *std::move(claims);
  }
  // Whether `op` has claims: DTensor's with --dtensor, in the table with
  // --strategies (listed, or inherited from its functional overload:
  // TableEntry), else registered.
  auto has_claims = [&](const c10::OperatorName& op) {
    if (dtensor) return dtensor->HasRules(op);
    return table ? table->Lookup(op).strategy != nullptr : registry.Contains(op);
  };
  if (table && cmd.all) {
    // --all checks every table entry that has a spec; one without a spec is
    // never checked, which the user asking for all must hear (a warning:
    // a table may also serve other spec trees).
    const std::vector<const TableStrategy*> entries = table->ops();
    for (size_t i = 0; i < entries.size(); ++i) {
      const std::string op = OverloadToString(entries[i]->op());
      if (by_op.count(op) > 0) continue;
      err << "shrt validate: warning: "
          << Printable(absl::StrCat(entries[i]->where(), ": field 'op[", i, "].name': ", op,
                                    " has no spec below ", cmd.spec_dir,
                                    "/; its rules are not checked"))
          << "\n";
    }
  }
  std::vector<const LoadedSpec*> targets;
  if (!cmd.specs.empty()) {
    for (const LoadedSpec& spec : *specs) targets.push_back(&spec);
  }
  // With --dtensor --all: the overloads DTensor was asked about and has no
  // strategy for. One it was not asked about is validated, to report why.
  std::vector<std::string> without_strategy;
  std::vector<UnjudgedRegistration> unjudged;
  if (dtensor && cmd.all) {
    absl::StatusOr<std::vector<UnjudgedRegistration>> u = Unjudged(*dtensor, by_op, cmd.spec_dir);
    if (!u.ok()) return usage(u.status().message());
    unjudged = *std::move(u);
  }
  if (cmd.all) {
    for (const auto& [op, spec] : by_op) {
      if (has_claims(spec->op()) || (dtensor && !dtensor->Asked(spec->op()))) {
        targets.push_back(spec);
      } else if (dtensor) {
        without_strategy.push_back(op);
      }
    }
  }
  for (const c10::OperatorName& name : names) {
    auto it = by_op.find(OverloadToString(name));
    if (it == by_op.end()) {
      return usage(absl::StrCat("--op: ", OverloadToString(name), " has no spec in ",
                                cmd.spec_dir, "/"));
    }
    targets.push_back(it->second);
  }

  // One overload's report; overloads run in parallel (ATen intra-op
  // threads stay at 1), each on its own spec, strategy and table entry.
  // What every report of `spec`'s overload starts with, also the report of
  // a validation that cannot finish (ValidateIsolated).
  auto header = [&](const LoadedSpec* spec) {
    OpReport r;
    r.op = OverloadToString(spec->op());
    r.spec_path = spec->path();
    r.world_size = mesh ? mesh->size() : cmd.world_size;
    if (mesh) r.mesh = mesh->ToString();
    Repro repro;
    repro.spec = spec->path();
    if (table) repro.strategies = cmd.strategies;
    repro.dtensor = cmd.dtensor;
    repro.dtensor_rules = cmd.dtensor_rules;
    repro.world_size = cmd.world_size;
    repro.mesh = r.mesh;
    repro.load = cmd.load;
    r.repro = ReproCommand(repro);
    return r;
  };
  auto validate_one = [&](const LoadedSpec* spec) -> absl::StatusOr<OpReport> {
    const c10::OperatorName op = spec->op();
    const bool has_strategy = has_claims(op);
    absl::StatusOr<OpReport> report;
    if (mesh) {
      // The registered single-dim rules expanded to the mesh as DTensor
      // expands them, the table's (its N-D rules as written), or DTensor's
      // own N-D rules as it accepts them at run time.
      RuleSource registered = [&](const OpArgs& args) -> absl::StatusOr<std::vector<Rule>> {
        if (!has_strategy) return std::vector<Rule>{};
        return registry.Query(op, args);
      };
      ValidateOptions o = options;
      NdClaimSource claims = ExpandedClaims(registered, *mesh);
      if (dtensor) {
        o.skip = dtensor->Unasked(op);
        claims = has_strategy ? dtensor->NdRules(op)
                              : [](const OpArgs&) -> absl::StatusOr<NdClaims> { return NdClaims{}; };
      } else if (table && has_strategy) {
        claims = TableNdClaims(table->Lookup(op), *mesh);
      }
      // DTensor was asked, and a table's N-D rules are written, for whole
      // samples: their list ops are judged whole (list_elements.h).
      o.split_list_elements = !dtensor && !table;
      report = ValidateOnMesh(*spec, claims, *mesh, o);
    } else if (table && has_strategy) {
      const TableEntry entry = table->Lookup(op);
      const TableStrategy& t = *entry.strategy;
      report = ValidateClaims(*spec, TableClaims(entry), t.proto().rule_size(), options);
      if (report.ok()) {
        for (const TableRule& r : t.proto().rule()) {
          report->declarations.push_back({r.placements(), r.condition()});
        }
        for (const auto& [j, rule] : t.nd_rules()) {
          if (j < static_cast<int>(report->origins.size())) {
            report->origins[j] = {Verdict::kUnverified, "an N-D rule: checked with --mesh"};
          }
        }
      }
    } else {
      const RuleSource dtensor_rules = dtensor ? dtensor->Rules(op) : RuleSource();
      RuleSource source = [&](const OpArgs& args) -> absl::StatusOr<std::vector<Rule>> {
        if (!has_strategy) return std::vector<Rule>{};
        return dtensor ? dtensor_rules(args) : registry.Query(op, args);
      };
      ValidateOptions o = options;
      if (dtensor) {
        o.skip = dtensor->Unasked(op);
        o.named_placements = dtensor->NamedOnlyPlacements(op);
      }
      report = ValidateOp(*spec, source, o);
    }
    if (!report.ok()) return report;
    report->repro = header(spec).repro;
    if (dtensor) {
      for (std::string& note : dtensor->Notes(op)) report->notes.push_back(std::move(note));
      report->seconds += dtensor->AskSeconds(op);
    }
    if (!has_strategy) {
      report->error =
          dtensor ? absl::StrCat(dtensor->source(),
                                 !dtensor->Asked(op) ? " was not asked about it: no sample binds "
                                                       "and runs on the full inputs"
                                                     : " has no strategy for it",
                                 "; every valid rule is missing")
          : table ? absl::StrCat("not in ", cmd.strategies, "; every valid rule is missing")
                  : "no strategy is registered; every valid rule is missing";
    }
    return report;
  };
  // Overloads run in crash-isolated worker processes (shrt/engine/isolation.h;
  // ATen intra-op threads stay at 1): an operator that crashes makes its
  // overload *crashed*, the other overloads are unaffected.
  isolation.jobs = std::max(1, std::min<int>(isolation.jobs, static_cast<int>(targets.size())));
  absl::StatusOr<std::vector<absl::StatusOr<OpReport>>> isolated;
  {
    Progress progress(static_cast<int>(targets.size()), cmd.quiet ? nullptr : stderr);
    isolated = ValidateIsolated(
        static_cast<int>(targets.size()), [&](int i) { return validate_one(targets[i]); },
        [&](int i) { return header(targets[i]); }, isolation,
        [&](int) { progress.Done(); });
  }
  if (!isolated.ok()) return usage(isolated.status().message());
  std::vector<absl::StatusOr<OpReport>>& results = *isolated;
  std::vector<OpReport> reports;
  bool failing = false;
  for (size_t i = 0; i < targets.size(); ++i) {
    absl::StatusOr<OpReport>& report = results[i];
    if (!report.ok()) return usage(report.status().message());
    const bool has_strategy = has_claims(targets[i]->op());
    for (const OriginVerdict& v : report->origins) {
      failing = failing || v.verdict == Verdict::kIncorrect;
    }
    failing = failing || report->Count(Verdict::kIncorrect) > 0 ||
              (has_strategy && !report->error.empty()) ||
              !UnexplainedCrashes(*targets[i], report->crashes, report->world_size).empty();
    reports.push_back(*std::move(report));
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const int ranks = mesh ? mesh->size() : cmd.world_size;
  // The overloads judged whose DTensor rules are its decomposition path's.
  std::set<std::string> decomposed;
  if (dtensor) {
    for (const LoadedSpec* spec : targets) {
      if (dtensor->Registration(spec->op()) == "decomposition") {
        decomposed.insert(OverloadToString(spec->op()));
      }
    }
  }
  // The JSON is made only when printed or embedded in the HTML page.
  std::string json;
  if (cmd.format == "json" || !cmd.html.empty()) {
    ValidationReport proto = ReportProto(reports, ranks, seconds);
    if (dtensor) proto.set_strategy_source(dtensor->source());
    for (const std::string& op : without_strategy) proto.add_without_strategy(op);
    for (const UnjudgedRegistration& u : unjudged) {
      ValidationReport::Unjudged* entry = proto.add_unjudged();
      entry->set_op(u.op);
      entry->set_reason(u.reason);
    }
    for (const std::string& op : decomposed) proto.add_decomposed(op);
    json = ReportJson(proto);
  }
  if (cmd.format == "json") {
    out << json;
  } else {
    out << TextReport(reports, ranks, seconds);
    if (dtensor) out << "rules: " << dtensor->source() << "\n";
    if (!without_strategy.empty()) {
      out << dtensor->source() << " has no strategy for " << without_strategy.size()
          << " overloads with a spec: " << absl::StrJoin(without_strategy, ", ") << "\n";
    }
    if (!decomposed.empty()) {
      out << dtensor->source() << " registers no rule for " << decomposed.size()
          << " of the overloads judged: their rules are those its decomposition path derives "
             "at run time\n";
    }
    if (!unjudged.empty()) {
      out << dtensor->source() << " registers rules for " << unjudged.size()
          << " overloads not judged here, by reason:\n";
      for (const std::string& line : UnjudgedLines(unjudged)) out << "  " << line << "\n";
    }
  }
  if (!cmd.html.empty()) {
    out.flush();
    if (absl::Status s = WriteFileAtomically(cmd.html, html_before, RenderHtmlReport(json));
        !s.ok()) {
      return usage(absl::StrCat("--html: ", s.message()));
    }
  }
  return failing ? kExitIncorrect : kExitOk;
}

}  // namespace shrt
