// A one-line progress display for long CLI runs: overloads done out of
// total, rate and time left, redrawn in place on a terminal and silent
// otherwise (CI logs stay clean).
#ifndef TOOLS_PROGRESS_H_
#define TOOLS_PROGRESS_H_

#include <chrono>
#include <cstdio>
#include <mutex>

namespace shrt {

class Progress {
 public:
  // Draws on `stream` only if it is a terminal; a null `stream` (--quiet)
  // draws nothing.
  Progress(int total, FILE* stream);
  ~Progress();

  // Records one finished overload and redraws. Thread-safe.
  void Done();

 private:
  const int total_;
  FILE* stream_;
  const bool active_;
  int done_ = 0;
  std::mutex mu_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace shrt

#endif  // TOOLS_PROGRESS_H_
