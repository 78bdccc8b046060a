// DTensor's own rules as the claims ShRT judges (DESIGN.md §11,
// `shrt validate --dtensor`).
//
// The installed torch's DTensor is asked by a separate Python program
// (tools/dtensor/export_claims.py, run under the interpreter whose torch
// ShRT links) about every sample before the validation runs: the request
// and its answer are files (claims.proto), never an embedded interpreter.
// The answer is served per sample here: ground truth passes a sample's
// OpArgs, whose request arguments (request.h) find the sample DTensor was
// asked about.
#ifndef TOOLS_DTENSOR_DTENSOR_CLAIMS_H_
#define TOOLS_DTENSOR_DTENSOR_CLAIMS_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ATen/core/operator_name.h"
#include "absl/status/statusor.h"
#include "shrt/engine/sample_args.h"
#include "shrt/engine/validate.h"
#include "tools/dtensor/claims.pb.h"

namespace shrt {

// The request samples (claims.proto RequestSample) of overload `op`'s
// `samples`. Errors: RequestArgs'.
absl::StatusOr<std::vector<dtensor::RequestSample>> RequestSamples(
    const c10::OperatorName& op, const std::vector<NamedOpArgs>& samples);

class DTensorClaims {
 public:
  // Runs the Python program `program` (export_claims.py) as `PYTHON
  // program REQUEST CLAIMS` once on `request`, PYTHON being the interpreter
  // whose torch ShRT is built against (libtorch/torch_build.h kPython:
  // --repo_env=SHRT_PYTHON, or /usr/bin/python3), asking it to ask in
  // `jobs` processes (ClaimsRequest.jobs: it forks them after importing
  // torch), with PYTHONHASHSEED=0 (DTensor's ties follow Python's set
  // order), through files in a fresh temporary directory, and reads the
  // claims. Errors: Internal when `program` is not a file, PYTHON cannot
  // be started or a file cannot be written; InvalidArgument with the last
  // line of the program's stderr when it exits 2 (bad input:
  // "/abs/rules.py:3: RuntimeError: boom"), and naming both torches when
  // the claims come from another libtorch than the one ShRT is built
  // against (Claims.torch_library: a PYTHONPATH to another torch, or a
  // torch reinstalled since the build); FailedPrecondition when it exits
  // otherwise non-zero or by a signal, with the end of its stderr;
  // FromProtos'.
  static absl::StatusOr<DTensorClaims> Export(const std::string& program,
                                              const dtensor::ClaimsRequest& request, int jobs);

  // The claims `claims` (read from `where`, for messages) answering
  // `request`. Errors: InvalidArgument "<where>: samples[i]...: ..." when
  // they do not answer it (another sample count, overload, world size or
  // mesh) or a rule does not parse (placement.h ParseRule; nd_rule.h
  // ParseNdRule on a mesh).
  static absl::StatusOr<DTensorClaims> FromProtos(const dtensor::ClaimsRequest& request,
                                                  const dtensor::Claims& claims,
                                                  const std::string& where);

  // "DTensor, torch 2.13.0": what the rules are, for every report.
  const std::string& source() const { return source_; }
  int world_size() const { return world_size_; }

  // How DTensor registers `op` (claims.proto SampleClaims.registration),
  // or "" when it has no strategy for it or no sample of it was asked.
  std::string Registration(const c10::OperatorName& op) const;
  // True if DTensor has rules for `op` at run time: registered ones
  // ("single_dim", "op_strategy") or those its decomposition path derives
  // ("decomposition"): what --dtensor judges.
  bool HasRules(const c10::OperatorName& op) const;
  // With DTensorAsk::list_registered: every overload DTensor registers a
  // rule for (claims.proto Claims.registered), op text -> "single_dim" or
  // "op_strategy"; empty otherwise.
  const std::map<std::string, std::string>& Registered() const { return *registered_; }
  // True if some sample of `op` was asked about (AskDTensor leaves out an
  // overload whose samples do not bind, or whose operator crashes or
  // rejects every sample).
  bool Asked(const c10::OperatorName& op) const;

  // The samples of `op` DTensor was not asked about (claims.proto
  // SampleClaims.unasked), by bound-sample name, with why: for
  // ValidateOptions::skip, since a sample without claims would make every
  // valid rule on it "missing".
  std::map<std::string, std::string> Unasked(const c10::OperatorName& op) const;
  // True if `op` has samples and DTensor was asked about none of them (each
  // in Unasked).
  bool NoneAsked(const c10::OperatorName& op) const;

  // The named-only placements (placement.h Placement::is_named_only:
  // _NormP(p)) DTensor's 1-D rules for `op` use, by bound-sample name and
  // tensor: for TruthOptions::named_placements, so that ground truth
  // builds them and those rules are judged.
  std::map<std::string, NamedPlacements> NamedOnlyPlacements(const c10::OperatorName& op) const;

  // The rules DTensor claims for a sample of `op`, found by its request
  // arguments, for ValidateOp. Errors: FailedPrecondition naming the
  // sample when DTensor was not asked about those arguments (a sample
  // whose outputs differ between generators), RequestArgs'.
  RuleSource Rules(const c10::OperatorName& op) const;

  // On an N-D mesh (a request with a mesh), the N-D rules DTensor claims
  // for a sample of `op`, for ValidateOnMesh: each kept, plus each of its
  // single-dim rules alone on its mesh dim as a reference (nd_verdicts.h),
  // to tell composition failures apart. DTensor's rules are what it
  // accepts, not an expansion that filters: no rule is "filtered", so
  // none is reported missing. Errors: as Rules.
  NdClaimSource NdRules(const c10::OperatorName& op) const;

  // The wall time, seconds, DTensor took to answer for the samples of `op`
  // (claims.proto SampleClaims.seconds, summed): part of the time judging
  // its rules takes, added to the overload's report.
  double AskSeconds(const c10::OperatorName& op) const;

  // What a report of `op` should say besides verdicts: the input
  // placements whose DTensor rule ShRT cannot judge (with why), and the
  // input tuples DTensor raises on, counted over the samples.
  std::vector<std::string> Notes(const c10::OperatorName& op) const;

 private:
  struct Sample {
    google::protobuf::Struct args;
    dtensor::SampleClaims claims;
    std::vector<Rule> rules;        // on the 1-D mesh
    std::vector<NdRule> nd_rules;   // on an N-D mesh
  };
  std::string source_;
  int world_size_ = 0;
  // By overload text ("aten::add.Tensor"); shared with the RuleSources.
  std::shared_ptr<const std::map<std::string, std::vector<Sample>>> samples_;
  std::shared_ptr<const std::map<std::string, std::string>> registered_ =
      std::make_shared<const std::map<std::string, std::string>>();
};

}  // namespace shrt

#endif  // TOOLS_DTENSOR_DTENSOR_CLAIMS_H_
