#include "shrt/op_lookup.h"

#include <algorithm>
#include <utility>

#include "ATen/core/dispatch/Dispatcher.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "shrt/overload_name.h"

namespace shrt {
namespace {

// Levenshtein distance, O(|a|*|b|) time and O(|b|) memory.
size_t EditDistance(absl::string_view a, absl::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

}  // namespace

std::vector<std::string> CloseOverloads(absl::string_view text, int max) {
  std::vector<std::pair<size_t, std::string>> scored;
  for (const c10::OperatorName& name : c10::Dispatcher::singleton().getAllOpNames()) {
    std::string s = OverloadToString(name);
    scored.emplace_back(EditDistance(text, s), std::move(s));
  }
  const size_t n = std::min<size_t>(scored.size(), static_cast<size_t>(std::max(0, max)));
  std::partial_sort(scored.begin(), scored.begin() + n, scored.end());
  std::vector<std::string> out;
  for (size_t i = 0; i < n; ++i) out.push_back(std::move(scored[i].second));
  return out;
}

absl::Status CheckOverloadExists(const c10::OperatorName& name) {
  if (c10::Dispatcher::singleton().findSchema(name).has_value()) return absl::OkStatus();
  const std::string text = OverloadToString(name);
  return absl::NotFoundError(absl::StrCat("unknown overload '", text, "'; did you mean ",
                                          absl::StrJoin(CloseOverloads(text, 3), ", "), "?"));
}

absl::StatusOr<std::vector<std::string>> SchemaArgumentNames(const c10::OperatorName& name) {
  if (absl::Status s = CheckOverloadExists(name); !s.ok()) return s;
  std::vector<std::string> names;
  for (const c10::Argument& a : c10::Dispatcher::singleton().findSchema(name)->schema().arguments()) {
    names.push_back(a.name());
  }
  return names;
}

}  // namespace shrt
