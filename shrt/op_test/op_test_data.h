// The data of one generated per-overload test (codegen/op_test.bzl).
//
// A generated test source is data only: it includes this header and defines
// kOpTestData, embedding its spec, the specs its samples come from, the
// recipes they use and the overload's xfail entries. The shared runtime
// (op_test.h, //shrt/op_test:op_test_main, compiled once) reads it, registers one
// gtest per sample plus `xfails` and `missing_rules` at start-up and runs
// them. This header includes nothing, so a generated source compiles in a
// few tens of milliseconds: no gtest, ATen or protobuf header is parsed per
// overload.
#ifndef SHRT_OP_TEST_OP_TEST_DATA_H_
#define SHRT_OP_TEST_OP_TEST_DATA_H_

namespace shrt {

// A file embedded in a generated test: its workspace path and content.
struct EmbeddedFile {
  const char* path;  // e.g. "op_specs/binary/aten_add_Tensor.textproto"; "" when absent
  const char* text;
};

struct OpTestData {
  const char* op;              // the overload checked, e.g. "aten::add_.Tensor"
  const char* target;          // its test target and gtest suite, e.g. "aten_add__Tensor"
  EmbeddedFile spec;           // spec.proto text of the overload's group
  // The specs `spec` takes samples from (spec.proto OpSpec.samples_from),
  // directly or through others, in dependency order: each one takes
  // samples only from those before it (LoadedSpec::samples_from_paths).
  // num_samples_from is 0 for a spec without samples_from.
  const EmbeddedFile* samples_from;
  int num_samples_from;
  const EmbeddedFile* recipes; // the recipes the samples use
  int num_recipes;
  EmbeddedFile xfails;         // xfail.proto text, this overload's entries only
  const char* cli;             // CLI label for repro commands, e.g. "//tools:shrt"
};

// Defined by each generated test source.
extern const OpTestData kOpTestData;

}  // namespace shrt

#endif  // SHRT_OP_TEST_OP_TEST_DATA_H_
