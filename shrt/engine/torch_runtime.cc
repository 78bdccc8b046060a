#include "shrt/engine/torch_runtime.h"

#include "ATen/Context.h"
#include "ATen/Parallel.h"
#include "absl/base/call_once.h"
#include "c10/util/Exception.h"

namespace shrt {

void UseGroundTruthRuntime() {
  static absl::once_flag once;
  absl::call_once(once, [] {
    at::set_num_threads(1);
    at::globalContext().setDeterministicAlgorithms(/*b=*/true, /*warn_only=*/true);
    at::globalContext().setDeterministicFillUninitializedMemory(true);
    c10::WarningUtils::set_warnAlways(true);
  });
}

UnfilledScope::UnfilledScope() : was_(at::globalContext().deterministicFillUninitializedMemory()) {
  at::globalContext().setDeterministicFillUninitializedMemory(false);
}

UnfilledScope::~UnfilledScope() {
  at::globalContext().setDeterministicFillUninitializedMemory(was_);
}

}  // namespace shrt
