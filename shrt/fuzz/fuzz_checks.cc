#include "shrt/fuzz/fuzz_checks.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace shrt::fuzz {

void Expect(bool holds, absl::string_view what) {
  if (holds) return;
  std::fprintf(stderr, "fuzz property broken: %s\n", std::string(what).c_str());
  std::abort();
}

void ExpectInputError(const absl::Status& status, absl::string_view path) {
  const bool bad_input = absl::IsInvalidArgument(status) || absl::IsNotFound(status) ||
                         absl::IsFailedPrecondition(status);
  Expect(bad_input && absl::StartsWith(status.message(), absl::StrCat(path, ":")),
         absl::StrCat("a refusal names the file ", path, " and is a bad-input error; got ",
                      status.ToString()));
}

}  // namespace shrt::fuzz
