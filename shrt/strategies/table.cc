#include "shrt/strategies/table.h"

#include <cmath>
#include <optional>
#include <set>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "muParser.h"
#include "shrt/ops/op_group.h"
#include "shrt/ops/op_lookup.h"
#include "shrt/ops/overload_name.h"
#include "shrt/strategies/table_expr.h"
#include "shrt/vocab/text_proto.h"

namespace shrt {

using table_internal::Assignment;
using table_internal::EvalContext;
using table_internal::EvalTableExpr;
using table_internal::Identifiers;
using table_internal::kFunctions;
using table_internal::kWorldSize;
using table_internal::MakeTableParser;
using table_internal::ParserError;
using table_internal::SplitTopLevel;

struct TableStrategy::Compiled {
  // One side's placement: R, P(op), or S(expr) with its parser.
  struct Sym {
    Placement fixed = Placement::Replicate();
    std::string expr;  // non-empty for S
    std::unique_ptr<mu::Parser> parser;
    std::set<std::string> used;
  };
  std::unique_ptr<EvalContext> ctx = std::make_unique<EvalContext>();
  std::vector<Sym> inputs, outputs;
  std::vector<std::string> free_vars;
  std::unique_ptr<mu::Parser> condition;
  std::set<std::string> condition_used;
  // "<path>:<line>" of the rule and its field, "op[i].rule[j]": errors of
  // a sample's instantiation name them as load errors do.
  std::string where;
  std::string field;
  bool nd = false;  // an N-D rule (TableStrategy::nd_rules), never instantiated

  std::unique_ptr<mu::Parser> MakeParser(const std::string& expr) {
    return MakeTableParser(expr, *ctx);
  }

