// The start-up floor of every process that links libtorch: a program that
// links libtorch as the generated tests do (same flags, same malloc through
// .bazelrc's --custom_malloc) and exits at once. Its CPU time is the dynamic
// loader's work on libtorch and libtorch's static initialisers (operator
// schemas parsed and registered with the dispatcher), which no test process
// can avoid (tools/bench/startup_floor.sh).
#include <cstdlib>

#include "ATen/Parallel.h"

int main() {
  // Exits without static destructors, as the generated tests' main() does
  // (shrt/op_test/op_test.cc): libtorch's teardown is no part of the floor.
  // Compares a libtorch symbol's address without calling it, so that the
  // linker keeps libtorch_cpu.so as a dependency (NEEDED) of the binary.
  std::_Exit(&at::get_num_threads == nullptr);
}
