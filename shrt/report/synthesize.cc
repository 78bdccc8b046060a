#include "shrt/report/synthesize.h"

#include <algorithm>
#include <map>
#include <set>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "shrt/ops/overload_name.h"
#include "shrt/strategies/table.h"

namespace shrt {
namespace {

constexpr const char* kVarNames[] = {"d", "e", "f", "g"};

// Argument values as synthesis sees them: normalised dim ints and dim sets.
struct ArgFacts {
  std::map<std::string, int64_t> dim_ints;                // int args named *dim*
  std::map<std::string, std::set<int64_t>> dim_lists;     // int-list args
  std::vector<std::string> bools;                         // bool args
  std::vector<std::string> tensors;                       // tensor args
};

ArgFacts Facts(const OpArgs& args) {
  ArgFacts f;
  const int64_t rank = args.inputs().empty() ? 0 : args.inputs()[0].ndim();
  for (const OpArg& a : args.args()) {
    if (const auto* i = std::get_if<int64_t>(&a.value); i && absl::StrContains(a.name, "dim")) {
      f.dim_ints[a.name] = *i < 0 ? *i + rank : *i;
    } else if (const auto* l = std::get_if<std::vector<int64_t>>(&a.value)) {
      for (int64_t x : *l) f.dim_lists[a.name].insert(x < 0 ? x + rank : x);
    } else if (std::holds_alternative<bool>(a.value)) {
      f.bools.push_back(a.name);
    } else if (std::holds_alternative<TensorMeta>(a.value)) {
      f.tensors.push_back(a.name);
    }
  }
  return f;
}

std::string SideText(const std::vector<std::string>& side) { return absl::StrJoin(side, ", "); }

// Placement texts of `rule` with shard dims given by `dim_text(position, k)`.
std::string RuleText(const Rule& rule, const std::function<std::string(bool, size_t, int64_t)>& dim_text) {
  std::vector<std::string> in, out;
  for (size_t i = 0; i < rule.inputs.size(); ++i) {
    const Placement& p = rule.inputs[i];
    in.push_back(p.is_shard() ? absl::StrCat("S(", dim_text(true, i, p.dim()), ")") : p.ToString());
  }
  for (size_t i = 0; i < rule.outputs.size(); ++i) {
    const Placement& p = rule.outputs[i];
    out.push_back(p.is_shard() ? absl::StrCat("S(", dim_text(false, i, p.dim()), ")") : p.ToString());
  }
  return absl::StrCat(SideText(in), " -> ", SideText(out));
}

struct Template {
  std::string text;
  std::vector<std::string> vars;
};

// The symbolic templates of one concrete rule on one sample.
std::vector<Template> Templates(const Rule& rule, const ArgFacts& facts) {
  std::vector<Template> out;
  // Input dims as variables, in order of first appearance.
  std::map<int64_t, std::string> var_of;
  for (const Placement& p : rule.inputs) {
    if (p.is_shard() && !var_of.count(p.dim()) && var_of.size() < std::size(kVarNames)) {
      var_of.emplace(p.dim(), kVarNames[var_of.size()]);
    }
  }
  // How an output dim k relates to the input variables.
  auto relate = [&](int64_t k) -> std::string {
    if (auto it = var_of.find(k); it != var_of.end()) return it->second;
    for (const auto& [kv, v] : var_of) {
      for (const auto& [name, set] : facts.dim_lists) {
        const int64_t below = std::count_if(set.begin(), set.end(), [&](int64_t x) { return x < kv; });
        if (!set.count(kv) && kv - below == k && below > 0) return absl::StrCat(v, " - count_lt(", name, ", ", v, ")");
      }
      for (const auto& [name, a] : facts.dim_ints) {
        if (kv > a && kv - 1 == k) return absl::StrCat(v, " - (", v, " > ", name, ")");
      }
    }
    for (const auto& [name, a] : facts.dim_ints) {
      if (a == k) return name;
    }
    return absl::StrCat(k);
  };
  auto vars_used = [&](const std::string& text) {
    std::vector<std::string> vs;
    for (const auto& [k, v] : var_of) {
      if (absl::StrContains(text, absl::StrCat("S(", v))) vs.push_back(v);
    }
    return vs;
  };
  // 1. Variables for inputs, related dims for outputs.
  std::string t1 = RuleText(rule, [&](bool input, size_t, int64_t k) {
    return input ? var_of.count(k) ? var_of[k] : absl::StrCat(k) : relate(k);
  });
  out.push_back({t1, vars_used(t1)});
  // 2. Dim arguments wherever a dim equals one, variables elsewhere.
  std::string t2 = RuleText(rule, [&](bool input, size_t, int64_t k) {
    for (const auto& [name, a] : facts.dim_ints) {
      if (a == k) return name;
    }
    return input ? var_of.count(k) ? var_of[k] : absl::StrCat(k) : relate(k);
  });
  out.push_back({t2, vars_used(t2)});
  // 3. Literal dims.
  out.push_back({RuleToString(rule), {}});
  return out;
}

// Condition atoms about `vars` and the sample's arguments.
std::vector<std::string> Atoms(const std::vector<std::string>& vars, const ArgFacts& facts) {
  std::vector<std::string> atoms;
  for (const std::string& v : vars) {
    for (const auto& [name, set] : facts.dim_lists) {
      atoms.push_back(absl::StrCat(v, " in ", name));
      atoms.push_back(absl::StrCat("!(", v, " in ", name, ")"));
    }
    for (const auto& [name, a] : facts.dim_ints) {
      atoms.push_back(absl::StrCat(v, " == ", name));
      atoms.push_back(absl::StrCat(v, " != ", name));
    }
    for (size_t x = 0; x < facts.tensors.size(); ++x) {
      for (size_t y = x + 1; y < facts.tensors.size(); ++y) {
        atoms.push_back(absl::StrCat("size(", facts.tensors[x], ", ", v, ") == size(",
                                     facts.tensors[y], ", ", v, ")"));
      }
    }
  }
  for (const std::string& b : facts.bools) {
    atoms.push_back(b);
    atoms.push_back(absl::StrCat("!", b));
  }
  return atoms;
}

// Conditions: none, then conjunctions of 1 to 3 atoms, simplest first.
std::vector<std::string> Conditions(const std::vector<std::string>& atoms) {
  std::vector<std::string> out = {""};
  const size_t n = atoms.size();
  for (size_t a = 0; a < n; ++a) out.push_back(atoms[a]);
  for (size_t a = 0; a < n; ++a) {
    for (size_t b = a + 1; b < n; ++b) out.push_back(absl::StrCat(atoms[a], " && ", atoms[b]));
  }
  if (n <= 12) {
    for (size_t a = 0; a < n; ++a) {
      for (size_t b = a + 1; b < n; ++b) {
        for (size_t c = b + 1; c < n; ++c) {
          out.push_back(absl::StrCat(atoms[a], " && ", atoms[b], " && ", atoms[c]));
        }
      }
    }
  }
  return out;
}

}  // namespace

absl::StatusOr<Synthesis> Synthesize(const c10::OperatorName& op,
                                     const std::vector<SampleTruth>& truths, int world_size) {
  // Every (sample, valid rule) pair to explain, and what holds per sample.
  std::vector<absl::flat_hash_set<Rule>> holds(truths.size()), valid(truths.size());
  for (size_t s = 0; s < truths.size(); ++s) {
    for (Rule& r : truths[s].Holds()) holds[s].insert(std::move(r));
    for (Rule& r : truths[s].Valid()) valid[s].insert(std::move(r));
  }
  // Candidates (placements, condition), each checked once.
  struct Candidate {
    std::string placements, condition;
    std::set<std::pair<size_t, Rule>> covers;
    int atoms = 0;
    bool literal = false;
  };
  std::vector<Candidate> sound;
  std::set<std::pair<std::string, std::string>> tried;
  const std::string name = OverloadToString(op);
  for (size_t s = 0; s < truths.size(); ++s) {
    const ArgFacts facts = Facts(truths[s].args());
    for (const Rule& rule : truths[s].Valid()) {
      for (const Template& t : Templates(rule, facts)) {
        for (const std::string& cond : Conditions(Atoms(t.vars, facts))) {
          if (!tried.emplace(t.text, cond).second) continue;
          StrategyTable proto;
          TableOp* op_proto = proto.add_op();
          op_proto->set_name(name);
          TableRule* rule_proto = op_proto->add_rule();
          rule_proto->set_placements(t.text);
          rule_proto->set_condition(cond);
          absl::StatusOr<StrategyTableFile> table = StrategyTableFile::FromProto(proto, "synthesis");
          if (!table.ok()) continue;  // e.g. a condition naming a variable the template lacks
          Candidate c{t.text, cond, {}, static_cast<int>(std::count(cond.begin(), cond.end(), '&') / 2 + !cond.empty()),
                      t.vars.empty()};
          bool ok = true;
          for (size_t u = 0; u < truths.size() && ok; ++u) {
            absl::StatusOr<std::vector<TableInstance>> inst =
                table->ops()[0]->Instantiate(truths[u].args(), world_size);
            if (!inst.ok()) {
              ok = false;
              break;
            }
            for (const TableInstance& i : *inst) {
              if (!holds[u].count(i.rule)) {
                ok = false;
                break;
              }
              if (valid[u].count(i.rule)) c.covers.emplace(u, i.rule);
            }
          }
          if (ok && !c.covers.empty()) sound.push_back(std::move(c));
        }
      }
    }
  }
  // Greedy cover: most new pairs first; fewer atoms, then variables over
  // literals, on ties.
  Synthesis out;
  std::set<std::pair<size_t, Rule>> covered;
  while (true) {
    const Candidate* best = nullptr;
    int best_gain = 0;
    for (const Candidate& c : sound) {
      int gain = 0;
      for (const auto& p : c.covers) gain += !covered.count(p);
      const bool better = gain > best_gain ||
                          (gain == best_gain && gain > 0 && best != nullptr &&
                           std::tie(c.atoms, c.literal) < std::tie(best->atoms, best->literal));
      if (better) {
        best = &c;
        best_gain = gain;
      }
    }
    if (best == nullptr) break;
    covered.insert(best->covers.begin(), best->covers.end());
    out.rules.push_back({best->placements, best->condition, best_gain});
  }
  for (size_t s = 0; s < truths.size(); ++s) {
    std::vector<Rule> left;
    for (const Rule& r : truths[s].Valid()) {
      if (!covered.count({s, r})) left.push_back(r);
    }
    if (!left.empty()) out.uncovered.emplace_back(truths[s].name(), std::move(left));
  }
  return out;
}

}  // namespace shrt
