// What one generated per-overload test binary loads once and the
// validations its gtests read (op_test.h): the overload's spec, the
// xfails, the world sizes and meshes of the tier, and the reports, each
// computed once in a crash-isolated worker. Internal to //shrt/op_test:op_test_main:
// op_test.cc's gtest bodies read it.
#ifndef SHRT_OP_TEST_OP_TEST_STATE_H_
#define SHRT_OP_TEST_OP_TEST_STATE_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "absl/status/statusor.h"
#include "shrt/engine/isolation.h"
#include "shrt/engine/op_report.h"
#include "shrt/engine/spec_loader.h"
#include "shrt/op_test/op_test_data.h"
#include "shrt/report/xfails.h"
#include "shrt/vocab/mesh.h"

namespace shrt {

class OpTestState {
 public:
  // Loads `data` (which must outlive the state): its recipes, the specs it
  // takes samples from, its group spec for data.op, the xfails, and the
  // environment (SHRT_TIER, SHRT_WORLD_SIZES, SHRT_MESHES,
  // SHRT_CALL_TIME_LIMIT). What fails is error(), naming the file, line and
  // field, or the variable.
  explicit OpTestState(const OpTestData& data);

  // Why loading failed, or "" (then every accessor below may be used).
  const std::string& error() const { return error_; }
  const LoadedSpec& spec() const { return *spec_; }
  const std::vector<XfailEntry>& xfails() const { return xfails_; }
  // SHRT_WORLD_SIZES, else the spec's world sizes.
  const std::vector<int>& world_sizes() const { return world_sizes_; }
  // SHRT_MESHES, default 2x2.
  const std::vector<MeshShape>& meshes() const { return meshes_; }
  // False for a nightly_only sample outside the nightly tier.
  bool Runs(const Sample& s) const { return nightly_ || !s.nightly_only(); }

  // One validation a gtest reads: a sample at a world size, or a mesh
  // (every sample that runs, on it).
  struct Job {
    std::string sample;
    int world_size = 0;
    std::optional<MeshShape> mesh;
  };

  // Every sample that runs, at every world size, in spec order.
  std::vector<Job> SampleJobs() const;

  // Declares the validations the gtest `name` reads, before RUN_ALL_TESTS.
  void Declare(const std::string& name, std::vector<Job> jobs) {
    declared_[name] = std::move(jobs);
  }

  // The report of one sample at one world size (Compute).
  const absl::StatusOr<OpReport>& Report(const std::string& sample, int world_size);

  // The reports of every sample that runs at `world_size` (every world
  // size when 0), merged; nullopt after adding a gtest failure for the
  // first report that failed.
  std::optional<OpReport> Merged(int world_size = 0);

  // The expansion's report on `mesh` over every sample that runs (Compute).
  const absl::StatusOr<OpReport>& MeshReport(const MeshShape& mesh);

  // The command that reproduces a validation at `world_size` (on `mesh`
  // when not empty): report.h ReproCommand for this test's spec and CLI.
  std::string Repro(int world_size, const std::string& mesh = "") const;

 private:
  // A job's key in reports_: (sample, world size), or ("", 0, mesh).
  using JobKey = std::tuple<std::string, int, std::string>;
  static JobKey Key(const Job& job);

  // Runs `asked` and, the first time, the validations of every gtest that
  // gtest runs (its filter and shard, TestInfo::should_run), in one
  // crash-isolated run (ValidateIsolated): one worker forked for the test
  // binary, not one per report. A fork copies the page tables of a
  // process that has loaded libtorch, and the child faults libtorch's
  // pages in again; the engine runs any number of tasks in one worker (as
  // `shrt validate` does), a crash costing a fresh worker (isolation.h).
  void Compute(std::vector<Job> asked);

  // The constructor's work: "" or the error.
  std::string Load();

  const OpTestData& data_;
  std::string error_;
  std::unique_ptr<LoadedSpec> spec_;
  std::vector<XfailEntry> xfails_;
  std::vector<int> world_sizes_;
  std::vector<MeshShape> meshes_;
  IsolationOptions isolation_;  // SHRT_CALL_TIME_LIMIT sets the call time limit
  bool nightly_ = false;
  std::map<std::string, std::vector<Job>> declared_;  // per gtest name (Declare)
  bool computed_any_ = false;
  std::map<JobKey, absl::StatusOr<OpReport>> reports_;
};

}  // namespace shrt

#endif  // SHRT_OP_TEST_OP_TEST_STATE_H_
