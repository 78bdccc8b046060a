// Coverage of the dispatcher's overloads by specs and registered
// strategies: the numbers behind `shrt coverage` (tools/coverage_command.h).
//
// An overload is *checked* when it has both a spec and a strategy (its
// generated test judges every registered rule). A strategy without a spec
// is never checked; a spec without a strategy only yields ground truth.
// Every other overload is *not checkable here*, in one category of
// shrt/report/checkability.h, or checkable and *not yet covered*.
#ifndef SHRT_REPORT_COVERAGE_H_
#define SHRT_REPORT_COVERAGE_H_

#include <string>
#include <vector>

#include "ATen/core/operator_name.h"
#include "shrt/report/report.pb.h"
#include "shrt/spec/spec.pb.h"

namespace shrt {

// One spec: the overload it names and its family (the spec's directory
// below the spec root: op_specs/unary/aten_abs.textproto -> "unary").
struct SpecEntry {
  c10::OperatorName op;
  std::string family;
};

// An overload the dispatcher knows, and its category (CategoryOf in
// shrt/report/checkability.h; UNCHECKABLE_CATEGORY_UNSPECIFIED: checkable).
struct DispatcherOverload {
  c10::OperatorName op;
  UncheckableCategory category = UNCHECKABLE_CATEGORY_UNSPECIFIED;
};

// Counts `dispatcher` (every overload the c10 dispatcher knows) by
// namespace as checked, not checkable (and by category) or not yet
// covered, and `specs` by family, against `strategies` (registered
// overloads) and the specs. `namespace_filter`, if not empty, keeps only
// that namespace in CoverageReport::namespaces, ::not_checkable and
// ::uncovered; the latter (and ::uncovered_families) is filled only when
// `list_uncovered`. Overload names are canonical text ("aten::add.Tensor");
// lists are sorted. Specs or strategies naming an overload the dispatcher
// does not know still count in their lists (the lint test reports them).
CoverageReport ComputeCoverage(const std::vector<DispatcherOverload>& dispatcher,
                               const std::vector<c10::OperatorName>& strategies,
                               const std::vector<SpecEntry>& specs,
                               const std::string& namespace_filter, bool list_uncovered);

// The namespace of an overload: "aten" for aten::add.Tensor.
std::string NamespaceOf(const c10::OperatorName& op);

// The family of names an overload belongs to, for listing what is not yet
// covered so that the next step is obvious: "foreach" (_foreach_*),
// "backward", "view copies" (*_copy), "special functions", "linalg",
// "fft", "losses", "pooling", "convolution", "normalization and norms",
// "upsampling", "indexing", "attention", "recurrent", "embedding", else
// "other"; the first match of the operator name in that order.
std::string FamilyOfName(const c10::OperatorName& op);

}  // namespace shrt

#endif  // SHRT_REPORT_COVERAGE_H_
