#!/bin/bash
# Installs every Debian package the ShRT build needs (DESIGN.md §7). Idempotent
# and fast when everything is present: it only calls apt-get when a package is
# missing. Needs root (or sudo) for the install.
set -euo pipefail

PACKAGES=(
  bazel-bootstrap       # Bazel 4.2.3
  bazel-platforms       # @platforms
  bazel-rules-cc        # @rules_cc (shimmed, see third_party/rules_cc_shim)
  bazel-rules-java      # @rules_java
  bazel-rules-proto     # @rules_proto
  bazel-skylib          # @bazel_skylib
  g++
  cmake                 # testing/plugin: a custom-op library built as its users build it
  strace                # tools/xfail_kill_test.sh: a slow disk, by delaying fsync
  libtorch-dev          # libtorch 1.13 (ATen, c10, the dispatcher)
  libabsl-dev           # Abseil
  libprotobuf-dev       # protobuf runtime
  protobuf-compiler     # protoc
  libgtest-dev          # GoogleTest
  libgmock-dev          # GoogleMock
  libbenchmark-dev      # Google Benchmark
  python3-jinja2        # codegen templates
  python3-protobuf      # codegen reads specs
  python3-torch         # tools/bench: eager-PyTorch reference and differential check
  libmuparser-dev       # strategy table conditions
  clang-14              # --config=fuzz (.bazelrc): libFuzzer targets under ASan + UBSan
  libclang-rt-14-dev    # clang's sanitizer and libFuzzer runtimes
  libfuzzer-14-dev      # libFuzzer.a: the short fuzz tests of the default (gcc) build
  nginx                 # the remote cache (tools/remote_cache/)
  curl                  # its readiness probe
  git                   # the remote cache test clones the repository
  chromium              # //tools/html_report:browser_test renders the HTML report headless
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  if [[ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null)" != "install ok installed" ]]; then
    missing+=("$pkg")
  fi
done
if (( ${#missing[@]} == 0 )); then
  exit 0
fi

SUDO=""
if [[ "$(id -u)" != 0 ]]; then SUDO="sudo"; fi
echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done" >&2
