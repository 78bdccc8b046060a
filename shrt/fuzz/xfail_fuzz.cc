// Xfail files (shrt/report/xfail.proto), as every generated test and `shrt xfail`
// read op_specs/xfails.textproto: ParseXfails. Properties: a refusal is a
// bad-input error naming the file; an accepted entry covers its own rule
// (or any rule, for all_rules) on the day it was added.
#include "shrt/fuzz/fuzz_checks.h"
#include "shrt/report/xfails.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = "fuzz/xfails.textproto";
  absl::StatusOr<std::vector<shrt::XfailEntry>> entries =
      shrt::ParseXfails(shrt::fuzz::AsText(data, size), path);
  if (!entries.ok()) {
    shrt::fuzz::ExpectInputError(entries.status(), path);
    return 0;
  }
  for (const shrt::XfailEntry& e : *entries) {
    shrt::fuzz::Expect(shrt::XfailCovers(*entries, e.op, e.rule, e.added),
                       e.Describe() + " covers its rule on the day it was added");
  }
  return 0;
}
