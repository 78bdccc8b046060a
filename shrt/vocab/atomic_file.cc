#include "shrt/vocab/atomic_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "absl/strings/str_cat.h"
#include "shrt/vocab/text_proto.h"

namespace shrt {
namespace {

// "<path>: <step>: <strerror>; nothing written", with the errno's code.
absl::Status Failed(const std::string& path, absl::string_view step, int err) {
  return absl::Status(absl::ErrnoToStatusCode(err),
                      absl::StrCat(path, ": ", step, ": ", std::strerror(err), "; nothing written"));
}

// Ignores SIGXFSZ while it lives (write() then fails with EFBIG past the
// file size limit), and restores the previous action after.
class IgnoreFileSizeSignal {
 public:
  IgnoreFileSizeSignal() {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGXFSZ, &ignore, &previous_);
  }
  ~IgnoreFileSizeSignal() { sigaction(SIGXFSZ, &previous_, nullptr); }
  IgnoreFileSizeSignal(const IgnoreFileSizeSignal&) = delete;
  IgnoreFileSizeSignal& operator=(const IgnoreFileSizeSignal&) = delete;

 private:
  struct sigaction previous_ {};
};

// Writes all of `data` to `fd`, through short writes and EINTR. Returns 0,
// or the errno of the write that failed.
int WriteAll(int fd, absl::string_view data) {
  while (!data.empty()) {
    const ssize_t n = write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return 0;
}

// The permission bits the new file gets: the old file's, or those a new
// file would get from open(..., 0666).
mode_t NewFileMode(const std::string& target) {
  struct stat st {};
  if (stat(target.c_str(), &st) == 0) return st.st_mode & 07777;
  const mode_t mask = umask(0);
  umask(mask);
  return 0666 & ~mask;
}

}  // namespace

absl::StatusOr<FileSnapshot> ReadSnapshot(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0 && errno == ENOENT) return FileSnapshot();
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  return FileSnapshot(*std::move(text));
}

absl::Status WriteFileAtomically(const std::string& path, const FileSnapshot& read,
                                 absl::string_view contents) {
  std::filesystem::path target(path);
  std::error_code ec;
  if (std::filesystem::is_symlink(target, ec)) {
    std::filesystem::path resolved = std::filesystem::canonical(target, ec);
    if (!ec) target = resolved;
  }
  const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : ".";
  std::string name = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
  const mode_t mode = NewFileMode(target.string());

  IgnoreFileSizeSignal ignore_file_size_signal;
  int fd = mkstemp(name.data());
  if (fd < 0) return Failed(path, absl::StrCat("cannot create a temporary file in ", dir.string()), errno);
  auto fail = [&](absl::string_view step, int err) {
    if (fd >= 0) close(fd);
    unlink(name.c_str());
    return Failed(path, step, err);
  };
  if (fchmod(fd, mode) != 0) return fail(absl::StrCat("cannot set the mode of ", name), errno);
  if (int err = WriteAll(fd, contents); err != 0) return fail(absl::StrCat("cannot write ", name), err);
  if (fsync(fd) != 0) return fail(absl::StrCat("cannot sync ", name), errno);
  const int closed = close(fd);
  fd = -1;
  if (closed != 0) return fail(absl::StrCat("cannot close ", name), errno);

  absl::StatusOr<FileSnapshot> now = ReadSnapshot(path);
  if (!now.ok()) {
    unlink(name.c_str());
    return absl::Status(now.status().code(), absl::StrCat(now.status().message(), "; nothing written"));
  }
  if (*now != read) {
    unlink(name.c_str());
    return absl::FailedPreconditionError(absl::StrCat(path, ": changed since it was read; nothing written"));
  }
  if (rename(name.c_str(), target.c_str()) != 0) {
    return fail(absl::StrCat("cannot rename ", name, " over it"), errno);
  }

  const int dir_fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0 || fsync(dir_fd) != 0) {
    const int err = errno;
    if (dir_fd >= 0) close(dir_fd);
    return absl::Status(absl::ErrnoToStatusCode(err),
                        absl::StrCat(path, ": replaced, but syncing its directory failed: ",
                                     std::strerror(err)));
  }
  close(dir_fd);
  return absl::OkStatus();
}

}  // namespace shrt
