// Strategies for the prims DTensor has rules for (shrt/ops/prims.h): a
// prim computes what its aten operator computes from the same arguments
// (torch/_prims/__init__.py, each prim's impl_aten), so its rules are that
// operator's, queried from the registry with the prim's arguments under the
// aten schema's names (convert_element_type's, copy_to's and view_of's `a`
// is `self`, copy_to's `b` is `src`, a reduction's `inp` and `dims` are
// `self` and `dim`). Where ShRT keeps the rules under another overload:
//   - div asks div.Tensor_mode with the rounding mode _div_aten passes,
//     "trunc" on integer dtypes and None (true division) on the others;
//   - _conj_physical (conj_physical's kernel: the same values) asks
//     conj_physical, and special_gammainc/gammaincc (torch.special's names
//     for igamma/igammac, CompositeImplicitAutograd) ask igamma/igammac;
//   - prims::prod, which reduces nothing for dims = [], is a row of
//     reductions.cc's table;
//   - nextafter has no strategy of its own (DTENSOR.md: its one-ulp
//     results are within the comparison's rounding allowance), so
//     prims::nextafter has none either.
// An elementwise prim refuses tensors of different shapes where aten
// broadcasts (a 0-d tensor aside): of its aten operator's rules it keeps
// those that leave every rank's tensors one shape, i.e. those whose
// tensors that are not 0-d are all sharded on one dim or all unsharded
// (aten's R, S(1) -> S(1) on two [6, 1, 3] tensors gives a rank [6, 1, 3]
// and [6, 0, 3], which aten broadcasts and the prim refuses).
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "c10/core/ScalarType.h"
#include "shrt/ops/overload_name.h"
#include "shrt/ops/prims.h"
#include "shrt/strategies/registry.h"

namespace shrt {
namespace {

// The overload ShRT keeps an aten operator's rules under, where it is not
// the operator the prim's kernel calls.
const std::map<std::string, std::string>& RulesUnder() {
  static const auto* under = new std::map<std::string, std::string>{
      {"aten::_conj_physical", "aten::conj_physical"},
      {"aten::special_gammainc", "aten::igamma"},
      {"aten::special_gammaincc", "aten::igammac"},
  };
  return *under;
}

const std::vector<std::pair<std::string, std::string>> kRenames = {
    {"a", "self"}, {"b", "src"}, {"inp", "self"}, {"dims", "dim"}};

// True when `rule` gives every rank its inputs of one shape, 0-d ones
// aside: they are all Shard on one dim, or none is.
bool KeepsOneShape(const Rule& rule, const OpArgs& args) {
  const Placement* first = nullptr;
  for (size_t i = 0; i < rule.inputs.size(); ++i) {
    if (args.inputs()[i].ndim() == 0) continue;
    const Placement& p = rule.inputs[i];
    if (first == nullptr) first = &p;
    if (p.is_shard() != first->is_shard() || (p.is_shard() && p.dim() != first->dim())) {
      return false;
    }
  }
  return true;
}

Strategy AtenStrategy(const PrimOp& prim) {
  const auto under = RulesUnder().find(prim.aten);
  const absl::StatusOr<c10::OperatorName> name =
      ParseOverloadName(under == RulesUnder().end() ? prim.aten : under->second);
  const bool div = prim.kind == PrimKind::kDiv;
  const bool one_shape = div || prim.kind == PrimKind::kElementwise;
  return [name, div, one_shape](const OpArgs& args) -> absl::StatusOr<std::vector<Rule>> {
    if (!name.ok()) return name.status();
    std::vector<OpArg> renamed = args.args();
    for (OpArg& a : renamed) {
      for (const auto& [from, to] : kRenames) {
        if (a.name == from) a.name = to;
      }
    }
    if (div) {
      const bool integer = c10::isIntegralType(args.inputs()[0].dtype, /*includeBool=*/false);
      renamed.push_back({"rounding_mode", integer ? ArgValue(std::string("trunc")) : ArgValue()});
    }
    absl::StatusOr<std::vector<Rule>> rules =
        StrategyRegistry::Global().Query(*name, OpArgs(renamed, args.inputs(), args.outputs()));
    if (!rules.ok() || !one_shape) return rules;
    std::erase_if(*rules, [&](const Rule& r) { return !KeepsOneShape(r, args); });
    return rules;
  };
}

const bool kRegistered = [] {
  for (const PrimOp& prim : PrimOps()) {
    if (prim.kind == PrimKind::kProd || std::string(prim.aten) == "aten::nextafter") continue;
    StrategyRegistrar(PrimName(prim).c_str(), AtenStrategy(prim));
  }
  return true;
}();

}  // namespace
}  // namespace shrt
