#include "tools/discover_command.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/util/json_util.h"
#include "shrt/engine/ground_truth.h"
#include "shrt/engine/isolation.h"
#include "shrt/engine/sample.h"
#include "shrt/engine/spec_tree.h"
#include "shrt/engine/validate.h"
#include "shrt/ops/op_lookup.h"
#include "shrt/ops/overload_name.h"
#include "shrt/report/report.pb.h"
#include "shrt/report/synthesize.h"
#include "shrt/strategies/table.pb.h"
#include "shrt/vocab/atomic_file.h"
#include "shrt/vocab/mesh.h"
#include "shrt/vocab/text_proto.h"
#include "tools/dtensor/torch_python.h"
#include "tools/validate_command.h"

namespace shrt {
namespace {

std::string SweepText(const Sweep& w) {
  std::vector<std::string> values;
  for (int64_t v : w.int_values()) values.push_back(absl::StrCat(v));
  for (bool v : w.bool_values()) values.push_back(v ? "True" : "False");
  for (double v : w.float_values()) values.push_back(absl::StrCat(v));
  for (const IntList& l : w.int_lists()) values.push_back(absl::StrCat("[", absl::StrJoin(l.value(), ", "), "]"));
  for (const BoolList& l : w.bool_lists()) {
    values.push_back(absl::StrCat("[", absl::StrJoin(l.value(), ", ", [](std::string* out, bool b) {
                                    out->append(b ? "True" : "False");
                                  }), "]"));
  }
  if (w.include_none()) values.push_back("None");
  return absl::StrCat(w.name(), ": ", absl::StrJoin(values, ", "));
}

// The recipes the samples of `spec` use, in first-use order.
std::vector<std::string> RecipesUsed(const LoadedSpec& spec) {
  std::vector<std::string> out;
  for (int s = 0; s < spec.proto().sample_size(); ++s) {
    absl::StatusOr<std::vector<BoundSample>> bound = BoundSample::BindAll(spec, s);
    if (!bound.ok()) continue;
    for (const BoundSample& b : *bound) {
      for (const InputSpec& in : b.inputs()) {
        if (std::find(out.begin(), out.end(), in.recipe) == out.end()) out.push_back(in.recipe);
      }
    }
  }
  return out;
}

DiscoveryReport MakeReport(const LoadedSpec& spec, const std::vector<SampleTruth>& truths,
                           const Synthesis& syn, int world_size, double seconds) {
  DiscoveryReport r;
  r.set_op(OverloadToString(spec.op()));
  r.set_world_size(world_size);
  r.set_spec(spec.path());
  for (const std::string& name : RecipesUsed(spec)) {
    std::vector<std::string> gens;
    if (absl::StatusOr<const Recipe*> recipe = spec.recipes().Find(name); recipe.ok()) {
      for (const Generator& g : (*recipe)->generator()) gens.push_back(g.name());
    }
    r.add_recipes(absl::StrCat(name, ": ", absl::StrJoin(gens, ", ")));
  }
  for (const Sample& s : spec.proto().sample()) {
    for (const Sweep& w : s.sweep()) r.add_sweeps(absl::StrCat(s.name(), ": ", SweepText(w)));
  }
  for (const SampleTruth& truth : truths) {
    DiscoveredSample* s = r.add_samples();
    s->set_name(truth.name());
    s->set_description(truth.description());
    for (const Rule& v : truth.Valid()) s->add_valid(RuleToString(v));
    for (const auto& [name, rules] : syn.uncovered) {
      if (name != s->name()) continue;
      for (const Rule& v : rules) s->add_not_generalised(RuleToString(v));
    }
  }
  for (const SynthesizedRule& sr : syn.rules) {
    DiscoveredRule* d = r.add_rules();
    d->set_placements(sr.placements);
    d->set_condition(sr.condition);
    d->set_explains(sr.covers);
  }
  int64_t checks = 0;
  for (const SampleTruth& truth : truths) {
    checks += truth.combination_checks();
    for (const CaseCrash& c : truth.crashes()) {
      CrashedCase* crashed = r.add_crashed();
      crashed->set_inputs(c.inputs);
      crashed->set_evidence(c.what);
    }
  }
  r.set_combination_checks(static_cast<int32_t>(checks));
  r.set_seconds(seconds);
  return r;
}

std::string Text(const DiscoveryReport& r) {
  std::string out = absl::StrCat(r.op(), "  (", r.spec(), ")\n  mesh: 1-D, world size ",
                                 r.world_size(), "\n  generators:\n");
  for (const std::string& g : r.recipes()) absl::StrAppend(&out, "    ", g, "\n");
  if (!r.sweeps().empty()) {
    absl::StrAppend(&out, "  swept:\n");
    for (const std::string& s : r.sweeps()) absl::StrAppend(&out, "    ", s, "\n");
  }
  if (r.crashed_size() > 0) absl::StrAppend(&out, "  crashed (", r.crashed_size(), "):\n");
  for (const CrashedCase& c : r.crashed()) absl::StrAppend(&out, "    ", c.evidence(), "\n");
  absl::StrAppend(&out, "  samples (shapes, dtypes, arguments):\n");
  for (const DiscoveredSample& s : r.samples()) {
    absl::StrAppend(&out, "    ", s.name(), ": ", s.description(), "\n");
  }
  absl::StrAppend(&out, "  ", r.combination_checks(), " combination checks in ",
                  absl::StrFormat("%.2f", r.seconds()), " s\n\n");
  // Every valid rule, with the samples it holds on.
  std::map<std::string, int> valid;
  for (const DiscoveredSample& s : r.samples()) {
    for (const std::string& v : s.valid()) ++valid[v];
  }
  absl::StrAppend(&out, "valid rules (", valid.size(), " distinct; on how many of ", r.samples_size(),
                  " samples):\n");
  for (const auto& [rule, n] : valid) absl::StrAppend(&out, "  ", rule, "   [", n, "]\n");
  absl::StrAppend(&out, "\nrules (each re-checked on every case of every sample):\n");
  for (const DiscoveredRule& d : r.rules()) {
    absl::StrAppend(&out, "  ", d.placements(), d.condition().empty() ? "" : absl::StrCat("  when ", d.condition()),
                    "   [explains ", d.explains(), "]\n");
  }
  bool header = false;
  for (const DiscoveredSample& s : r.samples()) {
    if (s.not_generalised().empty()) continue;
    if (!header) absl::StrAppend(&out, "\nvalid on one sample, not generalised:\n");
    header = true;
    absl::StrAppend(&out, "  ", s.name(), ": ", absl::StrJoin(s.not_generalised(), "; "), "\n");
  }
  return out;
}

StrategyTable Table(const DiscoveryReport& r) {
  StrategyTable t;
  TableOp* op = t.add_op();
  op->set_name(r.op());
  for (const DiscoveredRule& d : r.rules()) {
    TableRule* rule = op->add_rule();
    rule->set_placements(d.placements());
    rule->set_condition(d.condition());
  }
  return t;
}

std::string TextProto(const DiscoveryReport& r) {
  std::string body;
  google::protobuf::TextFormat::PrintToString(Table(r), &body);
  std::string left;
  for (const DiscoveredSample& s : r.samples()) {
    if (s.not_generalised().empty()) continue;
    absl::StrAppend(&left, "#   ", s.name(), ": ", absl::StrJoin(s.not_generalised(), "; "), "\n");
  }
  return absl::StrCat("# proto-file: shrt/strategies/table.proto\n# proto-message: shrt.StrategyTable\n",
                      "# Discovered by `shrt discover --op=", r.op(), " --world_size=", r.world_size(),
                      " --format=textproto` on ", r.spec(), ".\n",
                      left.empty() ? "" : absl::StrCat("# Valid on one sample, not generalised:\n", left),
                      body);
}

std::string Cc(const DiscoveryReport& r) {
  std::string table;
  google::protobuf::TextFormat::PrintToString(Table(r), &table);
  const std::string fn = absl::StrCat(absl::StrReplaceAll(r.op(), {{"::", "_"}, {".", "_"}}), "_table");
  return absl::StrCat(
      "// Discovered by `shrt discover --op=", r.op(), " --world_size=", r.world_size(),
      " --format=cc` on ", r.spec(), ".\n",
      "// Paste into a strategy source (its library depends on //shrt/strategies:strategy_api and //shrt/strategies:table).\n",
      "#include \"shrt/strategies/registry.h\"\n#include \"shrt/strategies/table.h\"\n\nnamespace shrt {\nnamespace {\n\n",
      "const TableStrategy& ", fn, "() {\n",
      "  static const auto* file = new StrategyTableFile(*StrategyTableFile::FromText(R\"pb(\n", table,
      ")pb\", \"", r.op(), " (discovered)\"));\n  return *file->ops()[0];\n}\n\n",
      "SHRT_REGISTER_STRATEGY(\"", r.op(), "\", [](const OpArgs& args) { return ", fn,
      "().Rules(args); });\n\n}  // namespace\n}  // namespace shrt\n");
}

// The report as a DTensor single-dim strategy in Python: `program`
// (python_strategy.py) run on its JSON under the torch's interpreter.
// Errors: the program's last stderr line when it fails.
absl::StatusOr<std::string> Python(const DiscoveryReport& r, const std::string& program) {
  std::string dir = absl::StrCat(std::getenv("TMPDIR") != nullptr ? std::getenv("TMPDIR") : "/tmp",
                                 "/shrt_discover_XXXXXX");
  if (mkdtemp(dir.data()) == nullptr) return absl::InternalError(absl::StrCat(dir, ": cannot create a directory"));
  struct Cleanup {
    std::string dir;
    ~Cleanup() {
      std::error_code ignored;
      std::filesystem::remove_all(dir, ignored);
    }
  } cleanup{dir};
  google::protobuf::util::JsonPrintOptions o;
  o.preserve_proto_field_names = true;
  std::string json;
  (void)google::protobuf::util::MessageToJsonString(r, &json, o);
  const PythonStreams streams{dir + "/report.json", dir + "/strategy.py", dir + "/stderr"};
  if (absl::Status s = WriteFileAtomically(streams.stdin_path, FileSnapshot{}, json); !s.ok()) return s;
  absl::StatusOr<PythonExit> exit = RunTorchPython(program, {}, streams);
  if (!exit.ok()) return exit.status();
  if (exit->signaled || exit->code != 0) {
    absl::StatusOr<std::string> err = ReadFile(streams.stderr_path);
    const std::string last = err.ok() ? LastLine(*err, "python_strategy") : "";
    return absl::InvalidArgumentError(last.empty() ? absl::StrCat(program, " failed") : last);
  }
  return ReadFile(streams.stdout_path);
}

}  // namespace

int RunDiscover(const DiscoverCommand& cmd, std::ostream& out, std::ostream& err) {
  auto usage = [&](absl::string_view message) { return UsageError(err, "discover", message); };
  if (cmd.op.empty() == cmd.spec.empty()) return usage("give exactly one of --op=OVERLOAD and --spec=FILE");
  const std::vector<std::string> formats = {"text", "json", "textproto", "cc", "python"};
  if (std::find(formats.begin(), formats.end(), cmd.format) == formats.end()) {
    return usage(absl::StrCat("--format: unknown format '", cmd.format, "' (",
                              absl::StrJoin(formats.begin(), formats.end() - 1, ", "), " or ",
                              formats.back(), ")"));
  }
  if (absl::StatusOr<Mesh> m = Mesh::Create(cmd.world_size); !m.ok()) {
    return usage(absl::StrCat("--world_size: ", m.status().message()));
  }
  if (cmd.call_time_limit <= absl::ZeroDuration()) {
    return usage("--call_time_limit: must be positive, e.g. 60s");
  }
  std::optional<LoadedSpec> spec;
  if (!cmd.spec.empty()) {
    absl::StatusOr<RecipeSet> recipes = RecipeSet::FromDir(cmd.recipe_dir);
    if (!recipes.ok()) return usage(recipes.status().message());
    // The spec's own op (discovery takes one overload: the group's first).
    absl::StatusOr<std::vector<LoadedSpec>> s = LoadSpecFile(
        cmd.spec, std::make_shared<const RecipeSet>(*std::move(recipes)), cmd.spec_dir);
    if (!s.ok()) return usage(s.status().message());
    spec = std::move(s->front());
  } else {
    absl::StatusOr<c10::OperatorName> name = ParseOverloadName(cmd.op);
    if (!name.ok()) return usage(absl::StrCat("--op: ", name.status().message()));
    if (absl::Status s = CheckOverloadExists(*name); !s.ok()) return usage(absl::StrCat("--op: ", s.message()));
    absl::StatusOr<std::vector<LoadedSpec>> specs = LoadSpecTree(cmd.spec_dir, cmd.recipe_dir);
    if (!specs.ok()) return usage(specs.status().message());
    absl::StatusOr<std::map<std::string, const LoadedSpec*>> by_op = SpecsByOverload(*specs);
    if (!by_op.ok()) return usage(by_op.status().message());
    if (auto it = by_op->find(OverloadToString(*name)); it != by_op->end()) spec = *it->second;
    if (!spec) {
      return usage(absl::StrCat("--op: ", OverloadToString(*name), " has no spec in ", cmd.spec_dir,
                                "/ (give one with --spec=FILE)"));
    }
  }
  TruthOptions options;
  options.world_size = cmd.world_size;
  options.seed = cmd.seed;
  options.partial_redraws = cmd.redraws;
  const auto start = std::chrono::steady_clock::now();
  // In a crash-isolated worker (shrt/engine/isolation.h): an operator that
  // crashes is reported, its other cases still judged.
  IsolationOptions isolation;
  isolation.call_time_limit = cmd.call_time_limit;
  absl::StatusOr<std::vector<TaskOutcome>> outcome = RunIsolated(
      1,
      [&](int) -> absl::StatusOr<std::string> {
        absl::StatusOr<std::vector<SampleTruth>> truths = SpecTruth(*spec, options);
        if (!truths.ok()) return truths.status();
        absl::StatusOr<Synthesis> syn = Synthesize(spec->op(), *truths, cmd.world_size);
        if (!syn.ok()) return syn.status();
        return MakeReport(*spec, *truths, *syn, cmd.world_size,
                          std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
                              .count())
            .SerializeAsString();
      },
      isolation);
  if (!outcome.ok()) return usage(outcome.status().message());
  const absl::StatusOr<std::string>& result = outcome->front().result;
  if (!result.ok() && result.status().code() != absl::StatusCode::kInternal) {
    return usage(result.status().message());
  }
  if (!result.ok()) {  // the run could not finish (isolation.h TaskOutcome)
    err << "shrt discover: " << result.status().message() << "\n";
    for (const CallCrash& c : outcome->front().crashes) {
      err << "  crashed: " << c.reason << " at operator call #" << c.call << "\n";
    }
    return kExitIncorrect;
  }
  DiscoveryReport report;
  if (!report.ParseFromString(*result)) return usage("a worker's report does not parse");
  if (cmd.format == "json") {
    google::protobuf::util::JsonPrintOptions o;
    o.preserve_proto_field_names = true;
    o.always_print_primitive_fields = true;
    o.add_whitespace = true;
    std::string json;
    (void)google::protobuf::util::MessageToJsonString(report, &json, o);
    out << json;
  } else if (cmd.format == "textproto") {
    out << TextProto(report);
  } else if (cmd.format == "cc") {
    out << Cc(report);
  } else if (cmd.format == "python") {
    absl::StatusOr<std::string> python = Python(report, cmd.python_strategy_program);
    if (!python.ok()) return usage(absl::StrCat("--format=python: ", python.status().message()));
    out << *python;
  } else {
    out << Text(report);
  }
  std::vector<CaseCrash> crashes;
  for (const CrashedCase& c : report.crashed()) crashes.push_back({c.inputs(), c.evidence()});
  return UnexplainedCrashes(*spec, crashes, cmd.world_size).empty() ? kExitOk : kExitIncorrect;
}

}  // namespace shrt
