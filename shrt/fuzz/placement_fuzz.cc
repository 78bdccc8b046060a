// Placement and rule text (shrt/vocab/placement.h): what a user writes in
// `--rule=`, an xfail's or a missing entry's `rule`, and the fixed
// placements of a strategy table; N-D rules (shrt/vocab/nd_rule.h, a table's
// N-D rules) and `--mesh=` (shrt/vocab/mesh.h). The input is parsed as one
// placement, a rule, an N-D rule and a mesh shape. Property: text that
// parses round-trips through the canonical form,
// Parse(ToString(Parse(x))) == Parse(x), and the canonical form prints as
// itself.
#include "shrt/fuzz/fuzz_checks.h"
#include "shrt/vocab/mesh.h"
#include "shrt/vocab/nd_rule.h"
#include "shrt/vocab/placement.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using shrt::fuzz::Expect;
  const absl::string_view text = shrt::fuzz::AsText(data, size);
  if (absl::StatusOr<shrt::Placement> p = shrt::ParsePlacement(text); p.ok()) {
    const std::string canonical = p->ToString();
    absl::StatusOr<shrt::Placement> again = shrt::ParsePlacement(canonical);
    Expect(again.ok() && *again == *p && again->ToString() == canonical,
           "a parsed placement round-trips through " + canonical);
  }
  if (absl::StatusOr<shrt::Rule> r = shrt::ParseRule(text); r.ok()) {
    const std::string canonical = shrt::RuleToString(*r);
    absl::StatusOr<shrt::Rule> again = shrt::ParseRule(canonical);
    Expect(again.ok() && *again == *r && shrt::RuleToString(*again) == canonical,
           "a parsed rule round-trips through " + canonical);
  }
  if (absl::StatusOr<shrt::NdRule> r = shrt::ParseNdRule(text); r.ok()) {
    const std::string canonical = shrt::NdRuleToString(*r);
    absl::StatusOr<shrt::NdRule> again = shrt::ParseNdRule(canonical);
    Expect(again.ok() && *again == *r && shrt::NdRuleToString(*again) == canonical,
           "a parsed N-D rule round-trips through " + canonical);
  }
  if (absl::StatusOr<shrt::MeshShape> m = shrt::MeshShape::Parse(text); m.ok()) {
    absl::StatusOr<shrt::MeshShape> again = shrt::MeshShape::Parse(m->ToString());
    Expect(again.ok() && *again == *m && m->size() <= 64, "a parsed mesh round-trips");
  }
  return 0;
}
