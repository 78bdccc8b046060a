#include "shrt/engine/leak_check.h"

#include "sanitizer/lsan_interface.h"  // declarations only; the sanitizers' runtime defines them

// gcc defines __SANITIZE_ADDRESS__ under -fsanitize=address (--config=asan);
// clang says so through __has_feature (--config=fuzz).
#if defined(__SANITIZE_ADDRESS__)
#define SHRT_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SHRT_ADDRESS_SANITIZER 1
#endif
#endif

namespace shrt {

void CheckLeaksNow() {
#ifdef SHRT_ADDRESS_SANITIZER
  __lsan_do_leak_check();
#endif
}

bool LeakChecksBuiltIn() {
#ifdef SHRT_ADDRESS_SANITIZER
  return true;
#else
  return false;
#endif
}

void IgnoringLeaks(void (*fn)()) {
#ifdef SHRT_ADDRESS_SANITIZER
  __lsan_disable();
  fn();
  __lsan_enable();
#else
  fn();
#endif
}

}  // namespace shrt
