// The rules an in-place or out= variant inherits from its functional
// overload's rules (op_group.h), written once for every source of claims:
// registered C++ strategies (registry.h) and strategy tables
// (table_claims.h). DTensor derives a variant's strategy from the
// functional's the same way (torch 2.13,
// torch/distributed/tensor/_ops/utils.py, expand_to_full_mesh_op_strategy):
//
//   in-place (aten::add_.Tensor): only the rules whose output 0 keeps
//     input 0's (self's) placement: "self can't be redistributed" and "the
//     result IS self". A list op's in-place variant writes its self list
//     (aten::_foreach_add_.List -> ()); its outputs are the written
//     elements (op_lookup.h), so output k keeps input k's placement for
//     every k.
//   out= (aten::add.out): the functional's rules unchanged; the out=
//     tensors take the outputs' placements (they are not rule inputs;
//     DTensor skips a strategy whose output placement differs from the out=
//     argument's, which a validation never passes).
#ifndef SHRT_OPS_VARIANT_RULES_H_
#define SHRT_OPS_VARIANT_RULES_H_

#include <vector>

#include "shrt/vocab/placement.h"

namespace shrt {

// True when `rule` may claim an in-place variant: it has an output, and
// output k has input k's placement for every output k. Expects normalised
// dims (S(1) and S(-1) of a 2-d tensor compare unequal otherwise).
bool KeepsSelfPlacement(const Rule& rule);

// The rules of `functional_rules` that an in-place variant inherits
// (KeepsSelfPlacement), in their order.
std::vector<Rule> InPlaceRules(std::vector<Rule> functional_rules);

}  // namespace shrt

#endif  // SHRT_OPS_VARIANT_RULES_H_
