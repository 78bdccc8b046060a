"""The tables of tools/bench/vs_pytorch.sh: ShRT and PyTorch's own strategy
validator on the same operators, world sizes, dtype and machine.

Usage: vs_pytorch_table.py OUT_DIR W...
       vs_pytorch_table.py --claims OUT_DIR W

The second form prints a ShRT strategy table (shrt/strategies/table.proto) claiming
every rule PyTorch's validator flags at W (incorrect or missing), for
`shrt validate --strategies`: ShRT's ground truth on each of them, with
evidence, is then OUT_DIR/shrt_on_pytorch_w<W>.json.

Reads, for each W, OUT_DIR/pytorch_w<W>.jsonl (tools/bench/
pytorch_validator.py) and OUT_DIR/shrt_w<W>.json (`shrt validate --dtensor
--format=json`), and prints Markdown:

- speed, one row per OpInfo: PyTorch's combinations (its
  total_combinations: input placement tuples times output placements, per
  sample), seconds and combinations per second; ShRT's combination checks
  (generator x input tuple x output tuple verdicts, report.proto) over the
  overloads the OpInfo ran, its seconds (ground truth and judging, plus the
  time DTensor took to answer for those samples) and checks per second;
  the ratio of the two rates. Totals over every row both tools ran.
- verdicts, one row per (overload, rule) the two tools do not agree on:
  incorrect or missing in one and not the other, with ShRT's ground truth
  on PyTorch's rule (from shrt_on_pytorch_w<W>.json: correct, incorrect
  with its evidence, unverified, or not applicable to ShRT's samples) and
  the sample PyTorch flagged it on. Rules are compared as text
  ("S(0), R -> S(0)"); PyTorch's are normalized per sample (a Shard of a
  size-1 dim is written R), ShRT's are not.
"""
import ast
import collections
import json
import sys


def load_pytorch(out, w):
    with open("%s/pytorch_w%s.jsonl" % (out, w)) as f:
        return [json.loads(line) for line in f if line.strip()]


def load_shrt(path):
    """{overload: its report}, and "" -> the whole run's wall seconds."""
    try:
        with open(path) as f:
            report = json.load(f)
    except FileNotFoundError:
        return {}
    ops = {o["op"]: o for o in report["ops"]}
    ops[""] = {"seconds": report["seconds"]}
    return ops


def load(out, w):
    return load_pytorch(out, w), load_shrt("%s/shrt_w%s.json" % (out, w))


def flagged(pytorch):
    """{overload: [rule]} of every rule PyTorch's validator flags."""
    out = collections.defaultdict(list)
    for e in pytorch:
        for r in e["incorrect"] + e["missing"]:
            if r["rule"] not in out[r["overload"]]:
                out[r["overload"]].append(r["rule"])
    return out


def claims_table(pytorch, specs):
    """shrt/strategies/table.proto text claiming `flagged` rules of overloads in specs."""
    lines = ["# proto-file: shrt/strategies/table.proto", "# proto-message: shrt.StrategyTable",
             "# Every rule PyTorch's strategy_validation flags (vs_pytorch.sh)."]
    for overload, rules in sorted(flagged(pytorch).items()):
        if overload not in specs:
            continue
        lines.append('op {\n  name: "%s"' % overload)
        lines += ['  rule { placements: "%s" }' % r for r in rules]
        lines.append("}")
    return "\n".join(lines) + "\n"


def ground_truth(on_pytorch, overload, rule):
    """ShRT's verdict on a rule it was made to claim, with evidence."""
    o = on_pytorch.get(overload)
    if o is None:
        return "not run"
    for kind in ("incorrect", "unverified"):
        for r in o.get(kind, []):
            if (r["rule"] if isinstance(r, dict) else r) == rule:
                ev = r.get("evidence", "") if isinstance(r, dict) else ""
                return "%s: %s" % (kind, ev[:160]) if ev else kind
    if rule in rules_of(o, "correct"):
        return "correct"
    return "not judged"


def rules_of(op, field):
    return {r["rule"] if isinstance(r, dict) else r for r in op.get(field, [])}


