#include "shrt/engine/sample_args.h"

#include "shrt/engine/full_case.h"
#include "shrt/engine/isolation.h"
#include "shrt/engine/sample.h"

namespace shrt {

absl::StatusOr<std::vector<NamedOpArgs>> SampleOpArgs(const LoadedSpec& spec,
                                                      const TruthOptions& options) {
  std::vector<NamedOpArgs> out;
  for (int s = 0; s < spec.proto().sample_size(); ++s) {
    absl::StatusOr<std::vector<BoundSample>> bound = BoundSample::BindAll(spec, s);
    if (!bound.ok()) return bound.status();
    for (const BoundSample& sample : *bound) {
      CaseMaker cases(spec, s, sample, options);
      if (absl::Status st = cases.Init(); !st.ok()) return st;
      // As TruthBuilder::Run (ground_truth.cc): the first accepted call.
      for (size_t g = 0; g < cases.generators(); ++g) {
        absl::StatusOr<FullCase> full = cases.Make(g);
        if (!full.ok()) return full.status();
        if (!full->call.ok()) continue;  // rejected or crashed: the next generator
        out.push_back({sample.name(), sample.MakeOpArgs(*full->call)});
        break;
      }
    }
  }
  return out;
}

}  // namespace shrt
