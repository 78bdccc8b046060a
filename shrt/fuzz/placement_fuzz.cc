// Placement and rule text (shrt/placement.h): what a user writes in
// `--rule=`, an xfail's or a missing entry's `rule`, and the fixed
// placements of a strategy table. The input is parsed both as one placement
// and as a rule. Property: text that parses round-trips through the
// canonical form, Parse(ToString(Parse(x))) == Parse(x), and the canonical
// form prints as itself.
#include "shrt/fuzz/fuzz_checks.h"
#include "shrt/placement.h"

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
  return 0;
}
