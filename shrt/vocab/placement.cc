#include "shrt/vocab/placement.h"

#include <cmath>
#include <tuple>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace shrt {
namespace {

struct ReduceOpEntry {
  ReduceOp op;
  absl::string_view name;
};
constexpr ReduceOpEntry kReduceOpNames[] = {
    {ReduceOp::kSum, "sum"}, {ReduceOp::kAvg, "avg"},         {ReduceOp::kMax, "max"},
    {ReduceOp::kMin, "min"}, {ReduceOp::kProduct, "product"}, {ReduceOp::kNorm, "norm"},
};

// Accepted spellings of the kinds: short and DTensor's class names.
struct KindEntry {
  absl::string_view prefix;
  Placement::Kind kind;
};
constexpr KindEntry kKindNames[] = {
    {"R", Placement::Kind::kReplicate},  {"Replicate", Placement::Kind::kReplicate},
    {"S", Placement::Kind::kShard},      {"Shard", Placement::Kind::kShard},
    {"P", Placement::Kind::kPartial},    {"Partial", Placement::Kind::kPartial},
    {"_S", Placement::Kind::kStridedShard}, {"_StridedShard", Placement::Kind::kStridedShard},
};
// DTensor's _NormPartial: a Partial with ReduceOp::kNorm.
constexpr absl::string_view kNormNames[] = {"_NormP", "_NormPartial"};
// DTensor's _MaskPartial: a Partial with a mask size.
constexpr absl::string_view kMaskNames[] = {"_MaskP", "_MaskPartial"};

absl::Status BadToken(absl::string_view token, absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("bad placement '", token, "': ", why,
                   " (expected R, S(<dim>), P(sum|avg|max|min|product), _NormP(<p>) or "
      "_MaskP(<reduce op>, <n>))"));
}

// "<reduce op>, <n>": n >= 1, the size of the range the mask's chunks split.
absl::StatusOr<Placement> ParseMask(absl::string_view token, absl::string_view arg) {
  std::vector<absl::string_view> parts = absl::StrSplit(arg, ',');
  int64_t n = 0;
  if (parts.size() != 2 || !absl::SimpleAtoi(absl::StripAsciiWhitespace(parts[1]), &n)) {
    return BadToken(token, "_MaskP needs a reduce op and a size, _MaskP(sum, 10)");
  }
  if (n < 1) return BadToken(token, "_MaskP's size must be at least 1");
  const absl::string_view op = absl::StripAsciiWhitespace(parts[0]);
  for (const auto& e : kReduceOpNames) {
    if (e.name == op && e.op != ReduceOp::kNorm) return Placement::MaskPartial(e.op, n);
  }
  return BadToken(token, absl::StrCat("unknown reduce op '", op, "'"));
}

// The shortest "%g" text of `x` that parses back to `x` exactly: "2",
// "0.5", "1.2345678" (so that _NormP(p) text round-trips).
std::string ShortestText(double x) {
  for (int digits = 1; digits < 17; ++digits) {
    std::string text = absl::StrFormat("%.*g", digits, x);
    double back = 0;
    if (absl::SimpleAtod(text, &back) && back == x) return text;
  }
  return absl::StrFormat("%.17g", x);
}

// "<p>" or "norm_type=<p>": a finite, non-zero p (DTensor's _NormPartial
// docstring: "p not in {inf, -inf, 0}", which are P(max), P(min), P(sum)).
absl::StatusOr<Placement> ParseNorm(absl::string_view token, absl::string_view arg) {
  absl::ConsumePrefix(&arg, "norm_type=");
  double p = 0;
  if (!absl::SimpleAtod(arg, &p)) return BadToken(token, "_NormP needs a number p, _NormP(2)");
  if (!std::isfinite(p) || p == 0) {
    return BadToken(token, "_NormP's p must be finite and non-zero (inf, -inf and 0 norms "
                           "are P(max), P(min) and P(sum))");
  }
  return Placement::NormPartial(p);
}

