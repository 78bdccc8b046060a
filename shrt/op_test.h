// The runtime of the generated per-overload tests (codegen/op_test.bzl).
//
// A generated test source embeds its spec, the recipes the spec uses and
// the overload's xfail entries in an OpTestConfig, and defines one gtest
// per sample plus `xfails` and `missing_rules`, each calling one function
// below. Everything heavy lives here, compiled once; this header includes
// no ATen, so generated sources compile in about a second.
//
// World sizes: the spec's `world_sizes` ([4] when empty), or the
// comma-separated list in the environment variable SHRT_WORLD_SIZES
// (e.g. "2,3,4,8" for nightly runs). Tier: samples marked nightly_only are
// skipped unless SHRT_TIER=nightly (SHRT_TIER may be unset, "pr" or
// "nightly"; .bazelrc's --config=pr and --config=nightly set both).
#ifndef SHRT_OP_TEST_H_
#define SHRT_OP_TEST_H_

#include <string>
#include <vector>

namespace shrt {

// A file embedded in a generated test: its workspace path and content.
struct EmbeddedFile {
  std::string path;
  std::string text;
};

struct OpTestConfig {
  std::string op;                     // e.g. "aten::mul.Tensor"
  EmbeddedFile spec;                  // spec.proto text
  std::vector<EmbeddedFile> recipes;  // the recipes the spec uses
  EmbeddedFile xfails;                // xfail.proto text, this op's entries only
  std::string cli;                    // CLI label for repro commands, e.g. "//tools:shrt"
};

// Validates sample `sample` (every sweep expansion, every world size)
// against the overload's registered strategy. Fails with one line per
// incorrect rule not covered by an unexpired xfail: the rule, world size,
// sample, generator, rank, largest |difference| or error, and the command
// that reproduces it; also fails on a spec error (file, line, field) or a
// strategy that breaks its contract.
void RunSampleTest(const OpTestConfig& config, const std::string& sample);

// The strict xfail check over all samples and world sizes: fails on an
// expired entry or one whose rule is no longer incorrect; warns on entries
// older than 90 days.
void RunXfailTest(const OpTestConfig& config);

// Prints every missing rule (valid but not claimed) over all samples and
// world sizes; fails on them when the spec sets require_complete.
void RunMissingTest(const OpTestConfig& config);

}  // namespace shrt

#endif  // SHRT_OP_TEST_H_
