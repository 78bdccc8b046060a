// Crash isolation (DESIGN.md §10): ShRT runs operators that may crash, and
// a crash of one case is a verdict, never the end of the run.
//
// RunIsolated runs tasks (e.g. one overload's validation each) in forked
// worker processes and returns each task's result, serialised by the task.
// Every operator call a task makes goes through BeginOperatorCall /
// EndOperatorCall, which number the calls of the task in order (0, 1, ...)
// and publish the running call's number and start time to the parent
// through shared memory. When a worker dies (a signal: SIGSEGV, SIGFPE,
// SIGABRT from a failed assert, ...) or a call runs past the time limit
// (the parent kills it with SIGKILL), the parent records the crash of that
// call and runs the task again in a fresh worker; there, the same call
// (ground truth is deterministic, so it has the same number) is not made
// but returns a crash status (IsCrash) carrying the crash's reason, so the
// task judges that case as crashed and goes on with the rest.
//
// Workers are forked on demand, at most `jobs` at a time, and each runs
// tasks until the parent is done (a crash costs one new fork); a worker
// ends with _exit, after LeakSanitizer's exit check under AddressSanitizer. The parent
// must be single-threaded when it calls RunIsolated (fork() copies only
// the calling thread), and runs no task itself.
#ifndef SHRT_ENGINE_ISOLATION_H_
#define SHRT_ENGINE_ISOLATION_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace shrt {

struct IsolationOptions {
  // Worker processes at once, >= 1.
  int jobs = 1;
  // Wall time one operator call may take before it counts as crashed
  // ("time limit"); a worker is killed with SIGKILL when it is exceeded.
  absl::Duration call_time_limit = absl::Seconds(60);
  // Crashing calls per task before the task gives up: each crash re-runs
  // the task from its start, so a task costs up to (1 + crashes) runs.
  int max_crashes = 32;
};

// One crashed operator call of a task.
struct CallCrash {
  int64_t call = -1;   // its number among the task's calls, from 0
  std::string reason;  // "SIGFPE (signal 8)", "time limit: the call ran past 60 s"
};

// A task's work, run in a worker: its serialised result (or an error,
// returned to the parent as code and message).
using IsolatedTask = std::function<absl::StatusOr<std::string>(int task)>;

// What RunIsolated returns per task.
struct TaskOutcome {
  // The task's result. Errors: the task's own; Internal when the task
  // could not finish: its worker died outside any operator call (a fault
  // of ShRT, or the operating system's, e.g. an out-of-memory kill), it
  // crashed more than max_crashes times, or a crash did not recur at the
  // same call on the re-run (a nondeterministic operator).
  absl::StatusOr<std::string> result = absl::UnknownError("not run");
  // The calls that crashed, in the order found (the result's task has
  // already judged them).
  std::vector<CallCrash> crashes;
  // The operator calls the run that gave `result` made (each from
  // BeginOperatorCall to EndOperatorCall; a known crash, not made, is not
  // counted), and their wall time in seconds: the part of the task's time
  // spent in the operators themselves (DESIGN.md §8, the floor).
  int64_t operator_calls = 0;
  double operator_seconds = 0;
};

// Runs tasks 0 .. num_tasks-1 in forked workers and returns their
// outcomes in task order; `done` (if set) is called in the parent after
// each task. Errors: InvalidArgument for options out of range; Internal
// when a pipe, a shared mapping or fork() fails, or when a worker exits
// with a non-zero status after its last task: under AddressSanitizer a
// worker makes LeakSanitizer's exit check before it ends (leak_check.h),
// and that is a leak in the tasks' code, reported on stderr.
absl::StatusOr<std::vector<TaskOutcome>> RunIsolated(int num_tasks, const IsolatedTask& task,
                                                     const IsolationOptions& options,
                                                     const std::function<void(int)>& done = {});

// Called by ShRT before each call of an operator under test. In a worker,
// numbers the call and returns the crash status of a call known to crash
// (which must then not be made); elsewhere (no RunIsolated worker) it
// returns OK and costs nothing.
absl::Status BeginOperatorCall();
// Called after each call BeginOperatorCall allowed, when it returns or
// throws.
void EndOperatorCall();

// True for the status BeginOperatorCall returns for a known crash
// (code Aborted, message "crashed: <reason>").
bool IsCrash(const absl::Status& status);

// "SIGSEGV (signal 11)" for a signal number.
std::string SignalText(int signal);

}  // namespace shrt

#endif  // SHRT_ENGINE_ISOLATION_H_
