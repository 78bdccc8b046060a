#include "tools/dtensor/torch_python.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cstring>
#include <filesystem>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "libtorch/torch_build.h"

extern char** environ;

namespace shrt {

const char* TorchPython() { return torch_build::kPython; }

std::string LastLine(absl::string_view text, absl::string_view program) {
  text = absl::StripTrailingAsciiWhitespace(text);
  const size_t nl = text.rfind('\n');
  if (nl != absl::string_view::npos) text = text.substr(nl + 1);
  absl::ConsumePrefix(&text, absl::StrCat(program, ": "));
  return std::string(text);
}

absl::StatusOr<PythonExit> RunTorchPython(const std::string& script,
                                          const std::vector<std::string>& args,
                                          const PythonStreams& streams) {
  if (!std::filesystem::is_regular_file(script)) {
    return absl::InternalError(absl::StrCat("cannot run ", script, ": no such file"));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(
      &actions, STDIN_FILENO, streams.stdin_path.empty() ? "/dev/null" : streams.stdin_path.c_str(),
      O_RDONLY, 0);
  if (!streams.stdout_path.empty()) {
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, streams.stdout_path.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
  }
  if (!streams.stderr_path.empty()) {
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, streams.stderr_path.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
  }
  std::vector<std::string> argv_text = {torch_build::kPython, script};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  // Python's string hashing is seeded per process unless PYTHONHASHSEED is
  // set, and DTensor iterates sets of placements (e.g. the decomposition
  // path's candidates, _decompositions.py _get_candidate_placements), so
  // its ties, and with them which input tuples trace, differed from one run
  // to the next: one seed for every run.
  std::vector<std::string> env = {"PYTHONHASHSEED=0"};
  for (char** e = environ; *e != nullptr; ++e) {
    if (!absl::StartsWith(*e, "PYTHONHASHSEED=")) env.push_back(*e);
  }
  std::vector<char*> envp;
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid = 0;
  const int error =
      posix_spawn(&pid, torch_build::kPython, &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) {
    return absl::InternalError(absl::StrCat("cannot run ", torch_build::kPython, " ", script,
                                            ": ", std::strerror(error)));
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFSIGNALED(status)) return PythonExit{true, WTERMSIG(status)};
  return PythonExit{false, WEXITSTATUS(status)};
}

}  // namespace shrt
