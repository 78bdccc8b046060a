// Op spec text (shrt/spec/spec.proto) into validated specs, as `shrt validate
// --spec=FILE` reads it: LoadedSpec::FromText with the repository's
// recipes, then every checked overload of the group and every sample of it
// bound to the overload's schema (BoundSample::BindAll). No operator runs.
// Property: a refusal is a bad-input error naming the file.
#include "shrt/engine/sample.h"
#include "shrt/engine/spec_loader.h"
#include "shrt/fuzz/fuzz_checks.h"
#include "shrt/fuzz/repo_data.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using shrt::fuzz::ExpectInputError;
  const std::string path = "fuzz/spec.textproto";
  absl::StatusOr<shrt::LoadedSpec> spec =
      shrt::LoadedSpec::FromText(shrt::fuzz::AsText(data, size), path, shrt::fuzz::RepoRecipes());
  if (!spec.ok()) {
    ExpectInputError(spec.status(), path);
    return 0;
  }
  for (const c10::OperatorName& name : spec->overloads()) {
    absl::StatusOr<shrt::LoadedSpec> overload = spec->ForOverload(name);
    shrt::fuzz::Expect(overload.ok(), "every overload of a spec binds to it");
    for (int s = 0; s < overload->proto().sample_size(); ++s) {
      absl::StatusOr<std::vector<shrt::BoundSample>> bound = shrt::BoundSample::BindAll(*overload, s);
      if (!bound.ok()) ExpectInputError(bound.status(), path);
    }
  }
  return 0;
}
