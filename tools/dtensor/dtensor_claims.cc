#include "tools/dtensor/dtensor_claims.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/message_differencer.h"
#include "libtorch/torch_build.h"
#include "shrt/engine/nd_verdicts.h"
#include "shrt/ops/overload_name.h"
#include "shrt/vocab/atomic_file.h"
#include "shrt/vocab/nd_rule.h"
#include "shrt/vocab/placement.h"
#include "shrt/vocab/text_proto.h"
#include "tools/dtensor/request.h"
#include "tools/dtensor/torch_python.h"

namespace shrt {
namespace {

using google::protobuf::util::MessageDifferencer;

// The last `n` bytes of `text`, from a line start when one is near.
std::string Tail(const std::string& text, size_t n) {
  if (text.size() <= n) return text;
  std::string tail = text.substr(text.size() - n);
  const size_t nl = tail.find('\n');
  return nl == std::string::npos ? tail : tail.substr(nl + 1);
}

// OK if DTensor was asked in the torch ShRT's C++ side is built against
// (the same libtorch_cpu.so, symbolic links resolved: a patched copy of the
// Python sources, tools/dtensor/torch_overlay.py, links the same library),
// else InvalidArgument naming both torches.
absl::Status SameTorch(const dtensor::Claims& claims) {
  namespace fs = std::filesystem;
  std::error_code ignored;
  const fs::path built =
      fs::weakly_canonical(fs::path(torch_build::kTorchDir) / "lib" / "libtorch_cpu.so", ignored);
  if (!claims.torch_library().empty() &&
      fs::weakly_canonical(claims.torch_library(), ignored) == built) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "DTensor was asked in torch ", claims.torch_version(), " (", claims.torch_library(),
      "), but ShRT is built against torch ", torch_build::kVersion, " (", built.string(),
      ", the torch of ", torch_build::kPython,
      "); build with --repo_env=SHRT_PYTHON=<the interpreter of the torch to judge>"));
}

}  // namespace

absl::StatusOr<std::vector<dtensor::RequestSample>> RequestSamples(
    const c10::OperatorName& op, const std::vector<NamedOpArgs>& samples) {
  std::vector<dtensor::RequestSample> out;
  for (const NamedOpArgs& s : samples) {
    absl::StatusOr<google::protobuf::Struct> args = RequestArgs(op, s.args);
    if (!args.ok()) return args.status();
    dtensor::RequestSample& r = out.emplace_back();
    r.set_op(OverloadToString(op));
    r.set_name(s.sample);
    *r.mutable_args() = *std::move(args);
  }
  return out;
}

absl::StatusOr<DTensorClaims> DTensorClaims::Export(const std::string& program,
                                                    const dtensor::ClaimsRequest& request,
                                                    int jobs) {
  std::string dir_template =
      absl::StrCat(std::getenv("TMPDIR") != nullptr ? std::getenv("TMPDIR") : "/tmp",
                   "/shrt_dtensor_XXXXXX");
  if (mkdtemp(dir_template.data()) == nullptr) {
    return absl::InternalError(absl::StrCat(dir_template, ": cannot create a directory"));
  }
  const std::string dir = dir_template;
  struct Cleanup {
    std::string dir;
    ~Cleanup() {
      std::error_code ignored;
      std::filesystem::remove_all(dir, ignored);
    }
  } cleanup{dir};

  dtensor::ClaimsRequest asked = request;
  asked.set_jobs(jobs);
  google::protobuf::util::JsonPrintOptions print;
  print.preserve_proto_field_names = true;
  std::string json;
  if (!google::protobuf::util::MessageToJsonString(asked, &json, print).ok()) {
    return absl::InternalError("the DTensor request cannot be printed as JSON");
  }
  const std::string request_path = dir + "/request.json", claims_path = dir + "/claims.json",
                    stderr_path = dir + "/stderr";
  if (absl::Status s = WriteFileAtomically(request_path, FileSnapshot{}, json); !s.ok()) {
    return s;
  }
  absl::StatusOr<PythonExit> exit =
      RunTorchPython(program, {request_path, claims_path}, {"", "", stderr_path});
  if (!exit.ok()) return exit.status();
  if (!exit->signaled && exit->code == 2) {
    // Bad input (export_claims.py's exit status 2): its message is the last
    // line of its stderr, after whatever torch warned.
    absl::StatusOr<std::string> err = ReadFile(stderr_path);
    return absl::InvalidArgumentError(err.ok() ? LastLine(*err, "export_claims") : err.status().message());
  }
  if (exit->signaled || exit->code != 0) {
    absl::StatusOr<std::string> err = ReadFile(stderr_path);
    return absl::FailedPreconditionError(absl::StrCat(
        program,
        exit->signaled ? absl::StrCat(" was killed by signal ", exit->code)
                       : absl::StrCat(" exited with status ", exit->code),
        err.ok() ? absl::StrCat(":\n", Tail(*err, 2000)) : ""));
  }
  absl::StatusOr<std::string> claims_json = ReadFile(claims_path);
  if (!claims_json.ok()) return claims_json.status();
  dtensor::Claims claims;
  if (const auto s = google::protobuf::util::JsonStringToMessage(*claims_json, &claims); !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(program, "'s claims: ", s.message().as_string()));
  }
  if (absl::Status same = SameTorch(claims); !same.ok()) return same;
  return FromProtos(request, claims, absl::StrCat(program, "'s claims"));
}

