#!/bin/bash
# Verdicts do not depend on how a run is scheduled (issue 13): the JSON
# report of one set of overloads, minus wall times, is identical across
# reruns and --jobs values (worker threads validate overloads in whatever
# order they finish; every draw is seeded by (seed, sample, generator,
# input, placement, redraw), never by a thread or by time). A different
# --seed must give different draws but may not change a rule's verdict on
# these overloads.
set -u
shrt="$1"
fail=0
# One or two overloads per family, with in-place and out= variants, several
# outputs, index inputs, integer and bool dtypes, and view sizes; and
# overloads that share a TORCH_WARN_ONCE (index_reduce's "in beta",
# chain_matmul's deprecation), whose reported warnings must not depend on
# which of them a worker ran first (shrt/engine/torch_runtime.h).
ops=aten::add.Tensor,aten::add_.Tensor,aten::mul.out,aten::div.Tensor,aten::mm,aten::addmm,\
aten::sum.dim_IntList,aten::max.dim,aten::argmax,aten::cumsum,aten::sort,aten::topk,\
aten::_softmax,aten::native_layer_norm,aten::index_select,aten::gather,aten::embedding,\
aten::cat,aten::split.Tensor,aten::view,aten::transpose.int,aten::where.self,\
aten::clamp,aten::eq.Tensor,aten::bitwise_and.Tensor,aten::lerp.Tensor,aten::abs,aten::_to_copy,\
aten::index_reduce,aten::index_reduce_,aten::index_reduce.out,aten::chain_matmul,aten::chain_matmul.out
run() {  # run NAME FLAGS...: the report without times, in $TEST_TMPDIR/NAME.json
  local name="$1"; shift
  "$shrt" validate --op="$ops" --format=json "$@" >"$TEST_TMPDIR/$name.raw" 2>"$TEST_TMPDIR/$name.err"
  local status=$?
  if [[ "$status" != 0 ]]; then
    echo "FAIL: $name: exit $status"; cat "$TEST_TMPDIR/$name.err"; fail=1; return
  fi
  /usr/bin/python3 - "$TEST_TMPDIR/$name.raw" "$TEST_TMPDIR/$name.json" "${VERDICTS_ONLY:-}" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r.pop("seconds", None)
for op in r["ops"]:
    op.pop("seconds", None)
    op.pop("operator_seconds", None)  # wall time, as seconds
    if sys.argv[3]:  # keep rule names only: evidence names the draws
        for k in ("incorrect", "missing", "unverified"):
            op[k] = sorted(v["rule"] if isinstance(v, dict) else v for v in op.get(k, []))
        for k in list(op):
            if k not in ("op", "correct", "incorrect", "missing", "unverified"):
                op.pop(k)
r["ops"].sort(key=lambda o: o["op"])
json.dump(r, open(sys.argv[2], "w"), indent=1, sort_keys=True)
PY
}
same() {  # same A B
  if cmp -s "$TEST_TMPDIR/$1.json" "$TEST_TMPDIR/$2.json"; then
    echo "ok: $1 == $2"
  else
    echo "FAIL: $1 and $2 differ:"; diff "$TEST_TMPDIR/$1.json" "$TEST_TMPDIR/$2.json" | head -20
    fail=1
  fi
}
run jobs1 --jobs=1
run jobs2 --jobs=2
run jobs2_again --jobs=2
run jobs8 --jobs=8
same jobs1 jobs2
same jobs2 jobs2_again
same jobs1 jobs8
n=$(/usr/bin/python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["ops"]))' "$TEST_TMPDIR/jobs1.json")
[[ "$n" -ge 28 ]] || { echo "FAIL: only $n overloads validated"; fail=1; }
VERDICTS_ONLY=1 run seed0 --jobs=2
VERDICTS_ONLY=1 run seed7 --jobs=2 --seed=7
same seed0 seed7
exit $fail
