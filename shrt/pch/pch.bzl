"""cc_pch: a precompiled header that every compile of the configuration can use.

Most of ShRT's C++ sources include libtorch's ATen/core/Tensor.h, directly
or through an engine header, and gcc parsed it (with Abseil's status and
strings headers) once per source: Tensor.h alone is 148,504 lines after
preprocessing, 1.8 s of parsing (BENCHMARKS.md "Issue 28, compiles"). A cc_pch target precompiles a header of such includes once per
configuration, with the command line the toolchain gives every C++ compile
(cc_common: the same features, --copt and --cxxopt flags, the deps'
defines and include directories), and a target that lists it in its deps
and TORCH_PCH_COPTS in its copts compiles each source as if it began with
`#include` of that header, read from the precompiled file.

gcc uses a precompiled header only when the compile that reads it has the
settings that made it ("Using Precompiled Headers" in gcc's manual: among
them -O, -fPIC and the macros defined on the command line); otherwise it
parses the header's text, which is correct and costs what the includes
cost. So the header `<name>.h` is beside a directory `<name>.h.gch` of
variants (gcc tries each file of the directory and takes the first that is
valid): the configuration's own flags, and the same with -O0, which
.bazelrc's --per_file_copt gives the tests' own sources.

Only gcc reads these: clang (--config=fuzz) has its own precompiled format
and refuses a mismatched one with an error instead of parsing the text, so
there `<name>.h` is empty and the directory holds no variant, and each
source includes what it names, as without this rule.
"""

load("@bazel_skylib//lib:shell.bzl", "shell")
load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "find_cpp_toolchain")

# The precompiled header's target, for the deps of a target that uses it.
TORCH_PCH = "//shrt/pch:torch_pch"

# The copts of a target that uses //shrt/pch:torch_pch: its header, found
# through the quote include path (bazel-bin, or bazel-bin/external/shrt when
# ShRT is an external repository), first in every source.
TORCH_PCH_COPTS = ["-include", "shrt/pch/torch_pch.h"]

# The variants of the precompiled header: a file name in `<name>.h.gch` and
# the flags added to the configuration's (the last -O wins).
_VARIANTS = [
    ("configured.gch", []),
    ("O0.gch", ["-O0"]),
]

_CPP_COMPILE = "c++-compile"

def _cc_pch_impl(ctx):
    cc_toolchain = find_cpp_toolchain(ctx)
    deps = cc_common.merge_cc_infos(cc_infos = [d[CcInfo] for d in ctx.attr.deps])
    deps_context = deps.compilation_context
    header = ctx.actions.declare_file(ctx.label.name + ".h")
    variants = ctx.actions.declare_directory(ctx.label.name + ".h.gch")
    features = cc_common.configure_features(
        ctx = ctx,
        cc_toolchain = cc_toolchain,
        requested_features = ctx.features,
        unsupported_features = ctx.disabled_features,
    )
    compiler = cc_common.get_tool_for_action(feature_configuration = features, action_name = _CPP_COMPILE)

    # Bazel 4's auto-configured toolchain names gcc "compiler", clang "clang".
    if cc_toolchain.compiler == "clang" or "clang" in compiler.split("/")[-1]:
        ctx.actions.write(header, "// No precompiled header under clang (shrt/pch/pch.bzl).\n")
        ctx.actions.run_shell(outputs = [variants], command = "mkdir -p " + variants.path)
    else:
        ctx.actions.symlink(output = header, target_file = ctx.file.hdr)
        env = cc_common.get_environment_variables(
            feature_configuration = features,
            action_name = _CPP_COMPILE,
            variables = cc_common.empty_variables(),
        )
        commands = ["mkdir -p " + variants.path]
        for file_name, extra in _VARIANTS:
            variables = cc_common.create_compile_variables(
                cc_toolchain = cc_toolchain,
                feature_configuration = features,
                user_compile_flags = ctx.fragments.cpp.copts + ctx.fragments.cpp.cxxopts + extra,
                include_directories = deps_context.includes,
                quote_include_directories = deps_context.quote_includes,
                system_include_directories = deps_context.system_includes,
                preprocessor_defines = deps_context.defines,
                use_pic = True,
                add_legacy_cxx_options = True,
            )
            flags = cc_common.get_memory_inefficient_command_line(
                feature_configuration = features,
                action_name = _CPP_COMPILE,
                variables = variables,
            )
            commands.append(" ".join([shell.quote(compiler)] + [shell.quote(f) for f in flags] + [
                "-x c++-header",
                shell.quote(header.path),
                "-o",
                shell.quote(variants.path + "/" + file_name),
            ]))
        ctx.actions.run_shell(
            outputs = [variants],
            inputs = depset([header, ctx.file.hdr], transitive = [deps_context.headers, cc_toolchain.all_files]),
            command = " && ".join(commands),
            env = env,
            mnemonic = "CppPch",
            progress_message = "Precompiling %s" % ctx.file.hdr.short_path,
        )
    # The deps' headers come along (a compile whose flags the variants do not
    # match parses the header's text), their libraries do not: a target that
    # uses the header links what it names in its own deps.
    own = CcInfo(compilation_context = cc_common.create_compilation_context(headers = depset([header, variants])))
    compile_only = CcInfo(compilation_context = deps_context)
    return [
        DefaultInfo(files = depset([header, variants])),
        cc_common.merge_cc_infos(direct_cc_infos = [own], cc_infos = [compile_only]),
    ]

cc_pch = rule(
    implementation = _cc_pch_impl,
    doc = "A precompiled `hdr` for the targets that depend on it and use TORCH_PCH_COPTS (see above).",
    attrs = {
        "hdr": attr.label(mandatory = True, allow_single_file = [".h"], doc = "The header of includes to precompile."),
        "deps": attr.label_list(providers = [CcInfo], doc = "The libraries whose headers `hdr` includes."),
        "_cc_toolchain": attr.label(default = "@bazel_tools//tools/cpp:current_cc_toolchain"),
    },
    fragments = ["cpp"],
    toolchains = ["@bazel_tools//tools/cpp:toolchain_type"],
    incompatible_use_toolchain_transition = True,
)