// "<dim>, <split factor>" or "dim=<dim>, sf=<split factor>" (DTensor's
// repr of _StridedShard).
absl::StatusOr<Placement> ParseStrided(absl::string_view token, absl::string_view arg) {
  std::vector<absl::string_view> parts = absl::StrSplit(arg, ',');
  int64_t v[2] = {0, 0};
  constexpr absl::string_view kKeys[2] = {"dim=", "sf="};
  bool ok = parts.size() == 2;
  for (size_t i = 0; ok && i < 2; ++i) {
    absl::string_view part = absl::StripAsciiWhitespace(parts[i]);
    absl::ConsumePrefix(&part, kKeys[i]);
    ok = absl::SimpleAtoi(part, &v[i]);
  }
  if (!ok) return BadToken(token, "_StridedShard needs a dim and a split factor, _S(0, 2)");
  if (v[0] < 0) return BadToken(token, "_StridedShard's dim cannot be a placeholder");
  if (v[1] < 1) return BadToken(token, "_StridedShard's split factor must be at least 1");
  return Placement::StridedShard(v[0], v[1]);
}

}  // namespace

absl::string_view ReduceOpName(ReduceOp op) {
  for (const auto& e : kReduceOpNames) {
    if (e.op == op) return e.name;
  }
  return "?";
}

bool operator<(const Placement& a, const Placement& b) {
  return std::tie(a.kind_, a.dim_, a.op_, a.split_factor_, a.norm_type_) <
         std::tie(b.kind_, b.dim_, b.op_, b.split_factor_, b.norm_type_);
}

std::string Placement::ToString() const {
  switch (kind_) {
    case Kind::kReplicate:
      return "R";
    case Kind::kShard:
      return absl::StrCat("S(", dim_, ")");
    case Kind::kPartial:
      if (op_ == ReduceOp::kNorm) return absl::StrCat("_NormP(", ShortestText(norm_type_), ")");
      if (dim_ > 0) return absl::StrCat("_MaskP(", ReduceOpName(op_), ", ", dim_, ")");
      return absl::StrCat("P(", ReduceOpName(op_), ")");
    case Kind::kStridedShard:
      return absl::StrCat("_S(", dim_, ", ", split_factor_, ")");
  }
  return "?";
}

absl::StatusOr<Placement> ParsePlacement(absl::string_view text) {
  const absl::string_view token = absl::StripAsciiWhitespace(text);
  if (token.empty()) return BadToken(token, "empty placement");
  absl::string_view head = token;
  absl::string_view arg;
  bool has_parens = false;
  if (const size_t open = token.find('('); open != absl::string_view::npos) {
    if (token.back() != ')') return BadToken(token, "missing ')'");
    head = token.substr(0, open);
    arg = absl::StripAsciiWhitespace(token.substr(open + 1, token.size() - open - 2));
    has_parens = true;
  }
  head = absl::StripAsciiWhitespace(head);
  for (absl::string_view norm : kNormNames) {
    if (head == norm) return ParseNorm(token, arg);
  }
  for (absl::string_view mask : kMaskNames) {
    if (head == mask) return ParseMask(token, arg);
  }
  const KindEntry* kind = nullptr;
  for (const auto& e : kKindNames) {
    if (e.prefix == head) kind = &e;
  }
  if (kind == nullptr) return BadToken(token, absl::StrCat("unknown kind '", head, "'"));
  switch (kind->kind) {
    case Placement::Kind::kReplicate:
      if (!arg.empty()) return BadToken(token, "Replicate takes no argument");
      return Placement::Replicate();
    case Placement::Kind::kShard: {
      int64_t dim = 0;
      if (!has_parens || !absl::SimpleAtoi(arg, &dim)) {
        return BadToken(token, "Shard needs an integer dim");
      }
      return Placement::Shard(dim);
    }
    case Placement::Kind::kPartial: {
      if (!has_parens) return BadToken(token, "Partial needs a reduce op");
      for (const auto& e : kReduceOpNames) {
        if (e.name == arg && e.op != ReduceOp::kNorm) return Placement::Partial(e.op);
      }
      return BadToken(token, absl::StrCat("unknown reduce op '", arg, "'"));
    }
    case Placement::Kind::kStridedShard:
      return ParseStrided(token, arg);
  }
  return BadToken(token, "unknown kind");
}

std::string PlacementsToString(const std::vector<Placement>& placements) {
  auto fmt = [](std::string* out, const Placement& p) { out->append(p.ToString()); };
  return absl::StrJoin(placements, ", ", fmt);
}

