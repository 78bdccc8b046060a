#include "shrt/vocab/atomic_file.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace shrt {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A fresh, empty directory for one test.
std::string FreshDir(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  fs::path dir = fs::path(tmp != nullptr ? tmp : "/tmp") / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

void Put(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::string Get(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The names in `dir`, sorted: a leftover temporary file shows here.
std::vector<std::string> Names(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

mode_t Mode(const std::string& path) {
  struct stat st {};
  stat(path.c_str(), &st);
  return st.st_mode & 07777;
}

TEST(ReadSnapshotTest, MissingFileIsNullopt) {
  const std::string dir = FreshDir("snapshot");
  absl::StatusOr<FileSnapshot> read = ReadSnapshot(dir + "/none");
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_FALSE(read->has_value());
  Put(dir + "/f", "abc");
  read = ReadSnapshot(dir + "/f");
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, FileSnapshot("abc"));
  read = ReadSnapshot(dir);
  ASSERT_FALSE(read.ok());
  EXPECT_THAT(std::string(read.status().message()), HasSubstr("is a directory"));
}

TEST(WriteFileAtomicallyTest, CreatesANewFileWithTheUmaskMode) {
  const std::string dir = FreshDir("create");
  const std::string path = dir + "/x.textproto";
  ASSERT_TRUE(WriteFileAtomically(path, std::nullopt, "new\n").ok());
  EXPECT_EQ(Get(path), "new\n");
  const mode_t mask = umask(0);
  umask(mask);
  EXPECT_EQ(Mode(path), 0666 & ~mask);
  EXPECT_THAT(Names(dir), ElementsAre("x.textproto"));
}

TEST(WriteFileAtomicallyTest, ReplacesAndKeepsThePermissionBits) {
  const std::string dir = FreshDir("replace");
  const std::string path = dir + "/x.textproto";
  Put(path, "old\n");
  chmod(path.c_str(), 0640);
  ASSERT_TRUE(WriteFileAtomically(path, "old\n", "new\n").ok());
  EXPECT_EQ(Get(path), "new\n");
  EXPECT_EQ(Mode(path), 0640);
  EXPECT_THAT(Names(dir), ElementsAre("x.textproto"));
}

TEST(WriteFileAtomicallyTest, RefusesAFileChangedSinceItWasRead) {
  const std::string dir = FreshDir("changed");
  const std::string path = dir + "/x.textproto";
  struct Case {
    FileSnapshot read;
    std::optional<std::string> on_disk;  // nullopt: removed
  };
  for (const Case& c : {Case{"old\n", "edited by hand\n"}, Case{std::nullopt, "created meanwhile\n"},
                        Case{"old\n", std::nullopt}, Case{"old\n", "old\n\n"}}) {
    fs::remove(path);
    if (c.on_disk.has_value()) Put(path, *c.on_disk);
    absl::Status s = WriteFileAtomically(path, c.read, "new\n");
    EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
    EXPECT_EQ(s.message(), path + ": changed since it was read; nothing written");
    EXPECT_EQ(fs::exists(path), c.on_disk.has_value());
    if (c.on_disk.has_value()) {
      EXPECT_EQ(Get(path), *c.on_disk);
    }
    EXPECT_EQ(Names(dir).size(), c.on_disk.has_value() ? 1u : 0u) << "a temporary file was left";
  }
}

TEST(WriteFileAtomicallyTest, AFileSizeLimitFailsCleanly) {
  const std::string dir = FreshDir("fsize");
  const std::string path = dir + "/x.textproto";
  Put(path, "old\n");
  struct rlimit saved {};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &saved), 0);
  struct rlimit small = saved;
  small.rlim_cur = 4096;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  // Without the writer ignoring SIGXFSZ, this would kill the test.
  absl::Status s = WriteFileAtomically(path, "old\n", std::string(64 << 10, 'x'));
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &saved), 0);
  EXPECT_EQ(s.code(), absl::ErrnoToStatusCode(EFBIG)) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr(path + ": cannot write "));
  EXPECT_THAT(std::string(s.message()), HasSubstr("File too large; nothing written"));
  EXPECT_EQ(Get(path), "old\n");
  EXPECT_THAT(Names(dir), ElementsAre("x.textproto"));
  // The caller's SIGXFSZ action is back.
  struct sigaction now {};
  sigaction(SIGXFSZ, nullptr, &now);
  EXPECT_EQ(now.sa_handler, SIG_DFL);
}

TEST(WriteFileAtomicallyTest, AMissingDirectoryIsNamed) {
  const std::string dir = FreshDir("nodir");
  const std::string path = dir + "/no/such/x.textproto";
  absl::Status s = WriteFileAtomically(path, std::nullopt, "new\n");
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound) << s;
  EXPECT_EQ(s.message(), absl::StrCat(path, ": cannot create a temporary file in ", dir,
                                      "/no/such: No such file or directory; nothing written"));
}

TEST(WriteFileAtomicallyTest, FollowsASymlink) {
  const std::string dir = FreshDir("symlink");
  Put(dir + "/real.textproto", "old\n");
  fs::create_symlink("real.textproto", dir + "/link.textproto");
  ASSERT_TRUE(WriteFileAtomically(dir + "/link.textproto", "old\n", "new\n").ok());
  EXPECT_TRUE(fs::is_symlink(dir + "/link.textproto"));
  EXPECT_EQ(Get(dir + "/real.textproto"), "new\n");
  EXPECT_THAT(Names(dir), ElementsAre("link.textproto", "real.textproto"));
}

}  // namespace
}  // namespace shrt
