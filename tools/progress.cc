#include "tools/progress.h"

#include <unistd.h>

namespace shrt {

Progress::Progress(int total, FILE* stream)
    : total_(total), stream_(stream), active_(total > 0 && stream != nullptr && isatty(fileno(stream)) == 1) {}

Progress::~Progress() {
  if (active_) std::fprintf(stream_, "\r\033[K");
}

void Progress::Done() {
  std::lock_guard<std::mutex> lock(mu_);
  ++done_;
  if (!active_) return;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = seconds > 0 ? done_ / seconds : 0;
  const double left = rate > 0 ? (total_ - done_) / rate : 0;
  std::fprintf(stream_, "\r\033[Kshrt: %d/%d overloads, %.1f overloads/s, ~%.0f s left", done_,
               total_, rate, left);
  std::fflush(stream_);
}

}  // namespace shrt
