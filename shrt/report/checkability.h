// Which overloads ShRT can check at all, and why the others cannot: the
// categories of `shrt coverage` (issue 15: "every aten overload accounted
// for").
//
// ShRT checks an overload by executing it on simulated CPU ranks with
// dense, strided tensors (DESIGN.md §3). An overload is *not checkable
// here* when that cannot say anything about its sharding rules: it has no
// CPU kernel, it takes or returns no tensor, its output is random, its
// output's shape depends on its input's values, ... Most of these follow
// from facts of the overload's schema and of the kernels registered for it
// in the c10 dispatcher (`FactsOf`, `Classify`); the few that do not are
// named, each with its category and reason, in a short file
// (op_specs/not_checkable.textproto, `NotCheckableFile`). Everything else
// is checkable: checked when it has a spec and a strategy, otherwise not
// yet covered. `_foreach_*` list ops, backward ops and `*_copy` view copies
// are checkable (DTensor shards them).
#ifndef SHRT_REPORT_CHECKABILITY_H_
#define SHRT_REPORT_CHECKABILITY_H_

#include <string>
#include <vector>

#include "ATen/core/operator_name.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "shrt/spec/spec.pb.h"

namespace c10 {
class OperatorHandle;  // ATen/core/dispatch/Dispatcher.h, included by callers
}  // namespace c10

namespace shrt {

// Facts about one overload, from its schema and registered kernels.
struct OverloadFacts {
  // A Tensor, Tensor? or Tensor[] argument other than an out= argument.
  bool tensor_input = false;
  // A Tensor (or Tensor[]) return, or an argument the overload writes
  // (in-place self, out=, `_foreach_add_`'s list).
  bool tensor_output = false;
  // A Generator? argument.
  bool generator = false;
  // The overload takes Dimnames: its overload name says so ("dimname",
  // "names": `sum.dim_DimnameList`, `mean.names_dim`); the schema types a
  // Dimname as `str`, so the name is the only mark it leaves.
  bool named = false;
  // Kernels registered for the CPU or a composite (CompositeImplicit /
  // CompositeExplicit[NonFunctional]) dispatch key: it runs on dense CPU
  // tensors.
  bool dense_cpu_kernel = false;
  // Kernels for sparse (COO, CSR), quantized or nested-tensor keys.
  bool sparse_kernel = false;
  bool quantized_kernel = false;
  bool nested_kernel = false;
  // The operator's name says what it is for (aten's naming convention):
  // a backend library ("cudnn", "miopen", "mkldnn", "mps", "fbgemm",
  // "vulkan"; their out= overloads have generated composite kernels, which
  // still need the backend's tensors), a sparse layout ("sparse") or
  // nested tensors ("nested").
  bool backend_name = false;
  bool sparse_name = false;
  bool nested_name = false;
};

// The facts of a registered overload.
OverloadFacts FactsOf(const c10::OperatorHandle& op);

// The category of an overload that its facts make not checkable, or
// UNCHECKABLE_CATEGORY_UNSPECIFIED when its facts allow a check. The first
// that applies, in this order: RANDOM, NAMED_TENSOR, SPARSE_LAYOUT (sparse
// name, or sparse kernels only), QUANTIZED (quantized kernels only), NESTED
// (likewise), BACKEND_ONLY (backend name, or no dense CPU kernel), FACTORY
// (no tensor input), METADATA_QUERY (no tensor output).
UncheckableCategory Classify(const OverloadFacts& facts);

// The one-word text of a category, as `shrt coverage` prints it: "random",
// "named tensor", "sparse layout", ..., "checkable" for UNSPECIFIED.
std::string CategoryText(UncheckableCategory category);

// The parsed op_specs/not_checkable.textproto: overloads and operators the
// facts do not classify, with their category and reason.
class NotCheckableFile {
 public:
  // Parses `text` (the content of `path`). Every entry needs an `op` that
  // the dispatcher knows (an operator name for all of its overloads, or one
  // overload), named once; a category; and a reason. Errors:
  // InvalidArgument "<path>:<line>: field '<field>': <what>" (FieldError),
  // or the parser's error for bad syntax.
  static absl::StatusOr<NotCheckableFile> Parse(absl::string_view text, const std::string& path);
  // Reads and parses the file at `path`; NotFound when it does not exist.
  static absl::StatusOr<NotCheckableFile> Read(const std::string& path);

  // The entry that names `op`: its overload's, else its operator's (an
  // overload's own entry takes precedence); nullptr when none does.
  const NotCheckableEntry* Find(const c10::OperatorName& op) const;

 private:
  NotCheckable proto_;
  absl::flat_hash_map<std::string, int> index_;  // op text -> entry
};

// The not_checkable file of the spec tree at `spec_dir`
// (spec_tree.h kNotCheckableFile), or an empty one when the tree has none
// (a custom op's). Errors: Parse's.
absl::StatusOr<NotCheckableFile> NotCheckableFileOf(const std::string& spec_dir);

// The category of `op`: its entry in `file`, else `Classify` of its facts.
UncheckableCategory CategoryOf(const c10::OperatorHandle& op, const NotCheckableFile& file);

}  // namespace shrt

#endif  // SHRT_REPORT_CHECKABILITY_H_
