#include "shrt/engine/isolation.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <deque>
#include <map>
#include <new>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "shrt/engine/leak_check.h"

namespace shrt {
namespace {

// What a worker publishes to the parent: the number of the operator call
// it is in and when that call started (0: in no call).
struct CallSlot {
  std::atomic<int64_t> call{-1};
  std::atomic<int64_t> started_ns{0};
};
static_assert(std::atomic<int64_t>::is_always_lock_free, "CallSlot is shared across processes");

int64_t MonotonicNanos() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// The calls of the task a worker is running.
struct WorkerCalls {
  CallSlot* slot = nullptr;
  int64_t next = 0;
  std::map<int64_t, std::string> known;  // crashing call -> reason
  size_t replayed = 0;                   // known crashes reached
  int64_t made = 0;                      // calls made (EndOperatorCall)
  int64_t made_ns = 0;                   // their wall time
};
// Set only inside a worker, while it runs a task (workers are
// single-threaded).
WorkerCalls* g_worker = nullptr;

constexpr absl::string_view kCrashPrefix = "crashed: ";

// The signals a crashing operator raises. A worker gives them their
// default action, so that the signal that ends it is the crash's reason:
// a handler inherited from the host process would turn it into something
// else (AddressSanitizer's handle_segv/handle_sigfpe print a report and
// exit with status 1; Python's faulthandler re-raises after a dump).
constexpr int kCrashSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP};

// --- Framing: little structs over pipes ------------------------------------

void Put(std::string& out, const void* data, size_t n) {
  out.append(static_cast<const char*>(data), n);
}
template <typename T>
void PutValue(std::string& out, T v) {
  Put(out, &v, sizeof v);
}
void PutString(std::string& out, absl::string_view s) {
  PutValue<uint64_t>(out, s.size());
  Put(out, s.data(), s.size());
}

bool WriteAll(int fd, absl::string_view data) {
  while (!data.empty()) {
    const ssize_t n = write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

bool ReadExact(int fd, void* data, size_t size) {
  char* p = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t n = read(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

bool ReadString(int fd, std::string& s) {
  uint64_t size = 0;
  if (!ReadExact(fd, &size, sizeof size)) return false;
  s.resize(size);
  return size == 0 || ReadExact(fd, s.data(), size);
}

// Parent -> worker: the task and its known crashes.
std::string TaskMessage(int task, const std::vector<CallCrash>& crashes) {
  std::string m;
  PutValue<int32_t>(m, task);
  PutValue<uint32_t>(m, static_cast<uint32_t>(crashes.size()));
  for (const CallCrash& c : crashes) {
    PutValue<int64_t>(m, c.call);
    PutString(m, c.reason);
  }
  return m;
}

// Worker -> parent: [size][status code][operator calls made][their wall
// time, ns][result or message].
std::string ResultMessage(const absl::StatusOr<std::string>& r, const WorkerCalls& calls) {
  std::string body;
  PutValue<int32_t>(body, static_cast<int32_t>(r.status().code()));
  PutValue<int64_t>(body, calls.made);
  PutValue<int64_t>(body, calls.made_ns);
  body += r.ok() ? *r : std::string(r.status().message());
  std::string m;
  PutString(m, body);
  return m;
}

// Parses a complete ResultMessage at the front of `buffer` (and removes
// it) into `outcome`'s result and operator calls, or returns false while it
// is incomplete.
bool TakeResult(std::string& buffer, TaskOutcome& outcome) {
  uint64_t size = 0;
  int32_t code = 0;
  int64_t made = 0, made_ns = 0;
  constexpr size_t kHead = sizeof code + sizeof made + sizeof made_ns;
  if (buffer.size() < sizeof size) return false;
  std::memcpy(&size, buffer.data(), sizeof size);
  if (buffer.size() < sizeof size + size || size < kHead) return false;
  const char* head = buffer.data() + sizeof size;
  std::memcpy(&code, head, sizeof code);
  std::memcpy(&made, head + sizeof code, sizeof made);
  std::memcpy(&made_ns, head + sizeof code + sizeof made, sizeof made_ns);
  std::string rest = buffer.substr(sizeof size + kHead, size - kHead);
  buffer.erase(0, sizeof size + size);
  if (code == 0) {
    outcome.result = std::move(rest);
  } else {
    outcome.result = absl::Status(static_cast<absl::StatusCode>(code), rest);
  }
  outcome.operator_calls = made;
  outcome.operator_seconds = static_cast<double>(made_ns) * 1e-9;
  return true;
}

// --- The worker ----------------------------------------------------------

[[noreturn]] void WorkerMain(int in, int out, CallSlot* slot, const IsolatedTask& task) {
  for (;;) {
    int32_t id = 0;
    uint32_t n = 0;
    if (!ReadExact(in, &id, sizeof id) || !ReadExact(in, &n, sizeof n)) {
      CheckLeaksNow();  // the parent is done: the worker's normal end
      _exit(0);
    }
    WorkerCalls calls;
    calls.slot = slot;
    for (uint32_t i = 0; i < n; ++i) {
      int64_t call = 0;
      std::string reason;
      if (!ReadExact(in, &call, sizeof call) || !ReadString(in, reason)) _exit(1);
      calls.known[call] = std::move(reason);
    }
    g_worker = &calls;
    absl::StatusOr<std::string> result = task(id);
    g_worker = nullptr;
    if (result.ok() && calls.replayed < calls.known.size()) {
      result = absl::InternalError(absl::StrCat(
          calls.known.size() - calls.replayed,
          " crashed operator call(s) did not recur at the same call on the re-run (",
          calls.known.rbegin()->second, " at call #", calls.known.rbegin()->first,
          "): the operator or its inputs are not deterministic"));
    }
    if (!WriteAll(out, ResultMessage(result, calls))) _exit(1);
  }
}

// --- The parent ----------------------------------------------------------

struct Worker {
  pid_t pid = -1;
  int to = -1;    // task messages
  int from = -1;  // result messages
  CallSlot* slot = nullptr;
  int task = -1;  // running task, -1 when idle
  std::string buffer;
  bool timed_out = false;
};

void Release(Worker& w) {
  if (w.to >= 0) close(w.to);
  if (w.from >= 0) close(w.from);
  if (w.slot != nullptr) munmap(w.slot, sizeof(CallSlot));
  w = Worker();
}

absl::StatusOr<Worker> Spawn(const IsolatedTask& task, const std::deque<Worker>& others) {
  int down[2], up[2];
  if (pipe(down) != 0) return absl::InternalError(absl::StrCat("pipe: ", std::strerror(errno)));
  if (pipe(up) != 0) {
    close(down[0]);
    close(down[1]);
    return absl::InternalError(absl::StrCat("pipe: ", std::strerror(errno)));
  }
  void* shared = mmap(nullptr, sizeof(CallSlot), PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  Worker w;
  w.to = down[1];
  w.from = up[0];
  if (shared == MAP_FAILED) {
    close(down[0]);
    close(up[1]);
    Release(w);
    return absl::InternalError(absl::StrCat("mmap: ", std::strerror(errno)));
  }
  w.slot = new (shared) CallSlot();
  std::fflush(nullptr);  // buffered output must not be written twice
  w.pid = fork();
  if (w.pid < 0) {
    close(down[0]);
    close(up[1]);
    Release(w);
    return absl::InternalError(absl::StrCat("fork: ", std::strerror(errno)));
  }
  if (w.pid == 0) {
    // The other workers see the end of their task pipe only once no
    // process holds its write end.
    for (const Worker& o : others) {
      close(o.to);
      close(o.from);
    }
    close(down[1]);
    close(up[0]);
    signal(SIGPIPE, SIG_DFL);
    for (int sig : kCrashSignals) signal(sig, SIG_DFL);
    WorkerMain(down[0], up[1], w.slot, task);
  }
  close(down[0]);
  close(up[1]);
  return w;
}

std::string DeathReason(const Worker& w, int status, absl::Duration limit) {
  if (w.timed_out) {
    return absl::StrCat("time limit: the call ran past ", absl::FormatDuration(limit));
  }
  if (WIFSIGNALED(status)) return SignalText(WTERMSIG(status));
  if (WIFEXITED(status)) return absl::StrCat("exited with status ", WEXITSTATUS(status));
  return absl::StrCat("ended with wait status ", status);
}

}  // namespace

std::string SignalText(int signal) {
  const char* abbrev = sigabbrev_np(signal);
  return abbrev == nullptr ? absl::StrCat("signal ", signal)
                           : absl::StrCat("SIG", abbrev, " (signal ", signal, ")");
}

absl::Status BeginOperatorCall() {
  if (g_worker == nullptr) return absl::OkStatus();
  const int64_t n = g_worker->next++;
  if (auto it = g_worker->known.find(n); it != g_worker->known.end()) {
    ++g_worker->replayed;
    return absl::AbortedError(absl::StrCat(kCrashPrefix, it->second));
  }
  g_worker->slot->call.store(n, std::memory_order_relaxed);
  g_worker->slot->started_ns.store(MonotonicNanos(), std::memory_order_release);
  return absl::OkStatus();
}

void EndOperatorCall() {
  if (g_worker == nullptr) return;
  const int64_t started = g_worker->slot->started_ns.load(std::memory_order_relaxed);
  g_worker->slot->started_ns.store(0, std::memory_order_release);
  ++g_worker->made;
  g_worker->made_ns += MonotonicNanos() - started;
}

bool IsCrash(const absl::Status& status) {
  return status.code() == absl::StatusCode::kAborted &&
         absl::StartsWith(status.message(), kCrashPrefix);
}

absl::StatusOr<std::vector<TaskOutcome>> RunIsolated(int num_tasks, const IsolatedTask& task,
                                                     const IsolationOptions& options,
                                                     const std::function<void(int)>& done) {
  if (options.jobs < 1) return absl::InvalidArgumentError("isolation: jobs must be at least 1");
  if (options.call_time_limit <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("isolation: the call time limit must be positive");
  }
  if (options.max_crashes < 0) {
    return absl::InvalidArgumentError("isolation: max_crashes must not be negative");
  }
  std::vector<TaskOutcome> outcomes(static_cast<size_t>(std::max(0, num_tasks)));
  std::deque<int> pending;
  for (int t = 0; t < num_tasks; ++t) pending.push_back(t);
  // A worker that dies makes writes to its pipe fail with EPIPE, not kill
  // the parent.
  struct sigaction ignore = {}, previous = {};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, &previous);
  std::deque<Worker> workers;
  absl::Status failure;
  int finished = 0;
  auto finish = [&](int t) {
    ++finished;
    if (done) done(t);
  };
  const int64_t limit_ns = absl::ToInt64Nanoseconds(options.call_time_limit);
  while (finished < num_tasks && failure.ok()) {
    // Hand out tasks: idle workers first, then new ones. A worker that
    // cannot take its task (it died idle) is replaced.
    auto assign = [&](Worker& w) {
      w.task = pending.front();
      pending.pop_front();
      if (WriteAll(w.to, TaskMessage(w.task, outcomes[w.task].crashes))) return;
      pending.push_front(w.task);
      kill(w.pid, SIGKILL);
      int status = 0;
      waitpid(w.pid, &status, 0);
      Release(w);
    };
    for (Worker& w : workers) {
      if (w.task < 0 && w.pid >= 0 && !pending.empty()) assign(w);
    }
    workers.erase(std::remove_if(workers.begin(), workers.end(),
                                 [](const Worker& w) { return w.pid < 0; }),
                  workers.end());
    while (!pending.empty() && static_cast<int>(workers.size()) < options.jobs) {
      absl::StatusOr<Worker> w = Spawn(task, workers);
      if (!w.ok()) {
        failure = w.status();
        break;
      }
      workers.push_back(*std::move(w));
      assign(workers.back());
      if (workers.back().pid < 0) workers.pop_back();
    }
    std::vector<pollfd> fds;
    std::vector<Worker*> busy;
    for (Worker& w : workers) {
      if (w.task < 0) continue;
      fds.push_back({w.from, POLLIN, 0});
      busy.push_back(&w);
    }
    if (fds.empty()) break;
    if (poll(fds.data(), fds.size(), 50) < 0 && errno != EINTR) {
      failure = absl::InternalError(absl::StrCat("poll: ", std::strerror(errno)));
      break;
    }
    const int64_t now = MonotonicNanos();
    for (size_t i = 0; i < busy.size(); ++i) {
      Worker& w = *busy[i];
      const int64_t started = w.slot->started_ns.load(std::memory_order_acquire);
      if (!w.timed_out && started != 0 && now - started > limit_ns) {
        kill(w.pid, SIGKILL);
        w.timed_out = true;
      }
      if ((fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      char chunk[1 << 16];
      const ssize_t n = read(w.from, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n > 0) {
        w.buffer.append(chunk, static_cast<size_t>(n));
        if (TakeResult(w.buffer, outcomes[w.task])) {
          const int t = w.task;
          w.task = -1;
          finish(t);
        }
        continue;
      }
      // End of the pipe: the worker died while running its task.
      int status = 0;
      waitpid(w.pid, &status, 0);
      const int t = w.task;
      const int64_t call = w.slot->call.load(std::memory_order_relaxed);
      const bool in_call = w.slot->started_ns.load(std::memory_order_acquire) != 0;
      const std::string reason = DeathReason(w, status, options.call_time_limit);
      std::vector<CallCrash>& crashes = outcomes[t].crashes;
      if (in_call && static_cast<int>(crashes.size()) < options.max_crashes) {
        crashes.push_back({call, reason});
        pending.push_front(t);  // again, without that call
      } else {
        outcomes[t].result = absl::InternalError(
            in_call ? absl::StrCat("gave up after ", crashes.size(), " crashed operator calls; the next: ",
                                   reason, " at call #", call)
                    : absl::StrCat("the worker died outside any operator call (", reason,
                                   "): a fault of ShRT or of the system, e.g. out of memory"));
        finish(t);
      }
      w.pid = -1;
    }
    // Dead workers leave the pool (the loop above marked them).
    for (auto it = workers.begin(); it != workers.end();) {
      if (it->pid < 0) {
        Release(*it);
        it = workers.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (Worker& w : workers) {
    close(w.to);
    w.to = -1;
  }
  for (Worker& w : workers) {
    const bool killed = !failure.ok() || w.task >= 0;
    if (killed) kill(w.pid, SIGKILL);
    int status = 0;
    waitpid(w.pid, &status, 0);
    // Its normal end exits 0 (WorkerMain); under AddressSanitizer, another
    // exit status there is LeakSanitizer's (leak_check.h).
    if (!killed && failure.ok() && WIFEXITED(status) && WEXITSTATUS(status) != 0) {
      failure = absl::InternalError(absl::StrCat(
          "a worker exited with status ", WEXITSTATUS(status),
          " after its last task (under AddressSanitizer: a leak LeakSanitizer found; its "
          "report is on stderr)"));
    }
    Release(w);
  }
  sigaction(SIGPIPE, &previous, nullptr);
  if (!failure.ok()) return failure;
  return outcomes;
}

}  // namespace shrt
