#include "shrt/engine/isolation.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "shrt/engine/leak_check.h"

namespace shrt {
namespace {

// A task of `calls` operator calls; call `bad` (if >= 0) does `fault`.
// Its result lists each call: "ok", or the crash status it got instead.
IsolatedTask Calls(int calls, int bad, void (*fault)()) {
  return [=](int task) -> absl::StatusOr<std::string> {
    std::string out = absl::StrCat("task ", task, ":");
    for (int c = 0; c < calls; ++c) {
      absl::Status s = BeginOperatorCall();
      if (!s.ok()) {
        EXPECT_TRUE(IsCrash(s));
        absl::StrAppend(&out, " [", s.message(), "]");
        continue;
      }
      if (task == 1 && c == bad) fault();
      EndOperatorCall();
      absl::StrAppend(&out, " ok");
    }
    return out;
  };
}

void Segfault() { raise(SIGSEGV); }
// An integer division by zero, as libtorch 1.13's softmax backward does on
// an empty chunk (a real idiv: `1 / zero` with a visible zero is folded,
// and at -O2 a constant numerator 1 turns `1 / b` into a comparison, so
// both operands are read from volatiles; not instrumented, as libtorch is
// not, so UBSan does not report it first).
__attribute__((noinline, no_sanitize("undefined"))) int Divide(int a, int b) { return a / b; }
void DivideByZero() {
  volatile int one = 1;
  volatile int zero = 0;
  volatile int x = Divide(one, zero);
  (void)x;
}
void Abort() { std::abort(); }
void Loop() {
  for (volatile int i = 0;; i = i + 1) {
  }
}
void Exit() { _exit(3); }

TEST(IsolationTest, ResultsComeBackInTaskOrder) {
  IsolationOptions options;
  options.jobs = 2;
  int done = 0;
  absl::StatusOr<std::vector<TaskOutcome>> out =
      RunIsolated(5, Calls(2, -1, nullptr), options, [&](int) { ++done; });
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 5u);
  for (int t = 0; t < 5; ++t) {
    ASSERT_TRUE((*out)[t].result.ok());
    EXPECT_EQ(*(*out)[t].result, absl::StrCat("task ", t, ": ok ok"));
    EXPECT_TRUE((*out)[t].crashes.empty());
    EXPECT_EQ((*out)[t].operator_calls, 2);
  }
  EXPECT_EQ(done, 5);
}

struct Fault {
  void (*fn)();
  std::string reason;
};

TEST(IsolationTest, ACrashingCallIsSkippedOnTheReRunAndTheRestRuns) {
  const Fault faults[] = {
      {Segfault, "SIGSEGV (signal 11)"},
      {DivideByZero, "SIGFPE (signal 8)"},
      {Abort, "SIGABRT (signal 6)"},
      {Loop, "time limit: the call ran past 300ms"},
      {Exit, "exited with status 3"},
  };
  for (const Fault& f : faults) {
    IsolationOptions options;
    options.jobs = 2;
    options.call_time_limit = absl::Milliseconds(300);
    absl::StatusOr<std::vector<TaskOutcome>> out = RunIsolated(3, Calls(4, 2, f.fn), options);
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ(*(*out)[0].result, "task 0: ok ok ok ok");
    EXPECT_EQ(*(*out)[2].result, "task 2: ok ok ok ok");
    ASSERT_TRUE((*out)[1].result.ok()) << (*out)[1].result.status();
    EXPECT_EQ(*(*out)[1].result, absl::StrCat("task 1: ok ok [crashed: ", f.reason, "] ok"));
    EXPECT_EQ((*out)[0].operator_calls, 4);
    EXPECT_EQ((*out)[1].operator_calls, 3);  // the re-run: the crashing call is not made
    ASSERT_EQ((*out)[1].crashes.size(), 1u);
    EXPECT_EQ((*out)[1].crashes[0].call, 2);
    EXPECT_EQ((*out)[1].crashes[0].reason, f.reason);
  }
}

// A task's operator calls are counted, and timed from BeginOperatorCall to
// EndOperatorCall only: the task's own work between calls is not theirs.
TEST(IsolationTest, OperatorCallsAndTheirTimeAreCounted) {
  auto sleep_ms = [](int ms) {
    const timespec t = {0, ms * 1000000L};
    nanosleep(&t, nullptr);
  };
  const IsolatedTask task = [&](int) -> absl::StatusOr<std::string> {
    for (int c = 0; c < 3; ++c) {
      if (absl::Status s = BeginOperatorCall(); !s.ok()) return s;
      sleep_ms(20);
      EndOperatorCall();
      sleep_ms(60);  // outside any call
    }
    return std::string("done");
  };
  absl::StatusOr<std::vector<TaskOutcome>> out = RunIsolated(1, task, IsolationOptions());
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].operator_calls, 3);
  EXPECT_GE((*out)[0].operator_seconds, 0.060);
  EXPECT_LT((*out)[0].operator_seconds, 0.180);  // not the 0.18 s spent between calls
}

