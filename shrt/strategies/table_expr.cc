#include "shrt/strategies/table_expr.h"

#include <cmath>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace shrt {
namespace table_internal {
namespace {

// Expressions compute in doubles; a double becomes an integer only when it
// is one in range (converting NaN or an out-of-range value is undefined
// behaviour, which the fuzzer found here: //shrt/fuzz:table_fuzz).

// `x` as an index below `n`, or nullopt for a negative, too large or NaN x.
std::optional<size_t> AsIndex(double x, size_t n) {
  if (!(x >= 0 && x < static_cast<double>(n))) return std::nullopt;
  return static_cast<size_t>(x);
}

// The dims in the set `mask` (bit d for dim d < 63; int-list arguments are
// passed so), or none when `mask` is no such set (negative, NaN, 2^63 or
// more, as size() of a missing dim is NaN).
uint64_t DimSet(double mask) {
  if (!(mask >= 0 && mask < 0x1p63)) return 0;
  return static_cast<uint64_t>(mask);
}

double Ndim(void* data, double handle) {
  auto* ctx = static_cast<EvalContext*>(data);
  const std::optional<size_t> h = AsIndex(handle, ctx->shapes.size());
  if (!h) {
    ctx->error = "ndim() takes a tensor argument";
    return NAN;
  }
  return static_cast<double>(ctx->shapes[*h].size());
}

double Size(void* data, double handle, double k) {
  auto* ctx = static_cast<EvalContext*>(data);
  const std::optional<size_t> h = AsIndex(handle, ctx->shapes.size());
  if (!h) {
    ctx->error = "size() takes a tensor argument";
    return NAN;
  }
  const std::vector<int64_t>& shape = ctx->shapes[*h];
  // A dim the tensor lacks has no size: every comparison with it is false.
  const std::optional<size_t> d =
      AsIndex(k < 0 ? k + static_cast<double>(shape.size()) : k, shape.size());
  return d ? static_cast<double>(shape[*d]) : NAN;
}

// Members of the dim set `mask` below d.
double CountLt(double mask, double d) {
  const uint64_t bits = DimSet(mask);
  double n = 0;
  for (int64_t i = 0; i < 63 && i < d; ++i) n += (bits >> i) & 1;
  return n;
}

double In(double d, double mask) {
  if (!(d >= 0 && d < 63)) return 0;
  return static_cast<double>((DimSet(mask) >> static_cast<int>(d)) & 1);
}

double Not(double x) { return x == 0 ? 1 : 0; }

bool IsIdentStart(char c) { return absl::ascii_isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsIdent(char c) { return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

std::unique_ptr<mu::Parser> MakeTableParser(const std::string& expr, EvalContext& ctx) {
  auto p = std::make_unique<mu::Parser>();
  for (auto& [name, value] : ctx.vars) {
    try {
      p->DefineVar(name, value.get());
    } catch (const mu::Parser::exception_type&) {
      // A name muparser reserves (e.g. an argument called "min"): not
      // usable in expressions.
    }
  }
  p->DefineFunUserData("ndim", Ndim, &ctx);
  p->DefineFunUserData("size", Size, &ctx);
  p->DefineFun("count_lt", CountLt);
  p->DefineOprt("in", In, mu::prCMP);
  p->DefineInfixOprt("!", Not);
  p->SetExpr(expr);
  return p;
}

absl::StatusOr<std::optional<double>> EvalTableExpr(mu::Parser& p,
                                                    const std::set<std::string>& used,
                                                    EvalContext& ctx) {
  for (const std::string& u : used) {
    if (ctx.unusable.count(u)) return std::optional<double>();
  }
  ctx.error.clear();
  try {
    const double v = p.Eval();
    if (!ctx.error.empty()) return absl::InvalidArgumentError(ctx.error);
    return std::optional<double>(v);
  } catch (const mu::Parser::exception_type& e) {
    return absl::InvalidArgumentError(ParserError(e));
  }
}

std::vector<std::string> Identifiers(absl::string_view expr) {
  std::vector<std::string> out;
  for (size_t i = 0; i < expr.size();) {
    if (IsIdentStart(expr[i]) && (i == 0 || !IsIdent(expr[i - 1]))) {
      size_t j = i;
      while (j < expr.size() && IsIdent(expr[j])) ++j;
      out.emplace_back(expr.substr(i, j - i));
      i = j;
    } else {
      ++i;
    }
  }
  return out;
}

std::vector<std::string> SplitTopLevel(absl::string_view text) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char c : text) {
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!absl::StripAsciiWhitespace(cur).empty() || !out.empty()) out.push_back(cur);
  return out;
}

std::string Assignment(absl::string_view expr) {
  for (size_t i = 0; i < expr.size(); ++i) {
    if (expr[i] != '=') continue;
    if (i + 1 < expr.size() && expr[i + 1] == '=') {
      ++i;
      continue;
    }
    if (i > 0 && (expr[i - 1] == '!' || expr[i - 1] == '<' || expr[i - 1] == '>')) continue;
    const bool compound = i > 0 && absl::string_view("+-*/").find(expr[i - 1]) != absl::string_view::npos;
    const size_t start = compound ? i - 1 : i;
    return absl::StrCat("'", expr.substr(start, i + 1 - start),
                        "' at offset ", start, " assigns; compare with '=='");
  }
  return "";
}

std::string ParserError(const mu::Parser::exception_type& e) {
  return absl::StrCat(e.GetMsg(), e.GetToken().empty() ? "" : absl::StrCat(" (token '", e.GetToken(), "')"));
}

}  // namespace table_internal
}  // namespace shrt
