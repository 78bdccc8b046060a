// Validation throughput on the fixed workload of tools/bench/workload/
// (add, mul, sum over dim 0, argmax over dim 1, mm, cross; W = 4; default
// recipe), against its floor: the bare dispatcher calls the same work
// requires, replayed alone on the same local inputs (DESIGN.md §8).
//
//   bazel run -c opt //tools/bench:throughput_bench
//
// BM_Validate reports combination checks per second and `x_floor`, its time
// over the floor's, the two timed alternately in one loop; BM_Floor reports
// the replayed calls per second.
#include <chrono>
#include <memory>

#include "ATen/core/dispatch/Dispatcher.h"
#include "benchmark/benchmark.h"
#include "shrt/engine/spec_tree.h"
#include "shrt/engine/torch_runtime.h"
#include "shrt/engine/validate.h"

namespace shrt {
namespace {

constexpr int kWorldSize = 4;

const std::vector<LoadedSpec>& Workload() {
  static const auto* specs = [] {
    UseGroundTruthRuntime();
    absl::StatusOr<std::vector<LoadedSpec>> s =
        LoadSpecTree("tools/bench/workload", "op_specs/recipes");
    if (!s.ok()) {
      std::fprintf(stderr, "%s\n", std::string(s.status().message()).c_str());
      std::abort();
    }
    return new std::vector<LoadedSpec>(*std::move(s));
  }();
  return *specs;
}

// Ground truth only: no strategy claims anything, so every combination is
// evaluated the way `shrt validate` evaluates it.
// Returns the combination checks of one pass; adds the valid rules found (all
// reported missing, as nothing is claimed) to `*valid` if given.
int64_t ValidateAll(CallRecorder* recorder, int64_t* valid = nullptr) {
  ValidateOptions options;
  options.world_size = kWorldSize;
  options.recorder = recorder;
  int64_t checks = 0;
  for (const LoadedSpec& spec : Workload()) {
    absl::StatusOr<OpReport> r = ValidateOp(
        spec, [](const OpArgs&) { return absl::StatusOr<std::vector<Rule>>(std::vector<Rule>{}); },
        options);
    if (!r.ok()) std::abort();
    checks += r->combination_checks;
    if (valid != nullptr) *valid += r->Count(Verdict::kMissing);
  }
  return checks;
}

struct Call {
  c10::OperatorHandle op;
  std::vector<c10::IValue> stack;
};

class Recorder : public CallRecorder {
 public:
  void Record(const c10::OperatorHandle& op, std::vector<c10::IValue> stack) override {
    calls.push_back({op, std::move(stack)});
  }
  std::vector<Call> calls;
};

const std::vector<Call>& RecordedCalls() {
  static const auto* recorder = [] {
    auto* r = new Recorder();
    ValidateAll(r);
    return r;
  }();
  return recorder->calls;
}

// Replays every recorded call once; exceptions are part of the floor (an
// invalid placement makes the operator throw in the real run too).
void ReplayAll() {
  for (const Call& c : RecordedCalls()) {
    std::vector<c10::IValue> stack = c.stack;
    try {
      c.op.callBoxed(&stack);
    } catch (const std::exception&) {
    }
    benchmark::DoNotOptimize(stack);
  }
}

// Each iteration times one validation pass and then one replay of the
// floor's calls, so both see the same machine conditions (this VM's speed
// drifts by tens of percent between runs); x_floor is the ratio of the
// two totals.
void BM_Validate(benchmark::State& state) {
  using Clock = std::chrono::steady_clock;
  ReplayAll();  // records the calls and warms up
  int64_t checks = 0;
  double validate_s = 0, floor_s = 0;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    checks += ValidateAll(nullptr);
    const auto t1 = Clock::now();
    state.PauseTiming();
    ReplayAll();
    const auto t2 = Clock::now();
    state.ResumeTiming();
    validate_s += std::chrono::duration<double>(t1 - t0).count();
    floor_s += std::chrono::duration<double>(t2 - t1).count();
  }
  const double iterations = static_cast<double>(state.iterations());
  state.counters["checks"] = benchmark::Counter(static_cast<double>(checks), benchmark::Counter::kIsRate);
  state.counters["x_floor"] = validate_s / floor_s;
  state.counters["floor_ms"] = floor_s / iterations * 1e3;
  // Per pass, to compare with tools/bench/reference.py's totals.
  int64_t valid = 0;
  state.counters["checks_per_pass"] = static_cast<double>(ValidateAll(nullptr, &valid));
  state.counters["valid_rules"] = static_cast<double>(valid);
}
BENCHMARK(BM_Validate)->Unit(benchmark::kMillisecond)->MinTime(2.0);

void BM_Floor(benchmark::State& state) {
  const size_t calls = RecordedCalls().size();
  for (auto _ : state) ReplayAll();
  state.counters["calls"] = benchmark::Counter(static_cast<double>(calls * state.iterations()),
                                               benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Floor)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace
}  // namespace shrt

BENCHMARK_MAIN();
