// The not-checkable file (op_specs/not_checkable.textproto), as `shrt
// coverage` reads it: NotCheckableFile::Parse. Properties: a refusal is a
// bad-input error naming the file; in an accepted file Find answers, for
// what each entry names, that entry or the entry of the same operator's
// overload (which takes precedence).
#include "shrt/fuzz/fuzz_checks.h"
#include "shrt/ops/overload_name.h"
#include "shrt/report/checkability.h"
#include "shrt/vocab/text_proto.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = "fuzz/not_checkable.textproto";
  const absl::string_view text = shrt::fuzz::AsText(data, size);
  absl::StatusOr<shrt::NotCheckableFile> file = shrt::NotCheckableFile::Parse(text, path);
  if (!file.ok()) {
    shrt::fuzz::ExpectInputError(file.status(), path);
    return 0;
  }
  shrt::NotCheckable proto;
  if (!shrt::ParseTextProto(text, path, &proto).ok()) {
    shrt::fuzz::Expect(false, "an accepted file parses as text");
    return 0;
  }
  for (const shrt::NotCheckableEntry& entry : proto.entry()) {
    absl::StatusOr<c10::OperatorName> op = shrt::ParseOverloadName(entry.op());
    shrt::fuzz::Expect(op.ok(), "an accepted entry names a valid overload: " + entry.op());
    if (!op.ok()) continue;
    // An overload's own entry takes precedence over its operator's: an
    // operator entry ("aten::nonzero") may be answered by an entry for the
    // overload it parses to ("aten::nonzero.default"), of the same operator.
    const shrt::NotCheckableEntry* found = file->Find(*op);
    absl::StatusOr<c10::OperatorName> found_op =
        found == nullptr ? absl::NotFoundError("none") : shrt::ParseOverloadName(found->op());
    shrt::fuzz::Expect(found_op.ok() && (found->op() == entry.op() || found_op->name == op->name),
                       "Find answers the entry naming " + entry.op() + " or its overload's");
  }
  return 0;
}
