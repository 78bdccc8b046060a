// --load: custom-op libraries loaded at start-up (shrt/plugin.h).
//
// Each library is opened with dlopen(RTLD_NOW | RTLD_LOCAL), which runs its
// static initialisers: TORCH_LIBRARY registers its operators with the c10
// dispatcher, SHRT_PLUGIN_STRATEGY its strategies with
// StrategyRegistry::Global(). A library must register at least one of
// either; its strategies' own errors (unknown overload, duplicates) are
// StrategyRegistry::Check()'s to report.
#ifndef TOOLS_LOAD_LIBRARIES_H_
#define TOOLS_LOAD_LIBRARIES_H_

#include <string>
#include <vector>

#include "absl/status/status.h"

namespace shrt {

// Loads `paths` in order. Errors, each naming the library: NotFound for a
// path that is not a readable file; FailedPrecondition for a library the
// dynamic loader refuses (its dlerror(): an undefined symbol, e.g. of
// another libtorch ABI, or not a shared object) and for a library that
// registers no operator and no strategy. Libraries loaded before an error
// stay loaded.
absl::Status LoadLibraries(const std::vector<std::string>& paths);

}  // namespace shrt

#endif  // TOOLS_LOAD_LIBRARIES_H_
