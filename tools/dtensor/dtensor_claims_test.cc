// DTensor's claims as the validation sees them: the claims file matched to
// its request, rules served by a sample's arguments, samples not asked
// about, notes; and the exporting program run in parallel processes, its
// failures reported with its stderr.
#include "tools/dtensor/dtensor_claims.h"

#include <sys/stat.h>

#include <fstream>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "libtorch/torch_build.h"
#include "shrt/vocab/nd_rule.h"

namespace shrt {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Pair;

const c10::OperatorName kAbs("aten::abs", "");
const c10::OperatorName kNeg("aten::neg", "");

OpArgs Unary(int64_t n) {
  const TensorMeta m{{n}, {1}, c10::ScalarType::Float};
  return OpArgs({{"self", m}}, {m}, {m});
}

template <typename T>
T Text(const std::string& text) {
  T proto;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &proto)) << text;
  return proto;
}

// A request for aten::abs on samples "a" (8 elements) and "b" (3), and
// aten::neg on "c".
dtensor::ClaimsRequest Request() {
  dtensor::ClaimsRequest request;
  request.set_world_size(4);
  for (const auto& [op, name, n] : {std::tuple{kAbs, "a", 8}, {kAbs, "b", 3}, {kNeg, "c", 5}}) {
    absl::StatusOr<std::vector<dtensor::RequestSample>> s = RequestSamples(op, {{name, Unary(n)}});
    EXPECT_TRUE(s.ok()) << s.status();
    *request.add_samples() = (*s)[0];
  }
  return request;
}

dtensor::Claims Answer() {
  return Text<dtensor::Claims>(R"pb(
    strategy_source: "DTensor, torch 2.13.0" world_size: 4
    samples { op: "aten::abs" name: "a" registration: "single_dim"
              rules: "S(0) -> S(0)" rules: "P(max) -> P(max)" tuples: 6 unmatched: 3
              not_judged { key: "P(sum)" value: "placement not modelled by ShRT: _NormPartial(2)" }
              rejected { key: "no strategy" value: 2 } }
    samples { op: "aten::abs" name: "b" registration: "single_dim"
              unasked: "99 input tuples, more than the 10 asked per sample" }
    samples { op: "aten::neg" name: "c" })pb");
}