absl::StatusOr<DTensorClaims> DTensorClaims::FromProtos(const dtensor::ClaimsRequest& request,
                                                        const dtensor::Claims& claims,
                                                        const std::string& where) {
  const bool nd = request.mesh_size() > 0;
  if (claims.samples_size() != request.samples_size() ||
      claims.world_size() != request.world_size() ||
      !std::equal(claims.mesh().begin(), claims.mesh().end(), request.mesh().begin(),
                  request.mesh().end())) {
    return absl::InvalidArgumentError(absl::StrCat(
        where, ": answers ", claims.samples_size(), " samples at world size ",
        claims.world_size(), " (mesh [", absl::StrJoin(claims.mesh(), ", "), "]), asked ",
        request.samples_size(), " at ", request.world_size(), " (mesh [",
        absl::StrJoin(request.mesh(), ", "), "])"));
  }
  DTensorClaims out;
  out.source_ = claims.strategy_source();
  out.world_size_ = claims.world_size();
  auto samples = std::make_shared<std::map<std::string, std::vector<Sample>>>();
  for (int i = 0; i < request.samples_size(); ++i) {
    const dtensor::RequestSample& asked = request.samples(i);
    const dtensor::SampleClaims& answer = claims.samples(i);
    if (answer.op() != asked.op() || answer.name() != asked.name()) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": samples[", i, "]: answers ", answer.op(), " sample ", answer.name(),
          ", asked ", asked.op(), " sample ", asked.name()));
    }
    Sample s{asked.args(), answer, {}, {}};
    for (int j = 0; j < answer.rules_size(); ++j) {
      absl::Status parsed;
      if (nd) {
        absl::StatusOr<NdRule> rule = ParseNdRule(answer.rules(j));
        if (rule.ok()) s.nd_rules.push_back(*std::move(rule));
        parsed = rule.status();
      } else {
        absl::StatusOr<Rule> rule = ParseRule(answer.rules(j));
        if (rule.ok()) s.rules.push_back(*std::move(rule));
        parsed = rule.status();
      }
      if (!parsed.ok()) {
        return absl::InvalidArgumentError(absl::StrCat(where, ": samples[", i, "].rules[", j,
                                                       "]: ", parsed.message()));
      }
    }
    (*samples)[asked.op()].push_back(std::move(s));
  }
  out.samples_ = std::move(samples);
  auto registered = std::make_shared<std::map<std::string, std::string>>();
  for (const dtensor::Registered& r : claims.registered()) (*registered)[r.op()] = r.kind();
  out.registered_ = std::move(registered);
  return out;
}

std::string DTensorClaims::Registration(const c10::OperatorName& op) const {
  auto it = samples_->find(OverloadToString(op));
  return it == samples_->end() || it->second.empty() ? "" : it->second.front().claims.registration();
}

bool DTensorClaims::HasRules(const c10::OperatorName& op) const {
  return !Registration(op).empty();
}

bool DTensorClaims::Asked(const c10::OperatorName& op) const {
  return samples_->count(OverloadToString(op)) > 0;
}

std::map<std::string, std::string> DTensorClaims::Unasked(const c10::OperatorName& op) const {
  std::map<std::string, std::string> out;
  auto it = samples_->find(OverloadToString(op));
  if (it == samples_->end()) return out;
  for (const Sample& s : it->second) {
    if (!s.claims.unasked().empty()) {
      out[s.claims.name()] = absl::StrCat(source_, " was not asked about it: ", s.claims.unasked());
    }
  }
  return out;
}

bool DTensorClaims::NoneAsked(const c10::OperatorName& op) const {
  auto it = samples_->find(OverloadToString(op));
  return it != samples_->end() && !it->second.empty() &&
         std::all_of(it->second.begin(), it->second.end(),
                     [](const Sample& s) { return !s.claims.unasked().empty(); });
}

std::map<std::string, NamedPlacements> DTensorClaims::NamedOnlyPlacements(
    const c10::OperatorName& op) const {
  std::map<std::string, NamedPlacements> out;
  auto it = samples_->find(OverloadToString(op));
  if (it == samples_->end()) return out;
  // Adds `p` to slot i of `slots` if it is named-only and not there yet.
  auto add = [](std::vector<std::vector<Placement>>& slots, size_t i, const Placement& p) {
    if (!p.is_named_only()) return;
    if (slots.size() <= i) slots.resize(i + 1);
    if (std::find(slots[i].begin(), slots[i].end(), p) == slots[i].end()) slots[i].push_back(p);
  };
  for (const Sample& s : it->second) {
    for (const Rule& rule : s.rules) {
      NamedPlacements& named = out[s.claims.name()];
      for (size_t i = 0; i < rule.inputs.size(); ++i) add(named.inputs, i, rule.inputs[i]);
      for (size_t k = 0; k < rule.outputs.size(); ++k) add(named.outputs, k, rule.outputs[k]);
    }
  }
  return out;
}

