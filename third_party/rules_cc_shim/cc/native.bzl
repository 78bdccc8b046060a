"""Re-exports of Bazel's built-in C++ symbols (see defs.bzl)."""

native_cc_common = cc_common
NativeCcInfo = CcInfo
NativeCcToolchainConfigInfo = CcToolchainConfigInfo
NativeDebugPackageInfo = DebugPackageInfo
