// The runtime of the generated per-overload tests (codegen/op_test.bzl).
//
// A generated test source is data only (op_test_data.h). This library holds
// main(): it loads the embedded spec for the overload kOpTestData.op, then
// registers and runs, as gtests of the suite kOpTestData.target:
//   <sample>       one per sample of the spec (every sweep expansion and
//                  world size): fails with one line per incorrect rule not
//                  covered by an unexpired xfail (the rule, world size,
//                  sample, generator, rank, largest |difference| or error,
//                  and the command that reproduces it), on a spec error
//                  (file, line, field) or on a strategy that breaks its
//                  contract; prints the samples an in-place or out= variant
//                  rejects (not applicable to it) and the c10 warnings;
//   xfails         the strict xfail check over all samples and world sizes:
//                  fails on an expired entry or one whose rule is no longer
//                  incorrect; warns on entries older than 90 days;
//   mesh_2x2       the strategy expanded to each N-D mesh of SHRT_MESHES
//                  (comma-separated, default "2x2"; the nightly tier adds
//                  2x3) as DTensor expands it, every N-D rule checked on
//                  every running sample (validate.h ValidateOnMesh): fails
//                  on an incorrect N-D rule (composition failures named as
//                  such) unless a single-dim rule of it has an unexpired
//                  xfail, a strategy error or an unexplained crash; prints
//                  the rules the expansion filters out although they hold;
//   missing_rules  the strict check of the spec's `missing` explanations
//                  (spec.proto MissingRule) at the spec's world sizes:
//                  fails on a missing rule with no entry for this overload
//                  and world size, on an entry whose rule is missing at none
//                  of those world sizes it applies to (stale), on every
//                  missing rule when the spec sets require_complete, and
//                  when the overload rejects every sample. At other world
//                  sizes (SHRT_WORLD_SIZES, the nightly tier) unexplained
//                  missing rules are printed, not failed.
// The validations these gtests read (each sample at each world size, each
// mesh) run in one crash-isolated worker (isolation.h), forked once when
// the first gtest asks for its report: every validation of the gtests that
// gtest's filter and shard select runs there, and each gtest then reports
// its own. A crash is its report's and re-runs that validation in a fresh
// worker. Each gtest records the wall time of the validations it reports as
// the test.xml property `validation_seconds` (its gtest time includes the
// others' when it asked first).
// Everything heavy lives here, compiled once; a generated source compiles in
// a few tens of milliseconds.
//
// World sizes: the spec's `world_sizes` ([4] when empty), or the
// comma-separated list in the environment variable SHRT_WORLD_SIZES
// (e.g. "2,3,4,8" for nightly runs). Tier: samples marked nightly_only are
// skipped unless SHRT_TIER=nightly (SHRT_TIER may be unset, "pr" or
// "nightly"; .bazelrc's --config=pr and --config=nightly set both).
#ifndef SHRT_OP_TEST_OP_TEST_H_
#define SHRT_OP_TEST_OP_TEST_H_

#include "shrt/op_test/op_test_data.h"

namespace shrt {

// Registers the gtests above for `data` and runs them with gtest's flags
// from argv; returns RUN_ALL_TESTS()'s status. main() calls it with
// kOpTestData.
int RunOpTests(const OpTestData& data, int argc, char** argv);

}  // namespace shrt

#endif  // SHRT_OP_TEST_OP_TEST_H_