std::string RuleToString(const Rule& rule) {
  return absl::StrCat(PlacementsToString(rule.inputs), " -> ", PlacementsToString(rule.outputs));
}

absl::StatusOr<std::vector<Placement>> ParsePlacements(absl::string_view text) {
  std::vector<Placement> out;
  if (absl::StripAsciiWhitespace(text).empty()) return out;
  // Commas inside parentheses belong to a placement: "_S(0, 2), R".
  std::vector<absl::string_view> tokens;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || (text[i] == ',' && depth == 0)) {
      tokens.push_back(text.substr(start, i - start));
      start = i + 1;
    } else if (text[i] == '(') {
      ++depth;
    } else if (text[i] == ')') {
      --depth;
    }
  }
  for (absl::string_view token : tokens) {
    absl::StatusOr<Placement> p = ParsePlacement(token);
    if (!p.ok()) return p.status();
    out.push_back(*p);
  }
  return out;
}

absl::StatusOr<Rule> ParseRule(absl::string_view text) {
  const size_t arrow = text.find("->");
  if (arrow == absl::string_view::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad rule '", text, "': missing '->' between inputs and outputs"));
  }
  if (text.find("->", arrow + 2) != absl::string_view::npos) {
    return absl::InvalidArgumentError(absl::StrCat("bad rule '", text, "': more than one '->'"));
  }
  Rule rule;
  absl::StatusOr<std::vector<Placement>> inputs = ParsePlacements(text.substr(0, arrow));
  if (!inputs.ok()) return inputs.status();
  absl::StatusOr<std::vector<Placement>> outputs = ParsePlacements(text.substr(arrow + 2));
  if (!outputs.ok()) return outputs.status();
  if (outputs->empty()) {
    return absl::InvalidArgumentError(absl::StrCat("bad rule '", text, "': no output placement"));
  }
  for (const auto* side : {&*inputs, &*outputs}) {
    for (const Placement& p : *side) {
      if (p.is_strided_shard()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "bad rule '", text, "': ", p.ToString(),
            " is an N-D placement; write it in an N-D rule, one [...] list per tensor"));
      }
    }
  }
  rule.inputs = *std::move(inputs);
  rule.outputs = *std::move(outputs);
  return rule;
}

absl::Status CheckRuleArity(const Rule& rule, const RuleArity& arity) {
  for (auto [count, lo, hi, side] :
       {std::tuple(rule.inputs.size(), arity.min_inputs, arity.max_inputs, "input"),
        std::tuple(rule.outputs.size(), arity.min_outputs, arity.max_outputs, "output")}) {
    const int n = static_cast<int>(count);
    if (n >= lo && (hi == RuleArity::kAny || n <= hi)) continue;
    const std::string range = hi == RuleArity::kAny ? absl::StrCat("at least ", lo)
                              : lo == hi            ? absl::StrCat(lo)
                                                    : absl::StrCat(lo, " to ", hi);
    return absl::InvalidArgumentError(absl::StrCat(
        "has ", n, " ", side, " placement", n == 1 ? "" : "s", " but the overload has ", range,
        " tensor ", side, lo == 1 && hi == 1 ? "" : "s"));
  }
  return absl::OkStatus();
}

bool IsAllReplicate(const Rule& rule) {
  for (const auto* side : {&rule.inputs, &rule.outputs}) {
    for (const Placement& p : *side) {
      if (!p.is_replicate()) return false;
    }
  }
  return true;
}

bool IsIdempotentPartial(const Placement& p) {
  // _NormP(p) of W equal values is W ** (1 / p) times the value; a _MaskP
  // output zeroes what each rank's mask sets.
  return p.is_partial() && !p.is_named_only() && p.reduce_op() != ReduceOp::kSum &&
         p.reduce_op() != ReduceOp::kProduct;
}

bool IsDegenerate(const Rule& rule) {
  for (const Placement& p : rule.inputs) {
    if (!p.is_replicate()) return false;
  }
  for (const Placement& p : rule.outputs) {
    if (!p.is_replicate() && !IsIdempotentPartial(p)) return false;
  }
  return true;
}

}  // namespace shrt
