#!/bin/bash
# Compile time of a base revision and of this checkout, file by file,
# alternated (tools/bench/compile_ab.py): the base builds in a temporary
# worktree with its own Bazel output base, both trees build //shrt/...
# (so that their execution roots hold every generated header), and every
# source that compiles differently in the two is compiled once in each,
# back to back.
# Usage: tools/bench/compile_ab.sh BASE_REV [--limit=N] [--seed=S]
#        (from the workspace root)
set -euo pipefail
cd "$(dirname "$0")/../.."
base="$1"
shift
source tools/bench/base_worktree.sh "$base"
query='mnemonic("CppCompile", deps(//shrt/...))'
for side in base head; do
  tree="$worktree"; [[ "$side" == head ]] && tree="$PWD"
  (cd "$tree" && bazel build --config=ci //shrt/... >/dev/null 2>&1 &&
   bazel aquery "$query" --output=jsonproto 2>/dev/null >"$tmp/$side.json" &&
   bazel info execution_root 2>/dev/null >"$tmp/$side.root") ||
    { echo "compile_ab: build or aquery failed in $tree" >&2; exit 1; }
done
/usr/bin/python3 tools/bench/compile_ab.py "$(cat "$tmp/base.root")" "$tmp/base.json" \
  "$(cat "$tmp/head.root")" "$tmp/head.json" "$@"
