#include "tools/dtensor/unjudged.h"

#include <algorithm>
#include <utility>

#include "ATen/core/dispatch/Dispatcher.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "shrt/ops/overload_name.h"

namespace shrt {

std::vector<UnjudgedRegistration> UnjudgedRegistrations(
    const std::map<std::string, std::string>& registered, const std::set<std::string>& judged,
    const std::set<std::string>& unasked, const std::map<std::string, std::string>& excluded,
    const NotCheckableFile& not_checkable) {
  std::vector<UnjudgedRegistration> out;
  for (const auto& [op, kind] : registered) {
    if (judged.count(op) > 0) continue;
    if (unasked.count(op) > 0) {
      out.push_back({op, "no sample asked: each has more input tuples than are asked per sample"});
      continue;
    }
    absl::StatusOr<c10::OperatorName> name = ParseOverloadName(op);
    const std::optional<c10::OperatorHandle> handle =
        name.ok() ? c10::Dispatcher::singleton().findOp(*name) : std::nullopt;
    std::string reason;
    if (!handle.has_value() || !handle->hasSchema()) {
      reason = "not in libtorch's dispatcher (registered from Python)";
    } else if (UncheckableCategory category = CategoryOf(*handle, not_checkable);
               category != UNCHECKABLE_CATEGORY_UNSPECIFIED) {
      reason = CategoryText(category);
      if (const NotCheckableEntry* entry = not_checkable.Find(*name); entry != nullptr) {
        absl::StrAppend(&reason, ": ", entry->reason());
      }
    } else if (auto x = excluded.find(op); x != excluded.end()) {
      reason = absl::StrCat("excluded by its spec: ", x->second);
    } else {
      reason = "no spec";
    }
    out.push_back({op, std::move(reason)});
  }
  return out;
}

std::vector<std::string> UnjudgedLines(const std::vector<UnjudgedRegistration>& unjudged) {
  std::map<std::string, std::vector<std::string>> by_reason;
  for (const UnjudgedRegistration& u : unjudged) by_reason[u.reason].push_back(u.op);
  std::vector<std::pair<std::string, std::vector<std::string>>> groups(by_reason.begin(),
                                                                        by_reason.end());
  std::stable_sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) {
    return a.second.size() > b.second.size();
  });
  std::vector<std::string> lines;
  for (const auto& [reason, ops] : groups) {
    lines.push_back(absl::StrCat(reason, " (", ops.size(), "): ", absl::StrJoin(ops, ", ")));
  }
  return lines;
}

}  // namespace shrt
