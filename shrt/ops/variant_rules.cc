#include "shrt/ops/variant_rules.h"

#include <algorithm>

namespace shrt {

bool KeepsSelfPlacement(const Rule& rule) {
  return !rule.outputs.empty() && rule.inputs.size() >= rule.outputs.size() &&
         std::equal(rule.outputs.begin(), rule.outputs.end(), rule.inputs.begin());
}

std::vector<Rule> InPlaceRules(std::vector<Rule> functional_rules) {
  functional_rules.erase(std::remove_if(functional_rules.begin(), functional_rules.end(),
                                        [](const Rule& r) { return !KeepsSelfPlacement(r); }),
                         functional_rules.end());
  return functional_rules;
}

}  // namespace shrt
