// Loading op specs (spec.proto) from protobuf text files, with errors that
// name the file, line and field.
#ifndef SHRT_SPEC_LOADER_H_
#define SHRT_SPEC_LOADER_H_

#include <memory>
#include <string>
#include <vector>

#include "ATen/core/operator_name.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "shrt/spec.pb.h"

namespace shrt {

// A parsed, checked spec and where each of its fields came from.
class LoadedSpec {
 public:
  // Reads and parses `path`. Errors (every message starts "<path>:<line>:"):
  //   NotFound          the file cannot be read, or `op` names no overload
  //                     the dispatcher knows (close matches are suggested);
  //   InvalidArgument   a text-format syntax error or unknown field, a
  //                     malformed `op`, no sample, a sample name that is
  //                     empty, not an identifier or repeated, or an unknown
  //                     recipe.
  static absl::StatusOr<LoadedSpec> FromFile(const std::string& path);
  // As FromFile, with `text` as the content of `path` (for tests).
  static absl::StatusOr<LoadedSpec> FromText(absl::string_view text, const std::string& path);

  const OpSpec& proto() const { return proto_; }
  const std::string& path() const { return path_; }
  const c10::OperatorName& op() const { return op_; }

  // "<path>:<line>" of the `op` field, of sample `s`, and of argument `a`
  // of sample `s` (1-based lines, as editors show them).
  std::string WhereOp() const;
  std::string WhereSample(int s) const;
  std::string WhereArg(int s, int a) const;

 private:
  LoadedSpec() = default;
  struct Locations;
  OpSpec proto_;
  std::string path_;
  c10::OperatorName op_{"", ""};
  std::shared_ptr<const Locations> locations_;
};

// Loads every "*.textproto" file directly in `dir`, sorted by file name.
// Errors: NotFound if `dir` cannot be listed; otherwise the first file's
// error as FromFile reports it.
absl::StatusOr<std::vector<LoadedSpec>> LoadSpecDir(const std::string& dir);

}  // namespace shrt

#endif  // SHRT_SPEC_LOADER_H_