TEST(DTensorClaimsTest, RulesAreServedByTheSampleArguments) {
  absl::StatusOr<DTensorClaims> claims = DTensorClaims::FromProtos(Request(), Answer(), "c.json");
  ASSERT_TRUE(claims.ok()) << claims.status();
  EXPECT_EQ(claims->source(), "DTensor, torch 2.13.0");
  absl::StatusOr<std::vector<Rule>> rules = claims->Rules(kAbs)(Unary(8));
  ASSERT_TRUE(rules.ok()) << rules.status();
  ASSERT_EQ(rules->size(), 2u);
  EXPECT_EQ(RuleToString((*rules)[0]), "S(0) -> S(0)");
  EXPECT_EQ(RuleToString((*rules)[1]), "P(max) -> P(max)");
  // Arguments DTensor was not asked about: a broken claim source, named.
  EXPECT_EQ(claims->Rules(kAbs)(Unary(9)).status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(claims->Rules(kAbs)(Unary(9)).status().message(),
              HasSubstr("DTensor was not asked about these arguments"));
}

TEST(DTensorClaimsTest, RegistrationsUnaskedSamplesAndNotes) {
  absl::StatusOr<DTensorClaims> claims = DTensorClaims::FromProtos(Request(), Answer(), "c.json");
  ASSERT_TRUE(claims.ok()) << claims.status();
  EXPECT_EQ(claims->Registration(kAbs), "single_dim");
  EXPECT_EQ(claims->Registration(kNeg), "");  // asked: DTensor has no strategy
  EXPECT_TRUE(claims->Asked(kNeg));
  EXPECT_FALSE(claims->Asked(c10::OperatorName("aten::relu", "")));
  EXPECT_THAT(claims->Unasked(kAbs),
              ElementsAre(Pair("b", "DTensor, torch 2.13.0 was not asked about it: 99 input "
                                    "tuples, more than the 10 asked per sample")));
  EXPECT_THAT(claims->Unasked(kNeg), IsEmpty());
  EXPECT_THAT(claims->Notes(kAbs),
              ElementsAre("DTensor, torch 2.13.0: not judged for 1 input placements: placement "
                          "not modelled by ShRT: _NormPartial(2) (e.g. sample a, inputs P(sum))",
                          "DTensor, torch 2.13.0 raises on 2 of 6 input tuples asked (3 more "
                          "match no rule of it and are not asked); the most frequent: no "
                          "strategy"));
}

// An overload without a registered rule is judged by the rules DTensor's
// decomposition path derives, and the report says so.
TEST(DTensorClaimsTest, DecompositionRulesAreJudgedAndNamed) {
  absl::StatusOr<DTensorClaims> claims = DTensorClaims::FromProtos(
      Request(), Text<dtensor::Claims>(R"pb(
        strategy_source: "DTensor, torch 2.13.0" world_size: 4
        samples { op: "aten::abs" name: "a" registration: "decomposition"
                  composite_implicit: true rules: "S(0) -> S(0)" tuples: 6 }
        samples { op: "aten::abs" name: "b" registration: "decomposition"
                  composite_implicit: true tuples: 6 }
        samples { op: "aten::neg" name: "c" })pb"),
      "c.json");
  ASSERT_TRUE(claims.ok()) << claims.status();
  EXPECT_TRUE(claims->HasRules(kAbs));
  EXPECT_FALSE(claims->HasRules(kNeg));
  EXPECT_THAT(claims->Notes(kAbs),
              ElementsAre(HasSubstr("registers no rule for it: these are the rules its "
                                    "decomposition path derives at run time")));
  EXPECT_THAT(claims->Notes(kAbs), ElementsAre(HasSubstr("inference mode only")));
}

// The named-only placements a sample's rules use, for ground truth to build
// (TruthOptions::named_placements), and the time DTensor took to answer.
TEST(DTensorClaimsTest, NamedOnlyPlacementsAndAskSeconds) {
  absl::StatusOr<DTensorClaims> claims = DTensorClaims::FromProtos(
      Request(), Text<dtensor::Claims>(R"pb(
        strategy_source: "DTensor, torch 2.13.0" world_size: 4
        samples { op: "aten::abs" name: "a" registration: "single_dim" seconds: 0.25
                  rules: "S(0) -> _NormP(2)" rules: "S(0) -> _NormP(3)" rules: "R -> R" }
        samples { op: "aten::abs" name: "b" registration: "single_dim" seconds: 0.5
                  rules: "S(0) -> S(0)" }
        samples { op: "aten::neg" name: "c" })pb"),
      "c.json");
  ASSERT_TRUE(claims.ok()) << claims.status();
  const std::map<std::string, NamedPlacements> named = claims->NamedOnlyPlacements(kAbs);
  ASSERT_EQ(named.count("a"), 1u);
  EXPECT_THAT(named.at("a").inputs, IsEmpty());  // slots only up to the last named one
  EXPECT_THAT(named.at("a").outputs,
              ElementsAre(ElementsAre(Placement::NormPartial(2), Placement::NormPartial(3))));
  EXPECT_THAT(named.at("b").outputs, IsEmpty());
  EXPECT_THAT(claims->NamedOnlyPlacements(kNeg), IsEmpty());
  EXPECT_DOUBLE_EQ(claims->AskSeconds(kAbs), 0.75);
  EXPECT_DOUBLE_EQ(claims->AskSeconds(kNeg), 0);
}

TEST(DTensorClaimsTest, ClaimsThatDoNotAnswerTheRequestAreErrors) {
  dtensor::Claims fewer = Answer();
  fewer.mutable_samples()->RemoveLast();
  EXPECT_THAT(DTensorClaims::FromProtos(Request(), fewer, "c.json").status().message(),
              HasSubstr("c.json: answers 2 samples at world size 4 (mesh []), asked 3 at 4 (mesh [])"));
  dtensor::Claims other = Answer();
  other.mutable_samples(1)->set_name("z");
  EXPECT_THAT(DTensorClaims::FromProtos(Request(), other, "c.json").status().message(),
              HasSubstr("c.json: samples[1]: answers aten::abs sample z, asked aten::abs sample b"));
  dtensor::Claims bad = Answer();
  bad.mutable_samples(0)->set_rules(1, "P(max) -> Q(1)");
  absl::Status s = DTensorClaims::FromProtos(Request(), bad, "c.json").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("c.json: samples[0].rules[1]: "));
}

TEST(DTensorClaimsTest, OnAMeshNdRulesComeWithTheirSingleDimReferences) {
  dtensor::ClaimsRequest request = Request();
  request.add_mesh(2);
  request.add_mesh(2);
  dtensor::Claims answer = Answer();
  answer.add_mesh(2);
  answer.add_mesh(2);
  answer.mutable_samples(0)->clear_rules();
  answer.mutable_samples(0)->add_rules("[S(0), P(max)] -> [S(0), P(max)]");
  absl::StatusOr<DTensorClaims> claims = DTensorClaims::FromProtos(request, answer, "c.json");
  ASSERT_TRUE(claims.ok()) << claims.status();
  absl::StatusOr<NdClaims> nd = claims->NdRules(kAbs)(Unary(8));
  ASSERT_TRUE(nd.ok()) << nd.status();
  std::vector<std::pair<std::string, NdClaim::Kind>> got;
  for (const NdClaim& c : nd->claims) got.push_back({NdRuleToString(c.rule), c.kind});
  EXPECT_THAT(got, ElementsAre(Pair("[S(0), P(max)] -> [S(0), P(max)]", NdClaim::Kind::kKept),
                               Pair("[S(0), R] -> [S(0), R]", NdClaim::Kind::kReference),
                               Pair("[R, P(max)] -> [R, P(max)]", NdClaim::Kind::kReference)));

  // A 1-D rule where N-D ones are due, and claims for another mesh.
  answer.mutable_samples(0)->set_rules(0, "S(0) -> S(0)");
  EXPECT_THAT(DTensorClaims::FromProtos(request, answer, "c.json").status().message(),
              HasSubstr("c.json: samples[0].rules[0]: "));
  answer.set_mesh(1, 3);
  EXPECT_THAT(DTensorClaims::FromProtos(request, answer, "c.json").status().message(),
              HasSubstr("(mesh [2, 3]), asked 3 at 4 (mesh [2, 2])"));
}

