"""The Starlark macro that turns op specs into one Bazel test per overload."""

load("@rules_cc//cc:defs.bzl", "cc_test")

def _stem(spec):
    """The file stem of a spec given as a path or a label."""
    return spec.split(":")[-1].split("/")[-1].rsplit(".", 1)[0]

def shrt_op_tests(
        name,
        specs,
        strategy,
        recipes = "//op_specs:recipes",
        xfails = "//op_specs:xfails.textproto",
        cli = "//tools:shrt",
        tags = []):
    """Creates one cc_test per op spec, and a test_suite over them.

    For a spec `fam/aten_mul_Tensor.textproto` (file stem = the overload's
    target name, codegen/naming.py) this creates:
      `aten_mul_Tensor_src`: a genrule running //codegen:gen_op_test, which
        writes `aten_mul_Tensor_test.cc` embedding the spec, the recipes it
        uses and the overload's xfail entries;
      `aten_mul_Tensor`: the cc_test (size small) linking //shrt:op_test and
        `strategy` only, so it re-runs only when its own spec, recipes,
        xfails or strategy library change.
    and `name`: a test_suite of every cc_test created.

    Two specs with one stem in a package fail the load with both paths.

    Args:
      name: name of the test_suite.
      specs: spec files (labels or globs of the calling package).
      strategy: the cc_library (alwayslink) registering these overloads'
        strategies, and any custom operator they need.
      recipes: filegroup of recipe files.
      xfails: the xfails file.
      cli: the `shrt` binary (label) that failure messages tell users to
        run; one that links `strategy` (see //tools:shrt_main).
      tags: tags for every test.
    """
    tests = []
    seen = {}
    for spec in specs:
        target = _stem(spec)
        if target in seen:
            fail("specs %s and %s both map to test target '%s'" % (seen[target], spec, target))
        seen[target] = spec
        native.genrule(
            name = target + "_src",
            srcs = [spec, recipes, xfails],
            outs = [target + "_test.cc"],
            cmd = ("$(location //codegen:gen_op_test) --spec=$(location %s) " +
                   "--recipes $(locations %s) --xfails=$(location %s) --cli=%s --out=$@") %
                  (spec, recipes, xfails, cli),
            tools = ["//codegen:gen_op_test"],
        )
        cc_test(
            name = target,
            size = "small",
            srcs = [target + "_test.cc"],
            deps = [
                "//shrt:op_test",
                strategy,
                "@com_google_googletest//:gtest_main",
            ],
            tags = tags,
        )
        tests.append(target)
    native.test_suite(name = name, tests = tests, tags = tags)
