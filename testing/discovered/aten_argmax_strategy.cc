// Discovered by `shrt discover --op=aten::argmax --world_size=4 --format=cc` on tables/specs/aten_argmax.textproto.
// Paste into a strategy source (its library depends on //shrt/strategies:strategy_api and //shrt/strategies:table).
#include "shrt/strategies/registry.h"
#include "shrt/strategies/table.h"

namespace shrt {
namespace {

const TableStrategy& aten_argmax_table() {
  static const auto* file = new StrategyTableFile(*StrategyTableFile::FromText(R"pb(
op {
  name: "aten::argmax"
  rule {
    placements: "S(d) -> S(d)"
    condition: "d != dim"
  }
  rule {
    placements: "S(d) -> S(d - (d > dim))"
    condition: "d != dim && !keepdim"
  }
}
)pb", "aten::argmax (discovered)"));
  return *file->ops()[0];
}

SHRT_REGISTER_STRATEGY("aten::argmax", [](const OpArgs& args) { return aten_argmax_table().Rules(args); });

}  // namespace
}  // namespace shrt
