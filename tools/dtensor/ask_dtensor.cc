#include "tools/dtensor/ask_dtensor.h"

#include <filesystem>

#include "c10/util/Exception.h"
#include "shrt/engine/sample_args.h"

namespace shrt {
namespace {

// Drops the operator's TORCH_WARN messages: the validation of the same
// samples collects them into its report (validate.cc WarningCollector).
class DropWarnings : public c10::WarningHandler {
 public:
  void process(const c10::Warning&) override {}
};

}  // namespace

absl::StatusOr<DTensorClaims> AskDTensor(const DTensorAsk& ask,
                                         const std::vector<const LoadedSpec*>& specs,
                                         const TruthOptions& options,
                                         const IsolationOptions& isolation) {
  // Each task: one spec's request samples, as a serialised ClaimsRequest.
  absl::StatusOr<std::vector<TaskOutcome>> outcomes = RunIsolated(
      static_cast<int>(specs.size()),
      [&](int i) -> absl::StatusOr<std::string> {
        DropWarnings drop;
        c10::WarningUtils::WarningHandlerGuard guard(&drop);
        absl::StatusOr<std::vector<NamedOpArgs>> args = SampleOpArgs(*specs[i], options);
        if (!args.ok()) return args.status();
        absl::StatusOr<std::vector<dtensor::RequestSample>> samples =
            RequestSamples(specs[i]->op(), *args);
        if (!samples.ok()) return samples.status();
        dtensor::ClaimsRequest request;
        for (dtensor::RequestSample& s : *samples) *request.add_samples() = std::move(s);
        return request.SerializeAsString();
      },
      isolation);
  if (!outcomes.ok()) return outcomes.status();
  dtensor::ClaimsRequest request;
  request.set_world_size(ask.mesh ? ask.mesh->size() : options.world_size);
  if (ask.mesh) {
    for (int m : ask.mesh->dims()) request.add_mesh(m);
  }
  request.set_max_tuples(kMaxTuplesAsked);
  request.set_max_decomposition_tuples(kMaxDecompositionTuplesAsked);
  request.set_list_registered(ask.list_registered);
  for (const std::string& path : ask.libraries) {
    request.add_libraries(std::filesystem::absolute(path).string());
  }
  for (const std::string& path : ask.rule_modules) {
    request.add_rule_modules(std::filesystem::absolute(path).string());
  }
  for (const TaskOutcome& outcome : *outcomes) {
    dtensor::ClaimsRequest part;
    // A failed task leaves its overload unasked: its validation reports
    // the same error or crash.
    if (!outcome.result.ok() || !part.ParseFromString(*outcome.result)) continue;
    for (dtensor::RequestSample& s : *part.mutable_samples()) *request.add_samples() = std::move(s);
  }
  return DTensorClaims::Export(ask.program, request, isolation.jobs);
}

}  // namespace shrt
