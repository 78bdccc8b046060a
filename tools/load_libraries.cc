#include "tools/load_libraries.h"

#include <dlfcn.h>
#include <unistd.h>

#include "ATen/core/dispatch/Dispatcher.h"
#include "absl/strings/str_cat.h"
#include "tools/plugin_registration.h"

namespace shrt {
namespace {

size_t OperatorCount() { return c10::Dispatcher::singleton().getAllOpNames().size(); }

absl::Status LoadLibrary(const std::string& path) {
  if (access(path.c_str(), R_OK) != 0) {
    return absl::NotFoundError(absl::StrCat("--load: no readable file '", path, "'"));
  }
  const size_t operators = OperatorCount();
  const int strategies = PluginRegistrations();
  // dlopen searches the library path for names without a slash; a file
  // named on the command line is meant.
  const std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  if (dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL) == nullptr) {
    const char* error = dlerror();
    return absl::FailedPreconditionError(
        absl::StrCat("--load: cannot load '", path, "': ", error ? error : "unknown error"));
  }
  if (OperatorCount() == operators && PluginRegistrations() == strategies) {
    return absl::FailedPreconditionError(absl::StrCat(
        "--load: '", path,
        "' registers no operator (TORCH_LIBRARY) and no strategy (SHRT_PLUGIN_STRATEGY of "
        "shrt/plugin.h, built against this version of it)"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status LoadLibraries(const std::vector<std::string>& paths) {
  for (const std::string& path : paths) {
    if (absl::Status s = LoadLibrary(path); !s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace shrt
