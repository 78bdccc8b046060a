"""ShRT's external repositories, declared once for every workspace that builds it.

ShRT's own WORKSPACE and a downstream workspace that uses ShRT as the
external repository @shrt (examples/downstream/) both call
shrt_dependencies(), so the list below is the only one. Everything is local
(offline Bazel 4.2.3 on Debian bookworm, shared/DESIGN.md section 7).

Labels and paths are resolved relative to ShRT's repository, not to the
workspace that calls the macro: `Label("//third_party:...")` in this file is
ShRT's third_party/ whether ShRT is the main repository or @shrt.
"""

load("//third_party:libtorch.bzl", "libtorch_repository")

def _root_is_main():
    """True when ShRT is the main repository (its own WORKSPACE)."""
    return Label("//:BUILD.bazel").workspace_root == ""

def _shrt_dir_repository_impl(ctx):
    # Symlinks the entries of a directory of ShRT's tree into the repository,
    # as local_repository does. The directory is found through a label of
    # ShRT's repository, so it works wherever that repository lives.
    src = ctx.path(ctx.attr.anchor).dirname.get_child(ctx.attr.dir)
    for entry in src.readdir():
        ctx.symlink(entry, entry.basename)

_shrt_dir_repository = repository_rule(
    implementation = _shrt_dir_repository_impl,
    attrs = {
        "anchor": attr.label(mandatory = True, doc = "A file in the directory's parent package."),
        "dir": attr.string(mandatory = True, doc = "The directory, relative to the anchor's."),
    },
    local = True,
)

def _shrt_local_repository(name, dir):
    """A local repository of a directory under ShRT's third_party/.

    local_repository takes a path relative to the main workspace, which from
    a downstream workspace is not ShRT's tree; those directories hold their
    own WORKSPACE, so they are not packages that a label could name. From
    ShRT itself this stays the plain local_repository it always was.
    """
    if _root_is_main():
        native.local_repository(name = name, path = "third_party/" + dir)
    else:
        _shrt_dir_repository(
            name = name,
            anchor = Label("//third_party:BUILD.bazel"),
            dir = dir,
        )

def _system_library(name, build_file, path = "/usr"):
    # build_file is a label string resolved from the main repository, so it
    # must name ShRT's repository explicitly ("@shrt//third_party:..." from a
    # downstream workspace, "//third_party:..." from ShRT's own).
    native.new_local_repository(
        name = name,
        build_file = str(Label("//third_party:" + build_file)),
        path = path,
    )

def shrt_dependencies():
    """Declares every repository ShRT builds against and registers its Python toolchain.

    Call it from a WORKSPACE (after declaring @shrt, when ShRT is external).
    Repository names are fixed: ShRT's BUILD files name them (@libtorch,
    @com_google_absl, ...), so a workspace that already declares one of them
    must give it the same targets.
    """

    # --- Bazel rule sets (Debian packages bazel-rules-*, bazel-skylib, bazel-platforms).
    # Debian's rules_cc 0.0.4 needs use_cpp_toolchain (Bazel >= 5): use a shim whose
    # cc/defs.bzl forwards to the native rules.
    _shrt_local_repository(name = "rules_cc", dir = "rules_cc_shim")

    for name, path in [
        ("rules_java", "/usr/share/bazel/rules/java"),
        ("rules_proto", "/usr/share/bazel/rules/proto"),
        ("bazel_skylib", "/usr/share/bazel/tools/skylib"),
        ("platforms", "/usr/share/bazel/platforms"),
    ]:
        native.local_repository(name = name, path = path)

    # Every test depends on @remote_coverage_tools (used only by `bazel coverage`).
    _shrt_local_repository(name = "remote_coverage_tools", dir = "remote_coverage_tools")

    # --- libtorch: the pinned torch wheel's (tools/requirements.txt), found
    # by asking the tools' Python where torch lives.
    libtorch_repository(
        name = "libtorch",
        build_file_template = Label("//third_party:libtorch.BUILD.tpl"),
        requirements = Label("//tools:requirements.txt"),
    )

    # --- System libraries (Debian -dev packages) rooted at /usr.
    _system_library("com_google_protobuf", "protobuf.BUILD")
    _system_library("com_google_absl", "absl.BUILD")
    _system_library("com_google_googletest", "googletest.BUILD")
    _system_library("muparser", "muparser.BUILD")
    _system_library("tcmalloc", "tcmalloc.BUILD")
    _system_library("libfuzzer", "libfuzzer.BUILD", path = "/usr/lib/llvm-14/lib")
    _system_library("com_google_benchmark", "benchmark.BUILD")

    # --- Python: run py_binary/py_test with /usr/bin/python3 (has python3-jinja2).
    native.register_toolchains(str(Label("//third_party/python:py_toolchain")))
