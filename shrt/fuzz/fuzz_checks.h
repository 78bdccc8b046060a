// What every fuzz target of //shrt/fuzz checks besides "no crash": the
// properties a parser promises, stated once. A broken property aborts with
// the input and what was expected, which libFuzzer reports as a crash and
// saves as an artifact (README of shrt/fuzz: regression inputs).
#ifndef SHRT_FUZZ_FUZZ_CHECKS_H_
#define SHRT_FUZZ_FUZZ_CHECKS_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace shrt::fuzz {

// The fuzzer's bytes as text.
inline absl::string_view AsText(const uint8_t* data, size_t size) {
  return absl::string_view(reinterpret_cast<const char*>(data), size);
}

// Aborts with `what` unless `holds`.
void Expect(bool holds, absl::string_view what);

// A parser's refusal of user text must be a bad-input error that names the
// file (DESIGN.md §10): InvalidArgument, NotFound or FailedPrecondition
// (what the loaders document), with a message starting "<path>:". Aborts
// otherwise.
void ExpectInputError(const absl::Status& status, absl::string_view path);

}  // namespace shrt::fuzz

#endif  // SHRT_FUZZ_FUZZ_CHECKS_H_
