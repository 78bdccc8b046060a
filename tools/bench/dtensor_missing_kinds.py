"""DTENSOR.md's table of missing rules: the missing rules of a `shrt
validate --dtensor --all --format=json` report counted by kind, each rule
in the first kind it matches, and the correct rules some samples refused
(the report's `unclaimed`: DTensor's shardability filter, e.g.
is_tensor_shardable refusing a dim smaller than the mesh), which are not
missing (shrt/engine/verdicts.h).

Usage: python3 tools/bench/dtensor_missing_kinds.py REPORT.json
Prints the table as Markdown rows.
"""
import json
import sys

# (kind, test on the rule text), in table order.
KINDS = [
    ("`P(max)`/`P(min)` passed through monotonic ops (`relu`, `exp`, `clamp`, "
     "`floor`, ...) and reductions", lambda r: "P(max)" in r or "P(min)" in r),
    ("`P(avg)` where `P(sum)` is claimed (linear ops)", lambda r: "P(avg)" in r),
    ("`P(product)` (multiplicative ops: `mul`, `prod`, ...)", lambda r: "P(product)" in r),
    ("Shard and Replicate only, e.g. size-1 dims, `new_*` outputs sharded",
     lambda r: "P(" not in r),
    ("`P(sum)`, e.g. `mm` with a size-1 inner dim", lambda r: True),
]


def rule_text(entry):
    return entry if isinstance(entry, str) else entry["rule"]


def main(path):
    with open(path) as f:
        report = json.load(f)
    rules = [0] * len(KINDS)
    overloads = [set() for _ in KINDS]
    unclaimed_rules, unclaimed_overloads = 0, set()
    for op in report["ops"]:
        for entry in op.get("missing", []):
            text = rule_text(entry)
            k = next(i for i, (_, test) in enumerate(KINDS) if test(text))
            rules[k] += 1
            overloads[k].add(op["op"])
        if op.get("unclaimed"):
            unclaimed_rules += len(op["unclaimed"])
            unclaimed_overloads.add(op["op"])
    print("| kind | missing rules | overloads |")
    print("|---|---|---|")
    for (kind, _), n, ops in zip(KINDS, rules, overloads):
        print("| %s | %s | %s |" % (kind, format(n, ","), format(len(ops), ",")))
    print("| *not missing:* correct where claimed, refused on some samples by DTensor's "
          "filters (`unclaimed`) | %s | %s |"
          % (format(unclaimed_rules, ","), format(len(unclaimed_overloads), ",")))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    main(sys.argv[1])
