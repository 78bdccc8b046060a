#!/bin/bash
# Installs every Debian package the ShRT build needs (DESIGN.md §7), then the
# pinned torch of tools/requirements.txt into /usr/bin/python3 (the tools'
# interpreter, third_party/python/interpreter.bzl), whose wheel carries the
# libtorch that @libtorch builds against (third_party/libtorch.bzl).
# Idempotent and fast when everything is present: it only calls apt-get when
# a package is missing, and pip when the installed torch is not the pinned
# one. Needs root (or sudo) for the install.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  bazel-bootstrap       # Bazel 4.2.3
  bazel-platforms       # @platforms
  bazel-rules-cc        # @rules_cc (shimmed, see third_party/rules_cc_shim)
  bazel-rules-java      # @rules_java
  bazel-rules-proto     # @rules_proto
  bazel-skylib          # @bazel_skylib
  g++
  lld                   # the linker (.bazelrc --linkopt=-fuse-ld=lld)
  cmake                 # testing/plugin: a custom-op library built as its users build it
  strace                # tools/xfail_kill_test.sh: a slow disk, by delaying fsync
  libabsl-dev           # Abseil
  libprotobuf-dev       # protobuf runtime
  protobuf-compiler     # protoc
  libgtest-dev          # GoogleTest
  libgmock-dev          # GoogleMock
  libbenchmark-dev      # Google Benchmark
  python3-jinja2        # codegen templates
  python3-protobuf      # codegen reads specs
  python3-pip           # installs the pinned torch (tools/requirements.txt) below
  libmuparser-dev       # strategy table conditions
  libtcmalloc-minimal4  # the malloc of every binary and test (third_party/tcmalloc.BUILD)
  clang-14              # --config=fuzz (.bazelrc): libFuzzer targets under ASan + UBSan
  libclang-rt-14-dev    # clang's sanitizer and libFuzzer runtimes
  libfuzzer-14-dev      # libFuzzer.a: the short fuzz tests of the default (gcc) build
  nginx                 # the remote cache (tools/remote_cache/)
  curl                  # its readiness probe
  git                   # the remote cache test clones the repository
  patch                 # tools/dtensor/torch_overlay.py applies dtensor/fixes/ to a copy of torch
  chromium              # //tools/html_report:browser_test renders the HTML report headless
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  if [[ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null)" != "install ok installed" ]]; then
    missing+=("$pkg")
  fi
done
SUDO=""
if [[ "$(id -u)" != 0 ]]; then SUDO="sudo"; fi
if (( ${#missing[@]} > 0 )); then
  echo "setup: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  echo "setup: done" >&2
fi

# torch: the version pinned in tools/requirements.txt, or pip installs it
# (from this machine's wheel cache, with no download, when it has it).
# /usr/bin/python3 is Debian's (PEP 668): pip writes to /usr/local, never
# over a Debian package's files.
# The same holds for every other pin there.
stale="$(/usr/bin/python3 - tools/requirements.txt <<'PY'
import importlib.metadata as m, sys
for line in open(sys.argv[1]):
    name, _, pinned = line.split("#")[0].strip().partition("==")
    if not name:
        continue
    try:
        found = m.version(name).split("+")[0]
    except m.PackageNotFoundError:
        found = "none"
    if found != pinned:
        print(f"{name}=={pinned} (found: {found})")
PY
)"
if [[ -n "$stale" ]]; then
  echo "setup: installing into /usr/bin/python3: $(echo $stale)" >&2
  $SUDO /usr/bin/python3 -m pip install -q --break-system-packages --root-user-action=ignore \
    -r tools/requirements.txt
  echo "setup: done" >&2
fi
