#!/bin/bash
# Compile time of a base revision and of this checkout, file by file,
# alternated (tools/bench/compile_ab.py): the base builds in a temporary
# worktree with its own Bazel output base, both trees build TARGETS
# (default //shrt/..., so that their execution roots hold every generated
# header), and every source of TARGETS' dependencies that compiles
# differently in the two is compiled once in each, back to back.
# Usage: tools/bench/compile_ab.sh BASE_REV [--limit=N] [--seed=S] [TARGET...]
#        (from the workspace root; TARGETs narrow the build to the
#        libraries a change touches, e.g. //shrt/engine //testing/...)
set -euo pipefail
cd "$(dirname "$0")/../.."
base="$1"
shift
options=() targets=()
for arg in "$@"; do
  if [[ "$arg" == --* ]]; then options+=("$arg"); else targets+=("$arg"); fi
done
(( ${#targets[@]} )) || targets=(//shrt/...)
source tools/bench/base_worktree.sh "$base"
query="mnemonic(\"CppCompile\", deps($(IFS=+; echo "${targets[*]}" | sed 's/+/ + /g')))"
for side in base head; do
  tree="$worktree"; [[ "$side" == head ]] && tree="$PWD"
  (cd "$tree" && bazel build --config=ci "${targets[@]}" >/dev/null 2>&1 &&
   bazel aquery "$query" --output=jsonproto 2>/dev/null >"$tmp/$side.json" &&
   bazel info execution_root 2>/dev/null >"$tmp/$side.root") ||
    { echo "compile_ab: build or aquery failed in $tree" >&2; exit 1; }
done
/usr/bin/python3 tools/bench/compile_ab.py "$(cat "$tmp/base.root")" "$tmp/base.json" \
  "$(cat "$tmp/head.root")" "$tmp/head.json" "${options[@]}"
