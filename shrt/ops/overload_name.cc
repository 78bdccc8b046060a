#include "shrt/ops/overload_name.h"

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "shrt/vocab/limits.h"

namespace shrt {

absl::StatusOr<c10::OperatorName> ParseOverloadName(absl::string_view text) {
  auto bad = [&](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat(
        "bad overload name '", text, "': ", why, " (expected e.g. aten::add.Tensor or aten::relu)"));
  };
  if (text.size() > kMaxOverloadNameBytes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "bad overload name '", text.substr(0, 40), "...': ", text.size(),
        " bytes long, more than the ", kMaxOverloadNameBytes, " an overload name may have"));
  }
  for (char c : text) {
    if (absl::ascii_isspace(static_cast<unsigned char>(c))) return bad("contains whitespace");
  }
  const size_t sep = text.find("::");
  if (sep == absl::string_view::npos || sep == 0) return bad("missing namespace");
  const size_t dot = text.find('.', sep + 2);
  absl::string_view base = text.substr(0, dot);
  absl::string_view overload = dot == absl::string_view::npos ? "" : text.substr(dot + 1);
  if (base.size() == sep + 2) return bad("missing operator name");
  if (dot != absl::string_view::npos && overload.empty()) return bad("empty overload after '.'");
  if (overload == "default") overload = "";
  return c10::OperatorName(std::string(base), std::string(overload));
}

std::string OverloadToString(const c10::OperatorName& name) {
  if (name.overload_name.empty()) return name.name;
  return absl::StrCat(name.name, ".", name.overload_name);
}

std::string TestTargetName(const c10::OperatorName& name) {
  return absl::StrReplaceAll(OverloadToString(name), {{"::", "_"}, {".", "_"}});
}

}  // namespace shrt
