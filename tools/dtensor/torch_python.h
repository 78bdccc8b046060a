// Running ShRT's Python programs under the torch ShRT is built against.
//
// ShRT's Python side (export_claims.py, which asks DTensor; python_strategy.py,
// which writes discovered rules as a DTensor strategy) must import the torch
// whose libtorch the C++ side links: the interpreter of libtorch/torch_build.h
// kPython (`--repo_env=SHRT_PYTHON=PATH`, or /usr/bin/python3;
// third_party/python/interpreter.bzl). RunTorchPython is the one place that
// starts it.
#ifndef TOOLS_DTENSOR_TORCH_PYTHON_H_
#define TOOLS_DTENSOR_TORCH_PYTHON_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace shrt {

// Where a program's standard streams go: files (paths), or, when empty,
// /dev/null for stdin and this process's own stdout and stderr.
struct PythonStreams {
  std::string stdin_path;
  std::string stdout_path;
  std::string stderr_path;
};

// How a program ended.
struct PythonExit {
  bool signaled = false;  // killed by a signal (code is the signal)
  int code = 0;           // its exit status, or the signal
};

// Runs `PYTHON script args...` with `streams`, PYTHON being kPython, with
// this process's environment and PYTHONHASHSEED=0 (DTensor breaks ties in
// set order: a run must not depend on Python's hash seed), and waits.
// Errors: Internal when `script` is not a file or PYTHON cannot be started.
absl::StatusOr<PythonExit> RunTorchPython(const std::string& script,
                                          const std::vector<std::string>& args,
                                          const PythonStreams& streams);

// The interpreter RunTorchPython runs (kPython), for messages.
const char* TorchPython();

// The message a program that failed on bad input ends its stderr with:
// the last non-empty line of `text`, without the program's own
// "<program>: " prefix (ShRT's Python programs print "export_claims: ...",
// "python_strategy: ..."), after whatever torch warned before.
std::string LastLine(absl::string_view text, absl::string_view program);

}  // namespace shrt

#endif  // TOOLS_DTENSOR_TORCH_PYTHON_H_
