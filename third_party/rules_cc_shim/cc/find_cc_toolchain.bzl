"""Forwards to @bazel_tools (shim for Bazel 4.2.3)."""

load("@bazel_tools//tools/cpp:toolchain_utils.bzl", _find_cpp_toolchain = "find_cpp_toolchain")

find_cc_toolchain = _find_cpp_toolchain
find_cpp_toolchain = _find_cpp_toolchain
