#include "tools/groups_command.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "shrt/engine/spec_tree.h"
#include "shrt/report/group_manifest.h"
#include "tools/validate_command.h"

namespace shrt {

int RunGroups(const GroupsCommand& cmd, std::ostream& out, std::ostream& err) {
  absl::StatusOr<std::vector<LoadedSpec>> specs = LoadSpecTree(cmd.spec_dir, cmd.recipe_dir);
  if (!specs.ok()) {
    return UsageError(err, "groups", specs.status().message());
  }
  const std::string manifest = GroupManifest(*specs, cmd.spec_dir);
  if (!cmd.write) {
    out << manifest;
    return kExitOk;
  }
  // Written beside the target and renamed over it: a reader sees the old
  // file or the new one, never a part.
  const std::string path = (std::filesystem::path(cmd.spec_dir) / kGroupsFile).string();
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << manifest;
    f.flush();
    if (!f) {
      std::remove(tmp.c_str());
      return UsageError(err, "groups",
                        absl::StrCat(tmp, ": cannot write the file; ", path, " is unchanged"));
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return UsageError(err, "groups", absl::StrCat("cannot replace ", path, "; it is unchanged"));
  }
  out << "wrote " << path << "\n";
  return kExitOk;
}

}  // namespace shrt
