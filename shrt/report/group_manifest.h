// The op-group manifest that the Bazel macro reads (op_specs/groups.bzl).
//
// Bazel must know every test target when it loads a BUILD file, before any
// code runs, but which overloads form a spec's group comes from the c10
// dispatcher (op_group.h). `shrt groups --write` therefore writes the groups
// of a spec tree into a checked-in Starlark file, and //op_specs:lint_test
// fails, naming the command, when that file differs from what the
// dispatcher says (as Gazelle keeps BUILD files).
#ifndef SHRT_REPORT_GROUP_MANIFEST_H_
#define SHRT_REPORT_GROUP_MANIFEST_H_

#include <string>
#include <vector>

#include "shrt/engine/spec_tree.h"

namespace shrt {

// The command that rewrites the manifest, for messages.
inline constexpr char kGroupsCommand[] = "bazel run //tools:shrt -- groups --write";
// The manifest's file name inside the spec tree (op_specs/groups.bzl).
inline constexpr char kGroupsFile[] = "groups.bzl";

// The manifest's text for `specs` (LoadSpecTree's result: one LoadedSpec
// per checked overload) below `root`, keyed by spec path relative to root:
//   OP_GROUPS = {
//       "binary/aten_add_Tensor.textproto": {
//           "overloads": ["aten::add.Tensor", "aten::add_.Tensor", "aten::add.out"],
//           "targets": ["aten_add_Tensor", "aten_add__Tensor", "aten_add_out"],
//           "samples_from": [],
//       },
//       "binary/aten_sub_Tensor.textproto": {
//           ...
//           "samples_from": ["binary/aten_add_Tensor.textproto"],
//       },
//   }
// "samples_from" lists the specs it takes samples from, directly or through
// others, in dependency order (LoadedSpec::samples_from_paths): the files
// its generated tests embed.
// Deterministic: the same specs give the same bytes.
std::string GroupManifest(const std::vector<LoadedSpec>& specs, const std::string& root);

}  // namespace shrt

#endif  // SHRT_REPORT_GROUP_MANIFEST_H_
