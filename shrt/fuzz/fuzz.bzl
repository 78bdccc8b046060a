"""libFuzzer targets for the text users write, and their short fuzz tests.

shrt_fuzz_target(name = "x_fuzz", ...) declares:
  :x_fuzz       a libFuzzer binary (srcs define LLVMFuzzerTestOneInput). Under
                --config=fuzz (.bazelrc) clang-14 builds it and everything it
                links with -fsanitize=fuzzer,address,undefined: coverage-guided
                fuzzing, what tools/fuzz/run_fuzzers.sh runs for long. In every
                other config the same source links Debian's libFuzzer.a
                (@libfuzzer) as built by gcc, with -fsanitize-coverage=trace-cmp
                on the target's own source: libFuzzer 14 refuses gcc's
                trace-pc, so the libraries give no coverage there.
  :x_fuzz_test  short_fuzz_test.sh: replays corpus/x_fuzz/ (seeds from the
                repository's files and the regression input of every finding),
                then mutates it for `runs` executions. Part of
                `bazel test //shrt/...`.
"""

load("@rules_cc//cc:defs.bzl", "cc_binary")
load("//shrt/pch:pch.bzl", "TORCH_PCH", "TORCH_PCH_COPTS")

def shrt_fuzz_target(name, srcs, deps, runs = 20000):
    """A libFuzzer binary and its short fuzz test of `runs` executions."""
    cc_binary(
        name = name,
        testonly = True,
        srcs = srcs,
        copts = TORCH_PCH_COPTS + select({
            "//shrt/fuzz:libfuzzer_clang": [],
            "//conditions:default": ["-fsanitize-coverage=trace-cmp"],
        }),
        linkopts = select({
            "//shrt/fuzz:libfuzzer_clang": ["-fsanitize=fuzzer"],
            "//conditions:default": [],
        }),
        deps = deps + [TORCH_PCH] + select({
            "//shrt/fuzz:libfuzzer_clang": [],
            "//conditions:default": ["@libfuzzer"],
        }),
        tags = ["shrt_fuzz_target"],
    )
    native.filegroup(
        name = name + "_corpus",
        srcs = native.glob(["corpus/%s/*" % name]),
    )
    native.sh_test(
        name = name + "_test",
        size = "small",
        srcs = ["short_fuzz_test.sh"],
        args = [
            "$(rootpath :%s)" % name,
            "%s/corpus/%s" % (native.package_name(), name),
            str(runs),
        ],
        data = [
            ":" + name,
            ":%s_corpus" % name,
        ],
    )
