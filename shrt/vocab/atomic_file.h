// Replacing a file that ShRT edits, atomically (DESIGN.md §10): a reader,
// or a later command, finds the old content or the new one, never a torn
// mix or a truncated file, whatever happens to the writer (killed at any
// moment, a full disk, a file size limit).
//
// The new content goes to a temporary file beside the target (same
// directory, so the rename stays on one filesystem), made with mkstemp as
// ".<name>.XXXXXX"; every write is checked, the file is fsynced and closed
// (checked), the target is re-read to make sure nobody changed it since the
// command read it, the temporary file is renamed over the target and the
// directory is fsynced. On any failure before the rename the temporary file
// is removed and the target is untouched. A writer killed by SIGKILL cannot
// clean up: it may leave the temporary file behind, never a damaged target.
//
// Usage, for a command that edits a file:
//
//   absl::StatusOr<FileSnapshot> read = ReadSnapshot(path);
//   ...  // parse *read (nullopt: a new file), compute `text`
//   absl::Status s = WriteFileAtomically(path, *read, text);
#ifndef SHRT_VOCAB_ATOMIC_FILE_H_
#define SHRT_VOCAB_ATOMIC_FILE_H_

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace shrt {

// What a file held when a command read it: its bytes, or nullopt when it
// did not exist.
using FileSnapshot = std::optional<std::string>;

// Reads `path` as ReadFile does (text_proto.h), or nullopt when nothing
// exists at `path`. Errors: those of ReadFile for every other failure.
absl::StatusOr<FileSnapshot> ReadSnapshot(const std::string& path);

// Replaces the file at `path` with `contents` if it still holds `read` (what
// ReadSnapshot returned when the command started; nullopt: it must still
// not exist). A symlink at `path` is followed: its target is replaced. The
// new file keeps the old one's permission bits (a new file gets 0666 less
// the umask). SIGXFSZ is ignored while writing, so a file size limit makes
// write() fail with EFBIG instead of killing the process silently.
//
// Errors, each with the target untouched, no temporary file left, and a
// message that names `path` and ends in "; nothing written":
//   FailedPrecondition "<path>: changed since it was read; nothing written";
//   the errno's code (absl::ErrnoToStatusCode) "<path>: <step>: <strerror>;
//     nothing written" when creating, writing, syncing or closing the
//     temporary file, re-reading the target or renaming fails (e.g.
//     OutOfRange "...: File too large" under a file size limit,
//     ResourceExhausted "...: No space left on device").
// After the rename, only syncing the directory can fail: the errno's code,
// "<path>: replaced, but syncing its directory failed: <strerror>" (the new
// content is in place but may not survive a power cut).
//
// Another writer that replaces the file between the re-read and the rename
// (microseconds) is not detected: there is no lock.
absl::Status WriteFileAtomically(const std::string& path, const FileSnapshot& read,
                                 absl::string_view contents);

}  // namespace shrt

#endif  // SHRT_VOCAB_ATOMIC_FILE_H_