TEST(IsolationTest, EveryCrashingCallIsFound) {
  // Task 1 crashes in each of its calls 0 .. 3.
  IsolatedTask task = [](int t) -> absl::StatusOr<std::string> {
    int crashed = 0;
    for (int c = 0; c < 4; ++c) {
      if (!BeginOperatorCall().ok()) {
        ++crashed;
        continue;
      }
      if (t == 1) raise(SIGSEGV);
      EndOperatorCall();
    }
    return absl::StrCat(crashed);
  };
  absl::StatusOr<std::vector<TaskOutcome>> out = RunIsolated(2, task, IsolationOptions());
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(*(*out)[0].result, "0");
  EXPECT_EQ(*(*out)[1].result, "4");
  EXPECT_EQ((*out)[1].crashes.size(), 4u);
}

TEST(IsolationTest, GivesUpAfterMaxCrashes) {
  IsolatedTask task = [](int) -> absl::StatusOr<std::string> {
    for (int c = 0; c < 10; ++c) {
      if (BeginOperatorCall().ok()) raise(SIGSEGV);
    }
    return std::string("done");
  };
  IsolationOptions options;
  options.max_crashes = 3;
  absl::StatusOr<std::vector<TaskOutcome>> out = RunIsolated(1, task, options);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].result.status().code(), absl::StatusCode::kInternal);
  EXPECT_NE((*out)[0].result.status().message().find("gave up after 3 crashed operator calls"),
            std::string::npos)
      << (*out)[0].result.status();
  EXPECT_EQ((*out)[0].crashes.size(), 3u);
}

TEST(IsolationTest, ADeathOutsideACallFailsOnlyItsTask) {
  IsolatedTask task = [](int t) -> absl::StatusOr<std::string> {
    if (t == 0) raise(SIGSEGV);  // not in an operator call: a fault of ShRT's
    return std::string("fine");
  };
  absl::StatusOr<std::vector<TaskOutcome>> out = RunIsolated(2, task, IsolationOptions());
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].result.status().code(), absl::StatusCode::kInternal);
  EXPECT_NE((*out)[0].result.status().message().find("outside any operator call (SIGSEGV"),
            std::string::npos);
  EXPECT_EQ(*(*out)[1].result, "fine");
}

TEST(IsolationTest, ACrashThatDoesNotRecurIsAnError) {
  // The first run crashes in its only call and leaves a mark; the re-run
  // sees the mark and makes no call, so the crash at call #0 never recurs.
  const std::string mark = absl::StrCat(testing::TempDir(), "/isolation_mark_", getpid());
  unlink(mark.c_str());
  IsolatedTask task = [&mark](int) -> absl::StatusOr<std::string> {
    if (access(mark.c_str(), F_OK) != 0 && BeginOperatorCall().ok()) {
      close(open(mark.c_str(), O_CREAT | O_WRONLY, 0600));
      raise(SIGSEGV);
    }
    return std::string("done");
  };
  absl::StatusOr<std::vector<TaskOutcome>> out = RunIsolated(1, task, IsolationOptions());
  unlink(mark.c_str());
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].result.status().code(), absl::StatusCode::kInternal);
  EXPECT_NE((*out)[0].result.status().message().find("did not recur"), std::string::npos)
      << (*out)[0].result.status();
}

TEST(IsolationTest, TaskErrorsPassThrough) {
  IsolatedTask task = [](int) -> absl::StatusOr<std::string> {
    return absl::InvalidArgumentError("spec.textproto:3: field 'x': bad");
  };
  absl::StatusOr<std::vector<TaskOutcome>> out = RunIsolated(1, task, IsolationOptions());
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)[0].result.status(), absl::InvalidArgumentError("spec.textproto:3: field 'x': bad"));
}

// Under AddressSanitizer a worker makes LeakSanitizer's exit check when
// the parent is done with it (leak_check.h), so a task that leaks fails the
// run; without it, nothing checks.
TEST(IsolationTest, ALeakInATaskFailsTheRunUnderLeakSanitizer) {
  const IsolatedTask task = [](int) -> absl::StatusOr<std::string> {
    for (int k = 0; k < 16; ++k) {
      void* volatile block = std::malloc(1000);  // volatile: the store is made, then cleared
      block = nullptr;
    }
    return std::string("leaked");
  };
  absl::StatusOr<std::vector<TaskOutcome>> out = RunIsolated(1, task, IsolationOptions());
  if (LeakChecksBuiltIn()) {
    ASSERT_FALSE(out.ok());
    EXPECT_EQ(out.status().code(), absl::StatusCode::kInternal);
    EXPECT_TRUE(absl::StrContains(out.status().message(), "LeakSanitizer")) << out.status();
  } else {
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ(*(*out)[0].result, "leaked");
  }
}

TEST(IsolationTest, OutsideAWorkerCallsAreNotNumbered) {
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(BeginOperatorCall().ok());
    EndOperatorCall();
  }
}

TEST(IsolationTest, OptionsAreChecked) {
  IsolationOptions options;
  options.jobs = 0;
  EXPECT_EQ(RunIsolated(1, Calls(1, -1, nullptr), options).status().code(),
            absl::StatusCode::kInvalidArgument);
  options = IsolationOptions();
  options.call_time_limit = absl::ZeroDuration();
  EXPECT_EQ(RunIsolated(1, Calls(1, -1, nullptr), options).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(IsolationTest, SignalText) {
  EXPECT_EQ(SignalText(SIGSEGV), "SIGSEGV (signal 11)");
  EXPECT_EQ(SignalText(SIGKILL), "SIGKILL (signal 9)");
}

}  // namespace
}  // namespace shrt