// Writes an executable Python program to the test's temporary folder.
std::string Program(const std::string& name, const std::string& body) {
  const std::string path = absl::StrCat(::testing::TempDir(), "/", name);
  std::ofstream(path) << "#!/usr/bin/python3\nimport json, sys\n" << body;
  chmod(path.c_str(), 0755);
  return path;
}

// The torch fields of claims from the torch ShRT is built against.
std::string BuiltTorch() {
  return absl::StrCat("\"torch_version\": \"", torch_build::kVersion, "\", \"torch_library\": \"",
                      torch_build::kTorchDir, "/lib/libtorch_cpu.so\", ");
}

TEST(DTensorClaimsTest, ExportRunsTheProgramOnceWithTheJobs) {
  // Answers each sample with one rule that says whether it was asked to
  // ask in two processes, with Python's hash seed fixed.
  const std::string program = Program("answer.py", absl::StrCat(R"py(
import os
req = json.load(open(sys.argv[1]))
assert os.environ["PYTHONHASHSEED"] == "0"
json.dump({)py", BuiltTorch(), R"py("strategy_source": "DTensor, torch 9.9", "world_size": req["world_size"],
           "samples": [{"op": s["op"], "name": s["name"], "registration": "single_dim",
                        "rules": ["S(0) -> S(0)" if req.get("jobs") == 2 else "R -> R"]}
                       for s in req["samples"]]}, open(sys.argv[2], "w"))
)py"));
  absl::StatusOr<DTensorClaims> claims = DTensorClaims::Export(program, Request(), 2);
  ASSERT_TRUE(claims.ok()) << claims.status();
  EXPECT_EQ(claims->source(), "DTensor, torch 9.9");
  for (const auto& [op, n] : {std::pair{kAbs, 8}, {kAbs, 3}, {kNeg, 5}}) {
    absl::StatusOr<std::vector<Rule>> rules = claims->Rules(op)(Unary(n));
    ASSERT_TRUE(rules.ok()) << rules.status();
    EXPECT_EQ(RuleToString(rules->at(0)), "S(0) -> S(0)");
  }
}

// Bad input (exit status 2) is the one line the program ends its stderr
// with, after whatever torch printed before.
TEST(DTensorClaimsTest, BadInputIsTheProgramsLastLine) {
  const std::string bad = Program("bad.py",
                                  "sys.stderr.write('UserWarning: numpy\\n  warn()\\n"
                                  "export_claims: /abs/rules.py:3: RuntimeError: boom\\n')\n"
                                  "sys.exit(2)\n");
  absl::Status s = DTensorClaims::Export(bad, Request(), 1).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "/abs/rules.py:3: RuntimeError: boom");
}

TEST(DTensorClaimsTest, ExportFailuresNameTheProgramAndItsStderr) {
  const std::string failing = Program("fail.py", "sys.stderr.write('no torch here\\n')\nsys.exit(3)\n");
  absl::Status s = DTensorClaims::Export(failing, Request(), 1).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(s.message(), HasSubstr("fail.py exited with status 3:\nno torch here"));

  const std::string garbage = Program("garbage.py", "open(sys.argv[2], 'w').write('{\"samples\": 3}')\n");
  s = DTensorClaims::Export(garbage, Request(), 1).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("garbage.py's claims: "));

  s = DTensorClaims::Export("/nonexistent/export_claims", Request(), 1).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal);
  EXPECT_THAT(s.message(), HasSubstr("cannot run /nonexistent/export_claims"));
}

// Claims from a torch whose libtorch is not the one ShRT is built against
// (another torch on PYTHONPATH, a torch reinstalled since the build) are
// refused, naming both.
TEST(DTensorClaimsTest, ClaimsFromAnotherTorchAreRefused) {
  const std::string other = Program("other.py", R"py(
req = json.load(open(sys.argv[1]))
json.dump({"strategy_source": "DTensor, torch 2.99.0", "torch_version": "2.99.0a0+git1",
           "torch_library": "/src/pytorch/torch/lib/libtorch_cpu.so",
           "world_size": req["world_size"], "samples": []}, open(sys.argv[2], "w"))
)py");
  absl::Status s = DTensorClaims::Export(other, Request(), 1).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("DTensor was asked in torch 2.99.0a0+git1 "
                                     "(/src/pytorch/torch/lib/libtorch_cpu.so), but ShRT is "
                                     "built against torch "));
  EXPECT_THAT(s.message(), HasSubstr(torch_build::kVersion));
  EXPECT_THAT(s.message(), HasSubstr("--repo_env=SHRT_PYTHON="));
}

}  // namespace
}  // namespace shrt