  // Evaluates `p`; nullopt when it reads an unusable (None) argument.
  absl::StatusOr<std::optional<double>> Eval(mu::Parser& p, const std::set<std::string>& used) {
    return EvalTableExpr(p, used, *ctx);
  }
};

TableStrategy::TableStrategy(TableOp proto, c10::OperatorName op)
    : proto_(std::move(proto)), op_(std::move(op)) {}
TableStrategy::~TableStrategy() = default;
TableStrategy::TableStrategy(TableStrategy&&) noexcept = default;

absl::StatusOr<std::vector<TableInstance>> TableStrategy::Instantiate(const OpArgs& args,
                                                                      int world_size) const {
  std::vector<TableInstance> out;
  int64_t max_rank = 1;
  for (const auto* metas : {&args.inputs(), &args.outputs()}) {
    for (const TensorMeta& m : *metas) max_rank = std::max(max_rank, m.ndim());
  }
  const int64_t first_rank = args.inputs().empty() ? 0 : args.inputs()[0].ndim();
  for (size_t r = 0; r < rules_.size(); ++r) {
    Compiled& c = *rules_[r];
    if (c.nd || c.inputs.size() != args.inputs().size() ||
        c.outputs.size() != args.outputs().size()) {
      continue;
    }
    EvalContext& ctx = *c.ctx;
    ctx.shapes.clear();
    ctx.unusable.clear();
    *ctx.vars[std::string(kWorldSize)] = world_size;
    for (const OpArg& a : args.args()) {
      auto var = ctx.vars.find(a.name);
      if (var == ctx.vars.end()) continue;
      double& v = *var->second;
      const bool is_dim = absl::StrContains(a.name, "dim");
      if (const auto* b = std::get_if<bool>(&a.value)) {
        v = *b;
      } else if (const auto* i = std::get_if<int64_t>(&a.value)) {
        v = static_cast<double>(is_dim && *i < 0 ? *i + first_rank : *i);
      } else if (const auto* d = std::get_if<double>(&a.value)) {
        v = *d;
      } else if (const auto* l = std::get_if<std::vector<int64_t>>(&a.value)) {
        uint64_t mask = 0;
        for (int64_t x : *l) {
          const int64_t n = x < 0 ? x + first_rank : x;
          if (n >= 0 && n < 63) mask |= uint64_t{1} << n;
        }
        v = static_cast<double>(mask);
      } else if (const auto* t = std::get_if<TensorMeta>(&a.value)) {
        v = static_cast<double>(ctx.shapes.size());
        ctx.shapes.push_back(t->sizes);
      } else if (const auto* ts = std::get_if<std::vector<TensorMeta>>(&a.value); ts && !ts->empty()) {
        v = static_cast<double>(ctx.shapes.size());
        ctx.shapes.push_back(ts->front().sizes);
      } else {
        ctx.unusable.insert(a.name);
      }
    }
    std::vector<int64_t> values(c.free_vars.size(), 0);
    absl::flat_hash_set<Rule> seen;
    while (true) {
      for (size_t f = 0; f < c.free_vars.size(); ++f) *ctx.vars[c.free_vars[f]] = values[f];
      auto resolve = [&](std::vector<Compiled::Sym>& syms, const std::vector<TensorMeta>& metas,
                         std::vector<Placement>& placed) -> absl::StatusOr<bool> {
        for (size_t i = 0; i < syms.size(); ++i) {
          if (syms[i].expr.empty()) {
            placed.push_back(syms[i].fixed);
            continue;
          }
          absl::StatusOr<std::optional<double>> v = c.Eval(*syms[i].parser, syms[i].used);
          if (!v.ok()) {
            return FieldError(c.where, c.field + ".placements",
                              absl::StrCat("S(", syms[i].expr, "): ", v.status().message()));
          }
          if (!v->has_value()) return false;
          const double x = **v;
          if (std::isnan(x) || std::abs(x - std::round(x)) > 1e-9) {
            return FieldError(c.where, c.field + ".placements",
                              absl::StrCat("S(", syms[i].expr, ") is ", x, ", not an integer dim"));
          }
          int64_t d = static_cast<int64_t>(std::llround(x));
          if (d < 0) d += metas[i].ndim();
          if (d < 0 || d >= metas[i].ndim()) return false;
          placed.push_back(Placement::Shard(d));
        }
        return true;
      };
      Rule rule;
      absl::StatusOr<bool> in_ok = resolve(c.inputs, args.inputs(), rule.inputs);
      if (!in_ok.ok()) return in_ok.status();
      absl::StatusOr<bool> out_ok = *in_ok ? resolve(c.outputs, args.outputs(), rule.outputs)
                                           : absl::StatusOr<bool>(false);
      if (!out_ok.ok()) return out_ok.status();
      bool holds = *out_ok;
      if (holds && c.condition) {
        absl::StatusOr<std::optional<double>> v = c.Eval(*c.condition, c.condition_used);
        if (!v.ok()) {
          return FieldError(c.where, c.field + ".condition",
                            absl::StrCat("'", proto_.rule(r).condition(), "': ", v.status().message()));
        }
        if (v->has_value() && std::isnan(**v)) {
          // NaN != 0 would read as true.
          return FieldError(c.where, c.field + ".condition",
                            absl::StrCat("'", proto_.rule(r).condition(),
                                         "' is NaN here, neither true nor false"));
        }
        holds = v->has_value() && **v != 0;
      }
      if (holds && seen.insert(rule).second) out.push_back({rule, static_cast<int>(r)});
      size_t f = 0;
      while (f < values.size() && ++values[f] == max_rank) values[f++] = 0;
      if (f == values.size()) break;
    }
  }
  return out;
}

absl::StatusOr<std::vector<Rule>> TableStrategy::Rules(const OpArgs& args) const {
  for (size_t r = 0; r < rules_.size(); ++r) {
    bool ws = rules_[r]->condition_used.count(std::string(kWorldSize)) > 0;
    for (const auto* side : {&rules_[r]->inputs, &rules_[r]->outputs}) {
      for (const auto& sym : *side) ws = ws || sym.used.count(std::string(kWorldSize)) > 0;
    }
    if (ws) {
      return absl::FailedPreconditionError(absl::StrCat(
          "rule '", proto_.rule(r).placements(), "' reads ws, which a registered strategy lacks"));
    }
  }
  absl::StatusOr<std::vector<TableInstance>> instances = Instantiate(args, /*world_size=*/0);
  if (!instances.ok()) return instances.status();
  std::vector<Rule> out;
  absl::flat_hash_set<Rule> seen;
  for (TableInstance& i : *instances) {
    if (seen.insert(i.rule).second) out.push_back(std::move(i.rule));
  }
  return out;
}

absl::StatusOr<StrategyTableFile> StrategyTableFile::FromText(const std::string& text,
                                                              const std::string& path) {
  StrategyTable table;
  absl::StatusOr<TextLocations> where = ParseTextProto(text, path, &table);
  if (!where.ok()) return where.status();
  return Compile(table, *where);
}

absl::StatusOr<StrategyTableFile> StrategyTableFile::FromProto(const StrategyTable& table,
                                                               const std::string& name) {
  return Compile(table, TextLocations(name, nullptr));
}

absl::StatusOr<StrategyTableFile> StrategyTableFile::Compile(const StrategyTable& table,
                                                             const TextLocations& where_in) {
  const TextLocations* where = &where_in;
  const std::string& path = where_in.path();
  StrategyTableFile file;
  file.path_ = path;
  std::set<std::string> names;
  for (int i = 0; i < table.op_size(); ++i) {
    const TableOp& op = table.op(i);
    const std::string op_field = absl::StrCat("op[", i, "]");
    const std::string op_where = where->Where({{"op", i}, {"name", -1}}, table);
    absl::StatusOr<c10::OperatorName> name = ParseOverloadName(op.name());
    if (!name.ok()) return FieldError(op_where, op_field + ".name", name.status().message());
    absl::StatusOr<std::vector<std::string>> arg_names = SchemaArgumentNames(*name);
    if (!arg_names.ok()) return FieldError(op_where, op_field + ".name", arg_names.status().message());
    if (!names.insert(OverloadToString(*name)).second) {
      return FieldError(op_where, op_field + ".name", absl::StrCat(op.name(), " is listed twice"));
    }
    const std::set<std::string> args(arg_names->begin(), arg_names->end());
    auto strategy = std::unique_ptr<TableStrategy>(new TableStrategy(op, *name));
    strategy->where_ = op_where;
    for (int j = 0; j < op.rule_size(); ++j) {
      const TableRule& rule = op.rule(j);
      const std::string rule_where = where->Where({{"op", i}, {"rule", j}}, table);
      const std::string field = absl::StrCat(op_field, ".rule[", j, "]");
      auto c = std::make_unique<TableStrategy::Compiled>();
      c->where = rule_where;
      c->field = field;
      if (absl::StartsWith(absl::StripAsciiWhitespace(rule.placements()), "[")) {
        absl::StatusOr<NdRule> nd = ParseNdRule(rule.placements());
        absl::Status ok = nd.ok() ? CheckNdRule(*nd) : nd.status();
        if (!ok.ok()) return FieldError(rule_where, field + ".placements", ok.message());
        if (!rule.condition().empty()) {
          return FieldError(rule_where, field + ".condition",
                            "an N-D rule is concrete and takes no condition");
        }
        c->nd = true;
        strategy->nd_rules_.emplace_back(j, *std::move(nd));
        strategy->rules_.push_back(std::move(c));
        continue;
      }
      const size_t arrow = rule.placements().find("->");
      if (arrow == std::string::npos) {
        return FieldError(rule_where, field + ".placements",
                          absl::StrCat("'", rule.placements(), "': missing '->'"));
      }
      // Placements: fixed ones parse as usual; S(...) keeps its expression.
      std::set<std::string> free;
      for (auto [side, text_side] :
           {std::pair(&c->inputs, rule.placements().substr(0, arrow)),
            std::pair(&c->outputs, rule.placements().substr(arrow + 2))}) {
        for (const std::string& token : SplitTopLevel(text_side)) {
          absl::string_view t = absl::StripAsciiWhitespace(token);
          TableStrategy::Compiled::Sym sym;
          absl::string_view inner = t;
          if ((absl::ConsumePrefix(&inner, "S(") || absl::ConsumePrefix(&inner, "Shard(")) &&
              absl::ConsumeSuffix(&inner, ")")) {
            sym.expr = std::string(absl::StripAsciiWhitespace(inner));
            if (sym.expr.empty()) {
              return FieldError(rule_where, field + ".placements", absl::StrCat("'", t, "': empty dim"));
            }
            for (const std::string& id : Identifiers(sym.expr)) {
              const bool function = std::find(std::begin(kFunctions), std::end(kFunctions), id) !=
                                    std::end(kFunctions);
              if (!args.count(id) && !function && id != kWorldSize) free.insert(id);
            }
          } else {
            absl::StatusOr<Placement> p = ParsePlacement(t);
            if (!p.ok()) return FieldError(rule_where, field + ".placements", p.status().message());
            sym.fixed = *p;
          }
          side->push_back(std::move(sym));
        }
      }
      if (c->outputs.empty()) {
        return FieldError(rule_where, field + ".placements", "no output placement");
      }
      c->free_vars.assign(free.begin(), free.end());
      for (const std::string& a : args) c->ctx->vars[a] = std::make_unique<double>(1);
      for (const std::string& f : free) c->ctx->vars[f] = std::make_unique<double>(1);
      c->ctx->vars[std::string(kWorldSize)] = std::make_unique<double>(2);
      // Parse every expression now, so that errors point at the table.
      auto compile = [&](const std::string& expr, const std::string& f,
                         std::set<std::string>& used) -> absl::StatusOr<std::unique_ptr<mu::Parser>> {
        if (std::string why = Assignment(expr); !why.empty()) {
          return FieldError(rule_where, f, absl::StrCat("'", expr, "': ", why));
        }
        std::unique_ptr<mu::Parser> p = c->MakeParser(expr);
        try {
          c->ctx->error.clear();
          const double v = p->Eval();
          for (const auto& [name, ptr] : p->GetUsedVar()) used.insert(name);
          // NaN from arithmetic alone (0/0, sqrt(-1)); ndim() and size()
          // have no tensors to read yet, and say so in ctx->error.
          if (std::isnan(v) && c->ctx->error.empty()) {
            return FieldError(rule_where, f,
                              absl::StrCat("'", expr, "' is NaN, neither true nor false nor a dim"));
          }
        } catch (const mu::Parser::exception_type& e) {
          return FieldError(rule_where, f, absl::StrCat("'", expr, "': ", ParserError(e)));
        }
        return p;
      };
      for (auto* side : {&c->inputs, &c->outputs}) {
        for (auto& sym : *side) {
          if (sym.expr.empty()) continue;
          absl::StatusOr<std::unique_ptr<mu::Parser>> p = compile(sym.expr, field + ".placements", sym.used);
          if (!p.ok()) return p.status();
          sym.parser = *std::move(p);
        }
      }
      if (!rule.condition().empty()) {
        absl::StatusOr<std::unique_ptr<mu::Parser>> p =
            compile(rule.condition(), field + ".condition", c->condition_used);
        if (!p.ok()) return p.status();
        c->condition = *std::move(p);
      }
      strategy->rules_.push_back(std::move(c));
    }
    file.ops_.push_back(std::move(strategy));
  }
  return file;
}

absl::StatusOr<StrategyTableFile> StrategyTableFile::FromFile(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  return FromText(*text, path);
}

const TableStrategy* StrategyTableFile::Find(const c10::OperatorName& op) const {
  for (const auto& s : ops_) {
    if (s->op() == op) return s.get();
  }
  return nullptr;
}

TableEntry StrategyTableFile::Lookup(const c10::OperatorName& op) const {
  if (const TableStrategy* own = Find(op); own != nullptr) return {own, false};
  absl::StatusOr<std::optional<c10::OperatorName>> functional = FunctionalOf(op);
  if (!functional.ok() || !functional->has_value()) return {};
  const TableStrategy* inherited = Find(**functional);
  if (inherited == nullptr) return {};
  return {inherited, *KindOf(op) == VariantKind::kInPlace};
}

std::vector<const TableStrategy*> StrategyTableFile::ops() const {
  std::vector<const TableStrategy*> out;
  for (const auto& s : ops_) out.push_back(s.get());
  return out;
}

}  // namespace shrt
