// Editing the text of an xfails file (xfail.proto) in place, the way
// `shrt xfail add|remove` does: every byte that is not the entry added or
// removed stays as it was, so comments, blank lines and the order of entries
// survive every edit, and adding an entry then removing it gives back the
// file byte for byte.
//
//   add     appends the entry at the end, printed as TextFormat prints it
//           (`xfail {`, one field a line indented by two spaces, `}`);
//   remove  deletes exactly the entry's text: from its field name to its
//           closing brace, with a `,` or `;` right after it and, when the
//           entry has its lines to itself, those whole lines (a comment
//           after the closing brace included). Comments on other lines,
//           above or below it, stay.
//
// Both check the result: it must parse to the old entries with exactly that
// one added or removed, else nothing is returned.
#ifndef SHRT_REPORT_XFAIL_TEXT_H_
#define SHRT_REPORT_XFAIL_TEXT_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "shrt/report/xfail.pb.h"

namespace shrt {

// The text of a new xfails file, before its first entry: a short header
// comment (a file ShRT writes is never empty, so an empty one is torn).
inline constexpr absl::string_view kNewXfailsFile =
    "# proto-file: shrt/report/xfail.proto\n"
    "# proto-message: shrt.XfailList\n"
    "# Expected failures; edit with `shrt xfail add|remove|list`.\n";

// `text` (the content of `path`) with `entry` appended at the end, after a
// newline if `text` does not end with one.
// Errors: those of ParseTextProto (text_proto.h) when `text` does not
// parse; Internal "<path>: cannot add the entry in place" if the result
// would not parse to the old entries plus `entry` (not known to happen).
absl::StatusOr<std::string> AppendXfail(absl::string_view text, const std::string& path,
                                        const Xfail& entry);

// `text` (the content of `path`) without its entry `index` (0-based, in
// file order), as described above.
// Errors: those of ParseTextProto; OutOfRange if there is no such entry;
// InvalidArgument "<path>:<line>: field 'xfail[<index>]': cannot be
// removed in place: ..." when the entry is not a block of its own (it is
// inside a list `xfail: [...]`), so that the result would not parse to the
// old entries less that one.
absl::StatusOr<std::string> RemoveXfail(absl::string_view text, const std::string& path,
                                        int index);

}  // namespace shrt

#endif  // SHRT_REPORT_XFAIL_TEXT_H_