def speed(pytorch, shrt, w):
    print("| W | OpInfo | overloads | PyTorch combinations | s | /s | ShRT checks | s | /s | ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    tot = collections.Counter()
    for e in pytorch:
        ran = [o for o in e["overloads"] if o in shrt and shrt[o]["combination_checks"]]
        if e["error"] or not e["combinations"] or not ran:
            decomposed = [o for o in e["overloads"] if "decomposition" in shrt.get(o, {}).get("error", "")]
            why = (("PyTorch: " + e["error"]) if e["error"] else
                   "PyTorch: no sample validated" if not e["combinations"] else
                   "ShRT: DTensor shards it through its decomposition, not asked (DTENSOR.md)"
                   if decomposed else "ShRT: no spec for %s" % ", ".join(e["overloads"]))
            print("| %s | %s | %s | %s |  |  |  |  |  |  |" % (
                w, e["opinfo"], ", ".join(e["overloads"]) or "-", why))
            continue
        checks = sum(int(shrt[o]["combination_checks"]) for o in ran)
        secs = sum(shrt[o]["seconds"] for o in ran)
        p_rate, s_rate = e["combinations"] / e["seconds"], checks / secs
        tot.update(pc=e["combinations"], ps=e["seconds"], sc=checks, ss=secs)
        print("| %s | %s | %s | %d | %.2f | %.0f | %d | %.2f | %.0f | %.0fx |" % (
            w, e["opinfo"], ", ".join(ran), e["combinations"], e["seconds"], p_rate,
            checks, secs, s_rate, s_rate / p_rate))
    if tot["ps"] and tot["ss"]:
        # ShRT's total is its whole run's wall time (start-up, metadata,
        # DTensor asked in two processes at once, validation): per-overload
        # times double-count the two asking processes' overlap.
        wall = shrt[""]["seconds"]
        p_rate, s_rate = tot["pc"] / tot["ps"], tot["sc"] / wall
        print("| %s | **total** | | %d | %.1f | %.0f | %d | %.1f (run) | %.0f | **%.0fx** |" % (
            w, tot["pc"], tot["ps"], p_rate, tot["sc"], wall, s_rate, s_rate / p_rate))
    print()


def verdicts(pytorch, shrt, on_pytorch, w):
    """(overload, rule) pairs one tool flags and the other does not."""
    rows = []
    counts = collections.Counter()
    for e in pytorch:
        for overload in e["overloads"]:
            if e["error"] or overload not in shrt or not shrt[overload]["combination_checks"]:
                continue
            s = shrt[overload]
            for kind in ("incorrect", "missing"):
                p = {r["rule"]: r["sample"] for r in e[kind] if r["overload"] == overload}
                mine = rules_of(s, kind)
                counts[kind + " both"] += len(set(p) & mine)
                for rule in sorted(set(p) - mine):
                    counts[kind + " PyTorch only"] += 1
                    other = ("correct" if rule in rules_of(s, "correct") else
                             "incorrect" if rule in rules_of(s, "incorrect") else
                             "missing" if rule in rules_of(s, "missing") else "not claimed")
                    rows.append((overload, rule, kind + " (%s)" % p[rule], other,
                                 ground_truth(on_pytorch, overload, rule)))
                for rule in sorted(mine - set(p)):
                    counts[kind + " ShRT only"] += 1
                    rows.append((overload, rule, "-", kind, ""))
    print("W = %s: %s" % (w, ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    print()
    print("| W | overload | rule | PyTorch (its sample) | ShRT --dtensor | ShRT's ground truth on the rule |")
    print("|---|---|---|---|---|---|")
    for overload, rule, p, s, g in rows:
        print("| %s | %s | `%s` | %s | %s | %s |" % (w, overload, rule, p, s, g.replace("|", "/")))
    print()


def spec_overloads():
    """The overloads ShRT has a spec for (op_specs/groups.bzl, its one list)."""
    text = open("op_specs/groups.bzl").read()
    groups = ast.literal_eval(text[text.index("{"):])
    return {o for g in groups.values() for o in g["overloads"]}


def main(argv):
    if len(argv) == 4 and argv[1] == "--claims":
        sys.stdout.write(claims_table(load_pytorch(argv[2], argv[3]), spec_overloads()))
        return 0
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    for w in argv[2:]:
        pytorch, shrt = load(argv[1], w)
        speed(pytorch, shrt, w)
    for w in argv[2:]:
        pytorch, shrt = load(argv[1], w)
        on_pytorch = load_shrt("%s/shrt_on_pytorch_w%s.json" % (argv[1], w))
        verdicts(pytorch, shrt, on_pytorch, w)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
