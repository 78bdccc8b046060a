#include "shrt/engine/op_report.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "shrt/engine/op_report.pb.h"

namespace shrt {

int OpReport::Count(Verdict v) const {
  return static_cast<int>(
      std::count_if(rules.begin(), rules.end(), [v](const RuleVerdict& r) { return r.verdict == v; }) +
      std::count_if(nd_rules.begin(), nd_rules.end(),
                    [v](const NdRuleVerdict& r) { return r.verdict == v; }));
}

int OpReport::CompositionFailures() const {
  return static_cast<int>(std::count_if(nd_rules.begin(), nd_rules.end(),
                                        [](const NdRuleVerdict& r) { return r.composition; }));
}

OpReport MergeReports(const std::vector<OpReport>& reports) {
  OpReport merged;
  std::map<Rule, RuleVerdict> best;
  std::map<NdRule, NdRuleVerdict> best_nd;
  for (const OpReport& r : reports) {
    if (merged.op.empty()) {
      merged.op = r.op;
      merged.spec_path = r.spec_path;
      merged.world_size = r.world_size;
      merged.mesh = r.mesh;
    }
    merged.samples.insert(merged.samples.end(), r.samples.begin(), r.samples.end());
    for (const std::string& recipe : r.recipes) {
      if (std::find(merged.recipes.begin(), merged.recipes.end(), recipe) == merged.recipes.end()) {
        merged.recipes.push_back(recipe);
      }
    }
    merged.combination_checks += r.combination_checks;
    merged.seconds += r.seconds;
    merged.operator_calls += r.operator_calls;
    merged.operator_seconds += r.operator_seconds;
    if (!r.error.empty()) {
      merged.error = merged.error.empty() ? r.error : absl::StrCat(merged.error, "; ", r.error);
    }
    merged.notes.insert(merged.notes.end(), r.notes.begin(), r.notes.end());
    merged.rejected_samples += r.rejected_samples;
    merged.sampled.insert(merged.sampled.end(), r.sampled.begin(), r.sampled.end());
    merged.crashes.insert(merged.crashes.end(), r.crashes.begin(), r.crashes.end());
    if (merged.first_warning.empty()) merged.first_warning = r.first_warning;
    merged.warning_count += r.warning_count;
    for (const RuleVerdict& v : r.rules) {
      auto [it, fresh] = best.emplace(v.rule, v);
      if (!fresh) it->second = CombineVerdicts(it->second, v);
    }
    for (const NdRuleVerdict& v : r.nd_rules) {
      auto [it, fresh] = best_nd.emplace(v.rule, v);
      if (!fresh && VerdictPrecedence(v.verdict) < VerdictPrecedence(it->second.verdict)) {
        it->second = v;
      }
    }
    if (merged.origins.size() < r.origins.size()) merged.origins.resize(r.origins.size());
    for (size_t o = 0; o < r.origins.size(); ++o) {
      // Unverified < correct < incorrect in strength for origins.
      auto strength = [](Verdict v) { return v == Verdict::kIncorrect ? 2 : v == Verdict::kCorrect; };
      if (strength(r.origins[o].verdict) > strength(merged.origins[o].verdict) ||
          merged.origins[o].evidence.empty()) {
        merged.origins[o] = r.origins[o];
      }
    }
  }
  for (auto& [rule, v] : best) merged.rules.push_back(std::move(v));
  std::sort(merged.rules.begin(), merged.rules.end(), InReportOrder);
  for (auto& [rule, v] : best_nd) merged.nd_rules.push_back(std::move(v));
  std::sort(merged.nd_rules.begin(), merged.nd_rules.end(), InNdReportOrder);
  return merged;
}

std::string RejectsEverySample(const OpReport& report) {
  if (report.rejected_samples == 0 ||
      report.rejected_samples < static_cast<int>(report.samples.size())) {
    return "";
  }
  return absl::StrCat(report.op, " rejects every sample of ", report.spec_path,
                      " (see the notes): exclude it there with a reason");
}

std::string SerializeOpReport(const OpReport& r) {
  wire::OpReport w;
  w.set_op(r.op);
  w.set_spec_path(r.spec_path);
  w.set_world_size(r.world_size);
  for (const SampleSummary& s : r.samples) {
    w.add_sample_names(s.name);
    w.add_sample_descriptions(s.description);
  }
  for (const std::string& recipe : r.recipes) w.add_recipes(recipe);
  w.set_combination_checks(r.combination_checks);
  w.set_seconds(r.seconds);
  for (const RuleVerdict& v : r.rules) {
    wire::RuleVerdict* o = w.add_rules();
    o->set_rule(RuleToString(v.rule));
    o->set_verdict(static_cast<int>(v.verdict));
    o->set_evidence(v.evidence);
    for (const std::string& u : v.unclaimed) o->add_unclaimed(u);
  }
  w.set_error(r.error);
  for (const std::string& n : r.notes) w.add_notes(n);
  w.set_rejected_samples(r.rejected_samples);
  w.set_warning_count(r.warning_count);
  w.set_first_warning(r.first_warning);
  for (const OriginVerdict& v : r.origins) {
    wire::OriginVerdict* o = w.add_origins();
    o->set_verdict(static_cast<int>(v.verdict));
    o->set_evidence(v.evidence);
  }
  for (const OpReport::Declaration& d : r.declarations) {
    wire::Declaration* o = w.add_declarations();
    o->set_placements(d.placements);
    o->set_condition(d.condition);
  }
  w.set_repro(r.repro);
  for (const CaseCrash& c : r.crashes) {
    wire::CaseCrash* o = w.add_crashes();
    o->set_inputs(c.inputs);
    o->set_what(c.what);
  }
  w.set_mesh(r.mesh);
  for (const std::string& n : r.sampled) w.add_sampled(n);
  for (const NdRuleVerdict& v : r.nd_rules) {
    wire::NdRuleVerdict* o = w.add_nd_rules();
    o->set_rule(NdRuleToString(v.rule));
    o->set_verdict(static_cast<int>(v.verdict));
    o->set_composition(v.composition);
    o->set_evidence(v.evidence);
  }
  return w.SerializeAsString();
}

absl::StatusOr<OpReport> ParseOpReport(absl::string_view bytes) {
  wire::OpReport w;
  if (!w.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return absl::InternalError("a worker's report does not parse");
  }
  OpReport r;
  r.op = w.op();
  r.spec_path = w.spec_path();
  r.world_size = w.world_size();
  for (int i = 0; i < w.sample_names_size() && i < w.sample_descriptions_size(); ++i) {
    r.samples.push_back({w.sample_names(i), w.sample_descriptions(i)});
  }
  r.recipes.assign(w.recipes().begin(), w.recipes().end());
  r.combination_checks = w.combination_checks();
  r.seconds = w.seconds();
  for (const wire::RuleVerdict& v : w.rules()) {
    absl::StatusOr<Rule> rule = ParseRule(v.rule());
    if (!rule.ok()) return absl::InternalError(rule.status().message());
    r.rules.push_back({*std::move(rule), static_cast<Verdict>(v.verdict()), v.evidence(),
                       {v.unclaimed().begin(), v.unclaimed().end()}});
  }
  r.error = w.error();
  r.notes.assign(w.notes().begin(), w.notes().end());
  r.rejected_samples = w.rejected_samples();
  r.warning_count = w.warning_count();
  r.first_warning = w.first_warning();
  for (const wire::OriginVerdict& v : w.origins()) {
    r.origins.push_back({static_cast<Verdict>(v.verdict()), v.evidence()});
  }
  for (const wire::Declaration& d : w.declarations()) {
    r.declarations.push_back({d.placements(), d.condition()});
  }
  r.repro = w.repro();
  for (const wire::CaseCrash& c : w.crashes()) r.crashes.push_back({c.inputs(), c.what()});
  r.mesh = w.mesh();
  r.sampled.assign(w.sampled().begin(), w.sampled().end());
  for (const wire::NdRuleVerdict& v : w.nd_rules()) {
    absl::StatusOr<NdRule> rule = ParseNdRule(v.rule());
    if (!rule.ok()) return absl::InternalError(rule.status().message());
    r.nd_rules.push_back(
        {*std::move(rule), static_cast<Verdict>(v.verdict()), v.composition(), v.evidence()});
  }
  return r;
}

}  // namespace shrt
