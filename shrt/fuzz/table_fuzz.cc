// Strategy tables (shrt/strategies/table.proto), as `shrt validate --strategies=FILE`
// reads them: StrategyTableFile::FromText, which parses the placements and
// compiles the conditions and dim expressions (muparser); then every
// overload's rules are instantiated on the first sample of its spec in the
// repository at W = 2 and 4, which evaluates them. Properties: a refusal is
// a bad-input error naming the file; an instance has the sample's arity and
// only shards dims its tensors have; Rules() agrees with Instantiate().
#include <set>

#include "shrt/fuzz/fuzz_checks.h"
#include "shrt/fuzz/repo_data.h"
#include "shrt/strategies/table.h"

namespace {

using shrt::fuzz::Expect;

bool ShardsExistingDims(const std::vector<shrt::Placement>& side, const std::vector<shrt::TensorMeta>& metas) {
  for (size_t i = 0; i < side.size(); ++i) {
    if (side[i].is_shard() && (side[i].dim() < 0 || side[i].dim() >= metas[i].ndim())) return false;
  }
  return true;
}

void Instantiate(const shrt::TableStrategy& table, const shrt::OpArgs& args) {
  std::set<shrt::Rule> instances;
  for (int world_size : {2, 4}) {
    absl::StatusOr<std::vector<shrt::TableInstance>> in = table.Instantiate(args, world_size);
    if (!in.ok()) {
      Expect(absl::IsInvalidArgument(in.status()), "Instantiate refuses with InvalidArgument");
      return;
    }
    for (const shrt::TableInstance& i : *in) {
      Expect(i.rule.inputs.size() == args.inputs().size() && i.rule.outputs.size() == args.outputs().size(),
             "an instance has the sample's arity: " + shrt::RuleToString(i.rule));
      Expect(ShardsExistingDims(i.rule.inputs, args.inputs()) && ShardsExistingDims(i.rule.outputs, args.outputs()),
             "an instance shards only dims its tensors have: " + shrt::RuleToString(i.rule));
      Expect(i.origin >= 0 && i.origin < table.proto().rule_size(), "an instance names its table rule");
      if (world_size == 2) instances.insert(i.rule);
    }
  }
  absl::StatusOr<std::vector<shrt::Rule>> rules = table.Rules(args);
  if (rules.ok()) {
    Expect(std::set<shrt::Rule>(rules->begin(), rules->end()) == instances,
           "Rules() is Instantiate() without the world size");
  } else {
    Expect(absl::IsFailedPrecondition(rules.status()) || absl::IsInvalidArgument(rules.status()),
           "Rules() refuses with FailedPrecondition (reads ws) or InvalidArgument");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = "fuzz/table.textproto";
  absl::StatusOr<shrt::StrategyTableFile> file =
      shrt::StrategyTableFile::FromText(std::string(shrt::fuzz::AsText(data, size)), path);
  if (!file.ok()) {
    shrt::fuzz::ExpectInputError(file.status(), path);
    return 0;
  }
  for (const shrt::TableStrategy* table : file->ops()) {
    if (const shrt::OpArgs* args = shrt::fuzz::RepoSampleArgs(table->op())) Instantiate(*table, *args);
  }
  return 0;
}
