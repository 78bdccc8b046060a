#!/bin/bash
# //tools/bench:differential_test: the C++ engine and the eager-PyTorch
# re-implementation of DESIGN.md section 3 (tools/bench/differential.py)
# must find the same valid rules on every sample.
#   default tier: a few overloads (multi-output, in-place, index input,
#                 local_shape_arg, integer, Partial-heavy) at W = 2, 3;
#   SHRT_TIER=nightly: every overload of differential_ops.txt at W = 2, 3, 4.
# Args: the export_cases binary, the shrt CLI.
set -euo pipefail
export_cases="$1"
shrt="$2"
if [[ ! -x /usr/bin/python3 ]] || ! /usr/bin/python3 -c 'import torch' 2>/dev/null; then
  echo "differential_test: needs /usr/bin/python3 with the pinned torch (tools/requirements.txt; tools/setup.sh)" >&2
  exit 1
fi
if [[ "${SHRT_TIER:-pr}" == nightly ]]; then
  selection=(--ops=tools/bench/differential_ops.txt --world_sizes=2,3,4)
else
  selection=(--world_sizes=2,3
    --op=aten::mm                # Partial-heavy contraction, S(1), S(0) -> P(sum)
    --op=aten::mul_.Tensor       # in-place: outputs keep their input's placement
    --op=aten::max.dim           # two outputs (values, int64 indices)
    --op=aten::gather            # an index input (no Partial placements)
    --op=aten::view              # local_shape_arg
    --op=aten::bitwise_and.Tensor  # integer and bool dtypes
  )
fi
exec /usr/bin/python3 tools/bench/differential.py "${selection[@]}" \
  --shrt="$shrt" --export_cases="$export_cases" --jobs=2 \
  --explained=tools/bench/differential_explained.txt
