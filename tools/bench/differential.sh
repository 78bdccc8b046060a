#!/bin/bash
# Differential check of ShRT's ground truth against an independent eager
# PyTorch implementation (tools/bench/differential.py): every overload of
# tools/bench/differential_ops.txt at world sizes 2, 3 and 4. Builds the
# exporter and the CLI first (SKIP_BUILD=1 skips that).
# Usage: tools/bench/differential.sh [differential.py flags, e.g. --jobs=2 --without=c]
# Exit status 1 on an unexplained disagreement or a stale explanation
# (tools/bench/differential_explained.txt).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  bazel build --config=ci //tools/bench:export_cases //tools:shrt
fi
exec /usr/bin/python3 tools/bench/differential.py \
  --ops=tools/bench/differential_ops.txt --world_sizes=2,3,4 \
  --shrt=bazel-bin/tools/shrt --export_cases=bazel-bin/tools/bench/export_cases "$@"
