#!/bin/bash
# Side by side with PyTorch's own strategy validator (issue 27,
# BENCHMARKS.md "Against PyTorch's strategy_validation"): both tools on the
# OpInfo ops of tools/bench/vs_pytorch_ops.txt, at each world size given
# (default 2 and 4), float32, one after the other on this machine.
#   PyTorch: tools/bench/pytorch_validator.py (strategy_validation's
#            compare_operator, set up as its command line sets it up), one
#            process per W;
#   ShRT:    `shrt validate --dtensor --world_size=W` on the aten overloads
#            PyTorch's validator ran that ShRT has a spec for
#            (op_specs/groups.bzl), warm fastbuild, both cores.
# Then ShRT's ground truth on every rule PyTorch's validator flags, claimed
# in a strategy table (`shrt validate --strategies`). Writes
# OUT_DIR/{pytorch_w<W>.jsonl,pytorch_w<W>.log,shrt_w<W>.json,
# pytorch_rules_w<W>.textproto,shrt_on_pytorch_w<W>.json} and prints the
# tables of tools/bench/vs_pytorch_table.py. PyTorch's run is the long one
# (10 to 20 minutes per W) and does not depend on ShRT: an
# OUT_DIR/pytorch_w<W>.jsonl with a line for every op is kept, not re-run
# (delete it to re-run).
# Usage: tools/bench/vs_pytorch.sh OUT_DIR [W...]
source "$(dirname "$0")/lib.sh"
out="$1"; shift
(( $# )) || set -- 2 4
mkdir -p "$out"
mapfile -t ops < <(grep -v '^#' tools/bench/vs_pytorch_ops.txt | grep .)
for w in "$@"; do
  if [[ -f "$out/pytorch_w$w.jsonl" ]] && (( $(wc -l < "$out/pytorch_w$w.jsonl") == ${#ops[@]} )); then
    echo "vs_pytorch: keeping $out/pytorch_w$w.jsonl (PyTorch's validator at W = $w)" >&2
  else
    /usr/bin/python3 tools/bench/pytorch_validator.py "$w" float32 "${ops[@]}" \
      > "$out/pytorch_w$w.jsonl" 2> "$out/pytorch_w$w.log"
  fi
  overloads="$(/usr/bin/python3 - "$out/pytorch_w$w.jsonl" <<'PY'
import json, sys
sys.path.insert(0, "tools/bench")
from vs_pytorch_table import spec_overloads
ran = {o for line in open(sys.argv[1]) for o in json.loads(line)["overloads"]}
print(",".join(sorted(ran & spec_overloads())))
PY
)"
  validate_timed --dtensor --op="$overloads" --world_size="$w" --quiet
  cp "$tmp/report.json" "$out/shrt_w$w.json"
  # ShRT's ground truth on every rule PyTorch's validator flags.
  /usr/bin/python3 tools/bench/vs_pytorch_table.py --claims "$out" "$w" > "$out/pytorch_rules_w$w.textproto"
  flagged="$(sed -n 's/^  name: "\(.*\)"$/\1/p' "$out/pytorch_rules_w$w.textproto" | paste -sd,)"
  if [[ -n "$flagged" ]]; then
    validate_timed --strategies="$out/pytorch_rules_w$w.textproto" --op="$flagged" \
      --world_size="$w" --quiet
    cp "$tmp/report.json" "$out/shrt_on_pytorch_w$w.json"
  fi
done
/usr/bin/python3 tools/bench/vs_pytorch_table.py "$out" "$@"
