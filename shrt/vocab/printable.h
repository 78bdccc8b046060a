// Text from users made safe to print: the one escaping function of ShRT.
//
// Names, flags and file contents reach error messages verbatim ("unknown
// overload 'x'"); a control character in them would move the cursor,
// recolour the terminal or forge a line of output. Messages are escaped
// once, where they are printed (the CLI's usage errors), not where they are
// built, so no message is escaped twice or forgotten.
#ifndef SHRT_VOCAB_PRINTABLE_H_
#define SHRT_VOCAB_PRINTABLE_H_

#include <string>

#include "absl/strings/string_view.h"

namespace shrt {

// `text` with every control character written as a C escape: the ASCII
// controls (0x00-0x1f, newline and tab included, and 0x7f) as "\n", "\t",
// "\x1b" ..., and the UTF-8 encoded C1 controls (U+0080-U+009F) as
// "\u009b". Everything else, UTF-8 and backslashes included, is kept, so
// Printable(Printable(s)) == Printable(s).
std::string Printable(absl::string_view text);

}  // namespace shrt

#endif  // SHRT_VOCAB_PRINTABLE_H_
