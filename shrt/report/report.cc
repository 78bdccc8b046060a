#include "shrt/report/report.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/util/json_util.h"
#include "shrt/report/report.pb.h"

namespace shrt {

namespace {

// One line of a report: a concrete rule, or a table rule with its condition.
struct Entry {
  Verdict verdict;
  std::string rule;
  std::string condition;
  std::string evidence;
  bool composition = false;
  std::vector<std::string> unclaimed;  // RuleVerdict::unclaimed of a correct rule
};

constexpr absl::string_view kComposition = "composition failure";

// The report's rules: concrete ones for a registered strategy; for a table,
// its rules as written (incorrect, correct, unverified) plus the concrete
// missing rules.
std::vector<Entry> Entries(const OpReport& op) {
  std::vector<Entry> out;
  for (const NdRuleVerdict& r : op.nd_rules) {
    out.push_back({r.verdict, NdRuleToString(r.rule), "", r.evidence, r.composition});
  }
  if (op.declarations.empty()) {
    for (const RuleVerdict& r : op.rules) {
      out.push_back({r.verdict, RuleToString(r.rule), "", r.evidence, false,
                     r.verdict == Verdict::kCorrect ? r.unclaimed : std::vector<std::string>{}});
    }
    return out;
  }
  for (size_t i = 0; i < op.declarations.size() && i < op.origins.size(); ++i) {
    out.push_back({op.origins[i].verdict, op.declarations[i].placements,
                   op.declarations[i].condition, op.origins[i].evidence});
  }
  for (const RuleVerdict& r : op.rules) {
    if (r.verdict == Verdict::kMissing) out.push_back({r.verdict, RuleToString(r.rule), "", r.evidence});
  }
  return out;
}

// "not claimed on 2 samples where it holds: a, b".
std::string UnclaimedText(const std::vector<std::string>& samples) {
  return absl::StrCat("not claimed on ", samples.size(), samples.size() == 1 ? " sample" : " samples",
                      " where it holds: ", absl::StrJoin(samples, ", "));
}

int CountOf(const OpReport& op, Verdict v) {
  int n = 0;
  for (const Entry& e : Entries(op)) n += e.verdict == v;
  return n;
}

google::protobuf::Value RuleValue(const Entry& e, bool table) {
  google::protobuf::Value v;
  if (!table) {
    v.set_string_value(e.rule);
    return v;
  }
  auto& fields = *v.mutable_struct_value()->mutable_fields();
  fields["rule"].set_string_value(e.rule);
  if (!e.condition.empty()) fields["condition"].set_string_value(e.condition);
  return v;
}

}  // namespace

namespace {

// The command of a report that names none: its overload, by --op.
std::string ReproOf(const OpReport& op) {
  Repro repro;
  repro.op = op.op;
  repro.world_size = op.world_size;
  repro.mesh = op.mesh;
  return ReproCommand(repro);
}

}  // namespace

std::string ReproCommand(const Repro& repro) {
  return absl::StrCat("bazel run ", repro.cli, " -- validate ",
                      repro.spec.empty() ? absl::StrCat("--op=", repro.op)
                                         : absl::StrCat("--spec=", repro.spec),
                      repro.strategies.empty() ? "" : absl::StrCat(" --strategies=", repro.strategies),
                      repro.dtensor ? " --dtensor" : "",
                      repro.dtensor_rules.empty()
                          ? ""
                          : absl::StrCat(" --dtensor_rules=", absl::StrJoin(repro.dtensor_rules, ",")),
                      repro.mesh.empty() ? absl::StrCat(" --world_size=", repro.world_size)
                                         : absl::StrCat(" --mesh=", repro.mesh),
                      repro.load.empty() ? "" : absl::StrCat(" --load=", absl::StrJoin(repro.load, ",")));
}

std::string TextReport(const std::vector<OpReport>& ops, int world_size, double seconds) {
  std::string out;
  for (const OpReport& op : ops) {
    absl::StrAppend(&out, op.op, "  (", op.spec_path, ")\n");
    absl::StrAppend(&out, "  mesh: ",
                    op.mesh.empty() ? absl::StrCat("1-D, world size ", op.world_size)
                                    : absl::StrCat(op.mesh, " (", op.world_size, " ranks)"),
                    "; recipes: ", absl::StrJoin(op.recipes, ", "), "\n");
    absl::StrAppend(&out, "  samples:\n");
    for (const SampleSummary& s : op.samples) {
      absl::StrAppend(&out, "    ", s.name, ": ", s.description, "\n");
    }
    absl::StrAppendFormat(&out, "  %d combination checks in %.2f s", op.combination_checks,
                          op.seconds);
    if (op.operator_calls > 0) {
      absl::StrAppendFormat(&out, "; %d operator calls took %.2f s of it", op.operator_calls,
                            op.operator_seconds);
    }
    absl::StrAppend(&out, "\n");
    if (!op.error.empty()) absl::StrAppend(&out, "  ERROR: ", op.error, "\n");
    for (const std::string& note : op.notes) absl::StrAppend(&out, "  note: ", note, "\n");
    for (const std::string& note : op.sampled) absl::StrAppend(&out, "  note: ", note, "\n");
    if (!op.crashes.empty()) absl::StrAppend(&out, "  crashed (", op.crashes.size(), "):\n");
    for (const CaseCrash& c : op.crashes) absl::StrAppend(&out, "    ", c.what, "\n");
    if (op.warning_count > 0) {
      absl::StrAppend(&out, "  c10 warnings: ", op.warning_count, "; first: ", op.first_warning,
                      "\n");
    }
    for (Verdict v : {Verdict::kIncorrect, Verdict::kMissing, Verdict::kCorrect,
                      Verdict::kUnverified}) {
      const int n = CountOf(op, v);
      if (n == 0) continue;
      const int composition = v == Verdict::kIncorrect ? op.CompositionFailures() : 0;
      const std::string what =
          v == Verdict::kMissing && !op.mesh.empty() ? "missing (filtered out by the expansion, but hold)"
                                                     : std::string(VerdictName(v));
      absl::StrAppend(&out, "  ", what, op.declarations.empty() || v == Verdict::kMissing ? "" : " (table rules)",
                      " (", n, composition > 0 ? absl::StrCat(", ", composition, " of them composition failures") : "",
                      "):\n");
      for (const Entry& e : Entries(op)) {
        if (e.verdict != v) continue;
        if (e.composition) absl::StrAppend(&out, "    [", kComposition, "]");
        absl::StrAppend(&out, e.composition ? " " : "    ", e.rule, e.condition.empty() ? "" : absl::StrCat("  when ", e.condition), "\n");
        if (v != Verdict::kCorrect) absl::StrAppend(&out, "      ", e.evidence, "\n");
        if (!e.unclaimed.empty()) absl::StrAppend(&out, "      ", UnclaimedText(e.unclaimed), "\n");
      }
    }
    if (CountOf(op, Verdict::kIncorrect) > 0 || !op.error.empty() || !op.crashes.empty()) {
      absl::StrAppend(&out, "  reproduce: ",
                      op.repro.empty() ? ReproOf(op) : op.repro, "\n");
    }
    out += "\n";
  }
  size_t width = 2;
  for (const OpReport& op : ops) width = std::max(width, op.op.size());
  const std::string fmt = absl::StrCat("%-", width, "s | %7s | %9s | %7s | %8s\n");
  auto row = [&](absl::string_view a, absl::string_view b, absl::string_view c,
                 absl::string_view d, absl::string_view e) {
    absl::StrAppend(&out, absl::StrFormat(*absl::ParsedFormat<'s', 's', 's', 's', 's'>::New(fmt),
                                          a, b, c, d, e));
  };
  row("Op", "Correct", "Incorrect", "Missing", "Time");
  out += std::string(width + 45, '-') + "\n";
  int totals[3] = {0, 0, 0};
  int64_t checks = 0;
  for (const OpReport& op : ops) {
    const int c = CountOf(op, Verdict::kCorrect), i = CountOf(op, Verdict::kIncorrect),
              m = CountOf(op, Verdict::kMissing);
    totals[0] += c;
    totals[1] += i;
    totals[2] += m;
    checks += op.combination_checks;
    row(op.op + (op.error.empty() ? "" : " (error)") + (op.crashes.empty() ? "" : " (crashed)"),
        absl::StrCat(c), absl::StrCat(i),
        absl::StrCat(m), absl::StrFormat("%.2fs", op.seconds));
  }
  out += std::string(width + 45, '-') + "\n";
  row(absl::StrCat(ops.size(), " overloads"), absl::StrCat(totals[0]), absl::StrCat(totals[1]),
      absl::StrCat(totals[2]), absl::StrFormat("%.2fs", seconds));
  const std::string mesh = ops.empty() ? "" : ops.front().mesh;
  absl::StrAppendFormat(&out, "%s; %d combination checks in %.2f s\n",
                        mesh.empty() ? absl::StrCat("world size ", world_size)
                                     : absl::StrCat("mesh ", mesh, " (", world_size, " ranks)"),
                        checks, seconds);
  return out;
}

ValidationReport ReportProto(const std::vector<OpReport>& ops, int world_size, double seconds) {
  ValidationReport report;
  report.set_world_size(world_size);
  report.set_seconds(seconds);
  if (!ops.empty()) report.set_mesh(ops.front().mesh);
  for (const OpReport& op : ops) {
    OpVerdicts* v = report.add_ops();
    v->set_op(op.op);
    v->set_combination_checks(op.combination_checks);
    v->set_seconds(op.seconds);
    v->set_operator_calls(static_cast<int32_t>(op.operator_calls));
    v->set_operator_seconds(op.operator_seconds);
    v->set_error(op.error);
    v->set_repro(op.repro.empty() ? ReproOf(op) : op.repro);
    for (const std::string& note : op.notes) v->add_notes(note);
    for (const std::string& note : op.sampled) v->add_notes(note);
    v->set_warning_count(static_cast<int32_t>(op.warning_count));
    v->set_first_warning(op.first_warning);
    for (const CaseCrash& c : op.crashes) {
      CrashedCase* crashed = v->add_crashed();
      crashed->set_inputs(c.inputs);
      crashed->set_evidence(c.what);
    }
    const bool table = !op.declarations.empty();
    for (const Entry& e : Entries(op)) {
      switch (e.verdict) {
        case Verdict::kCorrect:
          *v->add_correct() = RuleValue(e, table);
          if (!e.unclaimed.empty()) (*v->mutable_unclaimed())[e.rule] = UnclaimedText(e.unclaimed);
          break;
        case Verdict::kMissing: *v->add_missing() = RuleValue(e, false); break;
        case Verdict::kUnverified: *v->add_unverified() = RuleValue(e, table); break;
        case Verdict::kIncorrect: {
          IncorrectRule* i = v->add_incorrect();
          i->set_rule(e.rule);
          i->set_evidence(e.evidence);
          i->set_condition(e.condition);
          if (e.composition) i->set_category(std::string(kComposition));
          break;
        }
      }
    }
  }
  return report;
}

std::string ReportJson(const ValidationReport& report) {
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  options.always_print_primitive_fields = true;
  options.add_whitespace = true;
  std::string json;
  // Printing a well-formed message cannot fail.
  (void)google::protobuf::util::MessageToJsonString(report, &json, options);
  return json + "\n";
}

}  // namespace shrt