namespace {

// The sample of `samples` asked about `args` of `op`. Errors: as
// DTensorClaims::Rules.
template <typename Sample>
absl::StatusOr<const Sample*> FindSample(const std::map<std::string, std::vector<Sample>>& samples,
                                         const c10::OperatorName& op, const OpArgs& args) {
  absl::StatusOr<google::protobuf::Struct> asked = RequestArgs(op, args);
  if (!asked.ok()) return asked.status();
  auto it = samples.find(OverloadToString(op));
  if (it != samples.end()) {
    for (const Sample& s : it->second) {
      if (MessageDifferencer::Equals(s.args, *asked)) return &s;
    }
  }
  std::string json;
  (void)google::protobuf::util::MessageToJsonString(*asked, &json);
  return absl::FailedPreconditionError(absl::StrCat(
      "DTensor was not asked about these arguments (their outputs differ from the first "
      "accepted generator's): ", json));
}

}  // namespace

RuleSource DTensorClaims::Rules(const c10::OperatorName& op) const {
  return [op, samples = samples_](const OpArgs& args) -> absl::StatusOr<std::vector<Rule>> {
    absl::StatusOr<const Sample*> s = FindSample(*samples, op, args);
    if (!s.ok()) return s.status();
    return (*s)->rules;
  };
}

NdClaimSource DTensorClaims::NdRules(const c10::OperatorName& op) const {
  return [op, samples = samples_](const OpArgs& args) -> absl::StatusOr<NdClaims> {
    absl::StatusOr<const Sample*> s = FindSample(*samples, op, args);
    if (!s.ok()) return s.status();
    NdClaims out;
    for (const NdRule& rule : (*s)->nd_rules) out.claims.push_back({rule, NdClaim::Kind::kKept, ""});
    auto claimed = [&](const NdRule& rule) {
      return std::any_of(out.claims.begin(), out.claims.end(),
                         [&](const NdClaim& c) { return c.rule == rule; });
    };
    for (const NdRule& rule : (*s)->nd_rules) {
      for (int m = 0; m < rule.ndim(); ++m) {
        NdRule alone = EmbedRule(rule.mesh_dims[m], m, rule.ndim());
        if (!claimed(alone)) out.claims.push_back({std::move(alone), NdClaim::Kind::kReference, ""});
      }
    }
    return out;
  };
}

double DTensorClaims::AskSeconds(const c10::OperatorName& op) const {
  double seconds = 0;
  auto it = samples_->find(OverloadToString(op));
  if (it == samples_->end()) return seconds;
  for (const Sample& s : it->second) seconds += s.claims.seconds();
  return seconds;
}

std::vector<std::string> DTensorClaims::Notes(const c10::OperatorName& op) const {
  std::vector<std::string> notes;
  auto it = samples_->find(OverloadToString(op));
  if (it == samples_->end()) return notes;
  // reason -> (input tuples, first example); message -> tuples.
  std::map<std::string, std::pair<int, std::string>> not_judged;
  std::map<std::string, int64_t> rejected;
  int64_t tuples = 0, rejected_tuples = 0, unmatched = 0;
  for (const Sample& s : it->second) {
    tuples += s.claims.tuples();
    unmatched += s.claims.unmatched();
    for (const auto& [inputs, reason] : s.claims.not_judged()) {
      auto& [n, example] = not_judged[reason];
      if (n++ == 0) example = absl::StrCat("sample ", s.claims.name(), ", inputs ", inputs);
    }
    for (const auto& [message, n] : s.claims.rejected()) {
      rejected[message] += n;
      rejected_tuples += n;
    }
  }
  const dtensor::SampleClaims& first = it->second.front().claims;
  if (first.registration() == "decomposition") {
    notes.push_back(absl::StrCat(
        source_,
        " registers no rule for it: these are the rules its decomposition path derives at run "
        "time (DecompShardingStrategy, torch/distributed/tensor/_decompositions.py)",
        first.composite_implicit()
            ? "; it is CompositeImplicitAutograd, so DTensor sees it in inference mode only "
              "(outside it, its decomposition runs before DTensor's dispatch)"
            : ""));
  }
  for (const auto& [reason, seen] : not_judged) {
    notes.push_back(absl::StrCat(source_, ": not judged for ", seen.first,
                                 " input placements: ", reason, " (e.g. ", seen.second, ")"));
  }
  if (rejected_tuples > 0) {
    notes.push_back(absl::StrCat(source_, " raises on ", rejected_tuples, " of ", tuples,
                                 " input tuples asked",
                                 unmatched > 0 ? absl::StrCat(" (", unmatched,
                                                              " more match no rule of it "
                                                              "and are not asked)")
                                               : "",
                                 "; the most frequent: ",
                                 std::max_element(rejected.begin(), rejected.end(),
                                                  [](const auto& a, const auto& b) {
                                                    return a.second < b.second;
                                                  })->first));
  }
  return notes;
}

}  // namespace shrt
