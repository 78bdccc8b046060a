// The DTensor registrations `validate --dtensor --all` does not judge, each
// with why: what the report says of the part of DTensor it cannot see.
//
// DTensor registers a rule (register_single_dim_strategy or
// register_op_strategy) for more overloads than ShRT has specs for. An
// overload is judged when some sample of its spec was asked about; every
// other registration is listed with the first reason that applies:
//   - it has a spec, but every sample has more input tuples than DTensor is
//     asked about per sample (ask_dtensor.h kMaxTuplesAsked);
//   - it is not in libtorch's dispatcher: registered from Python only
//     (torch/_prims/__init__.py defines the prims ops; shrt/ops/prims.h
//     defines in C++ those DTensor has rules for on torch 2.13, so this
//     names a prim a later torch adds);
//   - its checkability category is not "checkable"
//     (shrt/report/checkability.h CategoryOf: random, no dense CPU kernel,
//     ...), with the not_checkable file's reason where it gives one;
//   - an in-place or out= variant whose group's spec excludes it, with the
//     spec's reason;
//   - otherwise it has no spec yet.
#ifndef TOOLS_DTENSOR_UNJUDGED_H_
#define TOOLS_DTENSOR_UNJUDGED_H_

#include <map>
#include <set>
#include <string>
#include <vector>

#include "shrt/report/checkability.h"

namespace shrt {

// One registration not judged.
struct UnjudgedRegistration {
  std::string op;      // "aten::_fused_adam.tensor_lr"
  std::string reason;  // "no spec", "random", ...
};

// The overloads of `registered` (DTensorClaims::Registered: op text ->
// kind) that are not in `judged` (op text), sorted, with why as above.
// `unasked`: the overloads with a spec none of whose samples was asked
// about; `excluded`: spec exclusions, variant op text -> reason.
std::vector<UnjudgedRegistration> UnjudgedRegistrations(
    const std::map<std::string, std::string>& registered, const std::set<std::string>& judged,
    const std::set<std::string>& unasked, const std::map<std::string, std::string>& excluded,
    const NotCheckableFile& not_checkable);

// The reasons of `unjudged` with their overloads, one line each, the most
// frequent first: "no spec (12): aten::a, aten::b, ...".
std::vector<std::string> UnjudgedLines(const std::vector<UnjudgedRegistration>& unjudged);

}  // namespace shrt

#endif  // TOOLS_DTENSOR_UNJUDGED_H_
