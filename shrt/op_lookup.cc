#include "shrt/op_lookup.h"

#include <algorithm>

#include "ATen/core/dispatch/Dispatcher.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "shrt/overload_name.h"
#include "shrt/suggest.h"

namespace shrt {

std::vector<std::string> CloseOverloads(absl::string_view text, int max) {
  std::vector<std::string> names;
  for (const c10::OperatorName& name : c10::Dispatcher::singleton().getAllOpNames()) {
    names.push_back(OverloadToString(name));
  }
  std::sort(names.begin(), names.end());
  return CloseMatches(text, names, max);
}

absl::Status CheckOverloadExists(const c10::OperatorName& name) {
  if (c10::Dispatcher::singleton().findSchema(name).has_value()) return absl::OkStatus();
  const std::string text = OverloadToString(name);
  const std::vector<std::string> close = CloseOverloads(text, 3);
  return absl::NotFoundError(absl::StrCat("unknown overload '", text, "'",
                                          close.empty() ? "" : "; did you mean ",
                                          absl::StrJoin(close, ", "), close.empty() ? "" : "?"));
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
