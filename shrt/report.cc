#include "shrt/report.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/util/json_util.h"
#include "shrt/report.pb.h"

namespace shrt {

std::string ReproCommand(const std::string& op, int world_size) {
  return absl::StrCat("bazel run //tools:shrt -- validate --op=", op,
                      " --world_size=", world_size);
}

std::string TextReport(const std::vector<OpReport>& ops, int world_size, double seconds) {
  std::string out;
  for (const OpReport& op : ops) {
    absl::StrAppend(&out, op.op, "  (", op.spec_path, ")\n");
    absl::StrAppend(&out, "  mesh: 1-D, world size ", op.world_size, "; recipes: ",
                    absl::StrJoin(op.recipes, ", "), "\n");
    absl::StrAppend(&out, "  samples:\n");
    for (const SampleSummary& s : op.samples) {
      absl::StrAppend(&out, "    ", s.name, ": ", s.description, "\n");
    }
    absl::StrAppendFormat(&out, "  %d combination checks in %.2f s\n", op.combination_checks,
                          op.seconds);
    if (!op.error.empty()) absl::StrAppend(&out, "  ERROR: ", op.error, "\n");
    for (Verdict v : {Verdict::kIncorrect, Verdict::kMissing, Verdict::kCorrect,
                      Verdict::kUnverified}) {
      const int n = op.Count(v);
      if (n == 0) continue;
      absl::StrAppend(&out, "  ", VerdictName(v), " (", n, "):\n");
      for (const RuleVerdict& r : op.rules) {
        if (r.verdict != v) continue;
        absl::StrAppend(&out, "    ", RuleToString(r.rule), "\n");
        if (v != Verdict::kCorrect) absl::StrAppend(&out, "      ", r.evidence, "\n");
      }
    }
    if (op.Count(Verdict::kIncorrect) > 0 || !op.error.empty()) {
      absl::StrAppend(&out, "  reproduce: ", ReproCommand(op.op, op.world_size), "\n");
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
    const int c = op.Count(Verdict::kCorrect), i = op.Count(Verdict::kIncorrect),
              m = op.Count(Verdict::kMissing);
    totals[0] += c;
    totals[1] += i;
    totals[2] += m;
    checks += op.combination_checks;
    row(op.op + (op.error.empty() ? "" : " (error)"), absl::StrCat(c), absl::StrCat(i),
        absl::StrCat(m), absl::StrFormat("%.2fs", op.seconds));
  }
  out += std::string(width + 45, '-') + "\n";
  row(absl::StrCat(ops.size(), " overloads"), absl::StrCat(totals[0]), absl::StrCat(totals[1]),
      absl::StrCat(totals[2]), absl::StrFormat("%.2fs", seconds));
  absl::StrAppendFormat(&out, "world size %d; %d combination checks in %.2f s\n", world_size,
                        checks, seconds);
  return out;
}

std::string JsonReport(const std::vector<OpReport>& ops, int world_size, double seconds) {
  ValidationReport report;
  report.set_world_size(world_size);
  report.set_seconds(seconds);
  for (const OpReport& op : ops) {
    OpVerdicts* v = report.add_ops();
    v->set_op(op.op);
    v->set_combination_checks(op.combination_checks);
    v->set_seconds(op.seconds);
    v->set_error(op.error);
    for (const RuleVerdict& r : op.rules) {
      const std::string text = RuleToString(r.rule);
      switch (r.verdict) {
        case Verdict::kCorrect: v->add_correct(text); break;
        case Verdict::kMissing: v->add_missing(text); break;
        case Verdict::kUnverified: v->add_unverified(text); break;
        case Verdict::kIncorrect: {
          IncorrectRule* i = v->add_incorrect();
          i->set_rule(text);
          i->set_evidence(r.evidence);
          break;
        }
      }
    }
  }
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
