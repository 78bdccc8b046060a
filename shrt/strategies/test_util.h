// Helpers for the strategy unit tests: tensor metadata in one call, and
// rules as their canonical texts, so that failures print readably.
#ifndef SHRT_STRATEGIES_TEST_UTIL_H_
#define SHRT_STRATEGIES_TEST_UTIL_H_

#include <string>
#include <utility>
#include <vector>

#include "shrt/ops/op_args.h"
#include "shrt/vocab/placement.h"

namespace shrt {

inline TensorMeta Meta(std::vector<int64_t> sizes,
                       c10::ScalarType dtype = c10::ScalarType::Float) {
  return TensorMeta{std::move(sizes), {}, dtype};
}

inline std::vector<std::string> Texts(const std::vector<Rule>& rules) {
  std::vector<std::string> texts;
  for (const Rule& r : rules) texts.push_back(RuleToString(r));
  return texts;
}

}  // namespace shrt

#endif  // SHRT_STRATEGIES_TEST_UTIL_H_
