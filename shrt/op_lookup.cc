#include "shrt/op_lookup.h"

#include <algorithm>
#include <utility>

#include "ATen/core/dispatch/Dispatcher.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "shrt/overload_name.h"

namespace shrt {
namespace {

// Levenshtein distance, O(|a|*|b|) time and O(|b|) memory; or, once it is
// certain to exceed `limit`, any value above `limit`: a row's minimum never
// decreases, and neither does the length difference.
size_t EditDistance(absl::string_view a, absl::string_view b, size_t limit) {
  const size_t apart = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
  if (apart > limit) return apart;
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    const char c = a.data()[i - 1];
    size_t diag = row[0];
    size_t least = row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min(std::min(up, row[j - 1]) + 1, diag + (c == b.data()[j - 1] ? 0 : 1));
      least = std::min(least, row[j]);
      diag = up;
    }
    if (least > limit) return least;
  }
  return row[b.size()];
}

}  // namespace

std::vector<std::string> CloseOverloads(absl::string_view text, int max) {
  const size_t n = static_cast<size_t>(std::max(0, max));
  if (n == 0) return {};
  const size_t bound = std::min(kMaxSuggestionEdits, 1 + text.size() / 4);
  // The n best so far, by (distance, name); a name further than the bound
  // or than the n-th best cannot enter, so its distance need not be exact.
  std::vector<std::pair<size_t, std::string>> best;
  for (const c10::OperatorName& name : c10::Dispatcher::singleton().getAllOpNames()) {
    std::string s = OverloadToString(name);
    const size_t limit = best.size() < n ? bound : best.back().first;
    std::pair<size_t, std::string> scored(EditDistance(text, s, limit), std::move(s));
    if (scored.first > limit || (best.size() == n && !(scored < best.back()))) continue;
    if (best.size() == n) best.pop_back();
    best.insert(std::upper_bound(best.begin(), best.end(), scored), std::move(scored));
  }
  std::vector<std::string> out;
  for (auto& [distance, name] : best) out.push_back(std::move(name));
  return out;
}

absl::Status CheckOverloadExists(const c10::OperatorName& name) {
  if (c10::Dispatcher::singleton().findSchema(name).has_value()) return absl::OkStatus();
  const std::string text = OverloadToString(name);
  const std::vector<std::string> close = CloseOverloads(text, 3);
  return absl::NotFoundError(absl::StrCat(
      "unknown overload '", text, "'",
      close.empty() ? "" : absl::StrCat("; did you mean ", absl::StrJoin(close, ", "), "?")));
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
