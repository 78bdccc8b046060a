#include "shrt/vocab/nd_rule.h"

#include <algorithm>
#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "shrt/vocab/mesh.h"

namespace shrt {
namespace {

std::vector<Placement> Column(const NdRule& rule, bool output, size_t t) {
  std::vector<Placement> out;
  for (const Rule& r : rule.mesh_dims) out.push_back(output ? r.outputs[t] : r.inputs[t]);
  return out;
}

absl::Status Bad(absl::string_view text, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("bad N-D rule '", text, "': ", why));
}

// Parses one side, "[S(0), R], [P(sum), P(sum)]", into one placement list
// per tensor.
absl::StatusOr<std::vector<std::vector<Placement>>> ParseSide(absl::string_view side,
                                                              absl::string_view text) {
  std::vector<std::vector<Placement>> out;
  absl::string_view rest = absl::StripAsciiWhitespace(side);
  while (!rest.empty()) {
    if (rest.front() != '[') return Bad(text, absl::StrCat("expected '[' at '", rest, "'"));
    const size_t close = rest.find(']');
    if (close == absl::string_view::npos) return Bad(text, "missing ']'");
    absl::StatusOr<std::vector<Placement>> ps = ParsePlacements(rest.substr(1, close - 1));
    if (!ps.ok()) return Bad(text, ps.status().message());
    if (ps->empty()) return Bad(text, "an empty placement list '[]'");
    out.push_back(*std::move(ps));
    rest = absl::StripAsciiWhitespace(rest.substr(close + 1));
    if (rest.empty()) break;
    if (rest.front() != ',') return Bad(text, absl::StrCat("expected ',' at '", rest, "'"));
    rest = absl::StripAsciiWhitespace(rest.substr(1));
    if (rest.empty()) return Bad(text, "a trailing ','");
  }
  return out;
}

}  // namespace

absl::StatusOr<std::vector<std::vector<Placement>>> ParseNdPlacementLists(absl::string_view text) {
  return ParseSide(text, text);
}

std::vector<Placement> NdRule::Input(size_t i) const { return Column(*this, false, i); }
std::vector<Placement> NdRule::Output(size_t k) const { return Column(*this, true, k); }

std::string NdPlacementToString(const std::vector<Placement>& placements) {
  return absl::StrCat("[", PlacementsToString(placements), "]");
}

std::string NdRuleToString(const NdRule& rule) {
  std::vector<std::string> in, out;
  for (size_t i = 0; i < rule.num_inputs(); ++i) in.push_back(NdPlacementToString(rule.Input(i)));
  for (size_t k = 0; k < rule.num_outputs(); ++k)
    out.push_back(NdPlacementToString(rule.Output(k)));
  return absl::StrCat(absl::StrJoin(in, ", "), " -> ", absl::StrJoin(out, ", "));
}

absl::StatusOr<NdRule> ParseNdRule(absl::string_view text) {
  const size_t arrow = text.find("->");
  if (arrow == absl::string_view::npos) return Bad(text, "missing '->' between inputs and outputs");
  if (text.find("->", arrow + 2) != absl::string_view::npos) return Bad(text, "more than one '->'");
  absl::StatusOr<std::vector<std::vector<Placement>>> in = ParseSide(text.substr(0, arrow), text);
  if (!in.ok()) return in.status();
  absl::StatusOr<std::vector<std::vector<Placement>>> out = ParseSide(text.substr(arrow + 2), text);
  if (!out.ok()) return out.status();
  if (out->empty()) return Bad(text, "no output placement");
  const size_t ndim = out->front().size();
  for (const auto* side : {&*in, &*out}) {
    for (const std::vector<Placement>& ps : *side) {
      if (ps.size() != ndim) {
        return Bad(text, absl::StrCat("placement lists of ", ndim, " and ", ps.size(),
                                      " mesh dims: every tensor needs one per mesh dim"));
      }
    }
  }
  if (ndim > static_cast<size_t>(MeshShape::kMaxDims)) {
    return Bad(text, absl::StrCat(ndim, " mesh dims; at most ", MeshShape::kMaxDims));
  }
  NdRule rule;
  rule.mesh_dims.resize(ndim);
  for (size_t m = 0; m < ndim; ++m) {
    for (const std::vector<Placement>& ps : *in) rule.mesh_dims[m].inputs.push_back(ps[m]);
    for (const std::vector<Placement>& ps : *out) rule.mesh_dims[m].outputs.push_back(ps[m]);
  }
  return rule;
}

NdRule EmbedRule(const Rule& rule, int m, int ndim) {
  Rule replicate{std::vector<Placement>(rule.inputs.size(), Placement::Replicate()),
                 std::vector<Placement>(rule.outputs.size(), Placement::Replicate())};
  NdRule out{std::vector<Rule>(ndim, replicate)};
  out.mesh_dims[m] = rule;
  return out;
}

absl::Status CheckNdPlacements(const std::vector<Placement>& placements) {
  std::optional<ReduceOp> op;
  for (const Placement& p : placements) {
    if (p.is_shard() && p.dim() < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          NdPlacementToString(placements), " holds a Shard placeholder; N-D rules are concrete"));
    }
    if (p.is_named_only()) {
      // N-D ground truth (nd_truth.h) builds only enumerated placements.
      return absl::InvalidArgumentError(absl::StrCat(
          NdPlacementToString(placements), " holds ", p.ToString(),
          ", which ShRT builds on a 1-D mesh only"));
    }
    if (!p.is_partial()) continue;
    if (op.has_value() && *op != p.reduce_op()) {
      return absl::InvalidArgumentError(absl::StrCat(
          NdPlacementToString(placements),
          " mixes Partial reduce ops, which DTensor cannot express (PyTorch #172610)"));
    }
    op = p.reduce_op();
  }
  return absl::OkStatus();
}

absl::Status CheckNdRule(const NdRule& rule) {
  for (const Rule& r : rule.mesh_dims) {
    if (r.inputs.size() != rule.num_inputs() || r.outputs.size() != rule.num_outputs()) {
      return absl::InvalidArgumentError("mesh dims with different numbers of tensors");
    }
  }
  for (bool output : {false, true}) {
    for (size_t t = 0; t < (output ? rule.num_outputs() : rule.num_inputs()); ++t) {
      if (absl::Status s = CheckNdPlacements(output ? rule.Output(t) : rule.Input(t)); !s.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat(output ? "output " : "input ", t, ": ", s.message()));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace shrt
