"""@rules_cc//cc:defs.bzl shim for Bazel 4.2.3: forwards to the native C++ rules."""

load(":native.bzl", "NativeCcInfo", "NativeCcToolchainConfigInfo", "NativeDebugPackageInfo", "native_cc_common")

def cc_binary(**attrs):
    native.cc_binary(**attrs)

def cc_test(**attrs):
    native.cc_test(**attrs)

def cc_library(**attrs):
    native.cc_library(**attrs)

def cc_import(**attrs):
    native.cc_import(**attrs)

def cc_proto_library(**attrs):
    native.cc_proto_library(**attrs)

def cc_toolchain(**attrs):
    native.cc_toolchain(**attrs)

def cc_toolchain_suite(**attrs):
    native.cc_toolchain_suite(**attrs)

def fdo_profile(**attrs):
    native.fdo_profile(**attrs)

def fdo_prefetch_hints(**attrs):
    native.fdo_prefetch_hints(**attrs)

def objc_library(**attrs):
    native.objc_library(**attrs)

def objc_import(**attrs):
    native.objc_import(**attrs)

cc_common = native_cc_common
CcInfo = NativeCcInfo
CcToolchainConfigInfo = NativeCcToolchainConfigInfo
DebugPackageInfo = NativeDebugPackageInfo
