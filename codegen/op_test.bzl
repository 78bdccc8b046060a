"""The Starlark macro that turns op-group specs into one Bazel test per overload."""

load("@rules_cc//cc:defs.bzl", "cc_library", "cc_test")

# ShRT's own targets, as labels of ShRT's repository: the macro also runs in
# downstream workspaces (examples/downstream/), where "//shrt:..." would name
# the caller's repository. str() is "//shrt:..." from ShRT itself and
# "@shrt//shrt:..." from elsewhere.
_GEN_OP_TEST = str(Label("//codegen:gen_op_test"))
_OP_TEST_DATA = str(Label("//shrt/op_test:op_test_data"))
_OP_TEST_MAIN = str(Label("//shrt/op_test:op_test_main"))

def _stem(spec):
    """The file stem of a spec given as a path or a label."""
    return spec.split(":")[-1].split("/")[-1].rsplit(".", 1)[0]

def shrt_op_tests(
        name,
        specs,
        strategy,
        groups = {},
        recipes = None,
        xfails = None,
        cli = None,
        tags = []):
    """Creates one cc_test per overload of each op-group spec, and a test_suite.

    For a spec `fam/aten_add_Tensor.textproto` whose group (from `groups`)
    is aten::add.Tensor, aten::add_.Tensor and aten::add.out, this creates:
      `aten_add_Tensor`, `aten_add__Tensor`, `aten_add_out`: the cc_tests
        (size small), each linking its data (`<target>_data`, a library
        compiled against shrt/op_test/op_test_data.h alone), //shrt/op_test:op_test_main
        and `strategy` only,
        so a test re-runs only when its own spec, recipes, xfails or
        strategy library change;
    and for the call as a whole:
      `<name>_srcs`: one genrule running //codegen:gen_op_test once for
        every spec given, which writes each overload's `<target>_test.cc`
        (here `aten_add_Tensor_test.cc`, `aten_add__Tensor_test.cc` and
        `aten_add_out_test.cc`), data-only sources (shrt/op_test/op_test_data.h)
        embedding the spec, the specs it takes samples from, the recipes they use and
        the overload's xfail entries. A change to one spec runs it again for
        all, but the sources of the others come out byte for byte the same
        and Bazel prunes them: their compiles, links and tests stay cached.
        (One run per spec started Python 597 times for op_specs/;
        BENCHMARKS.md "Issue 28, cold suite".)
      `name`: a test_suite of every cc_test created.

    No spec (an empty glob) fails the load: an empty test_suite would mean
    every test of the package.
    Two overloads with one target name fail the load with both specs.

    Args:
      name: name of the test_suite.
      specs: spec files (labels or globs of the calling package).
      strategy: the cc_library (alwayslink) registering these overloads'
        strategies, and any custom operator they need.
      groups: {spec path: {"overloads": [overload, ...], "targets":
        [target name, ...], "samples_from": [spec path, ...]}}, as
        `shrt groups --write` writes it (op_specs/groups.bzl); a spec
        missing from it is a group of the one overload its file names.
      recipes: filegroup of recipe files; ShRT's op_specs/recipes when None.
      xfails: the xfails file; ShRT's op_specs/xfails.textproto when None
        (only the entries of the tests' own overloads are used).
      cli: the `shrt` binary (label) that failure messages tell users to
        run; one that links `strategy` (see //tools:shrt_main). ShRT's
        //tools:shrt when None, which knows no downstream operator: a
        downstream repository passes its own.
      tags: tags for every test.
    """
    if recipes == None:
        recipes = str(Label("//op_specs:recipes"))
    if xfails == None:
        xfails = str(Label("//op_specs:xfails.textproto"))
    if cli == None:
        cli = str(Label("//tools:shrt"))
    tests = []
    seen = {}
    groups_json = []
    srcs = {recipes: True, xfails: True}  # a set: specs can share the specs they take samples from
    outs = []
    for spec in specs:
        group = groups.get(spec, None)
        if group == None:
            overloads = []
            targets = [_stem(spec)]
            samples_from = []
        else:
            overloads = group["overloads"]
            targets = group["targets"]
            samples_from = group["samples_from"]
        for target in targets:
            if target in seen:
                fail("specs %s and %s both map to test target '%s'" % (seen[target], spec, target))
            seen[target] = spec
        srcs[spec] = True
        for source in samples_from:
            srcs[source] = True
        outs += [t + "_test.cc" for t in targets]
        groups_json.append({
            "spec": "$(location %s)" % spec,
            "samples_from": ["$(location %s)" % source for source in samples_from],
            "overloads": overloads,
            "outs": ["$(location %s_test.cc)" % t for t in targets],
        })
    if not outs:
        fail("shrt_op_tests %s: no spec given" % name)
    native.genrule(
        name = name + "_srcs",
        srcs = srcs.keys(),
        outs = outs,
        cmd = ("$(location %s) --recipes $(locations %s) --xfails=$(location %s) --cli=%s " +
               "--groups='%s'") % (_GEN_OP_TEST, recipes, xfails, cli, json.encode(groups_json)),
        tools = [_GEN_OP_TEST],
    )
    for target in seen:
        # The data-only source compiles against op_test_data.h alone, so
        # its sandbox holds one header, not libtorch's thousands.
        cc_library(
            name = target + "_data",
            testonly = True,
            srcs = [target + "_test.cc"],
            deps = [_OP_TEST_DATA],
            alwayslink = True,
            linkstatic = True,
            tags = tags,
        )
        cc_test(
            name = target,
            size = "small",
            deps = [
                ":" + target + "_data",
                _OP_TEST_MAIN,
                strategy,
            ],
            tags = tags,
        )
        tests.append(target)
    native.test_suite(name = name, tests = tests, tags = tags)
