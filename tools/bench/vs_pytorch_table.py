"""The tables of tools/bench/vs_pytorch.sh: ShRT and PyTorch's own strategy
validator on the same operators, world sizes, dtype and machine.

Usage: vs_pytorch_table.py OUT_DIR W...

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
  incorrect or missing in one and not the other. Rules are compared as
  text ("S(0), R -> S(0)"); PyTorch's are normalized per sample (a Shard
  of a size-1 dim is written R), ShRT's are not.
"""
import collections
import json
import sys


def load(out, w):
    with open("%s/pytorch_w%s.jsonl" % (out, w)) as f:
        pytorch = [json.loads(line) for line in f if line.strip()]
    with open("%s/shrt_w%s.json" % (out, w)) as f:
        shrt = {o["op"]: o for o in json.load(f)["ops"]}
    return pytorch, shrt


def rules_of(op, field):
    return {r["rule"] if isinstance(r, dict) else r for r in op.get(field, [])}


def speed(pytorch, shrt, w):
    print("| W | OpInfo | overloads | PyTorch combinations | s | /s | ShRT checks | s | /s | ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    tot = collections.Counter()
    for e in pytorch:
        ran = [o for o in e["overloads"] if o in shrt]
        if e["error"] or not e["combinations"] or not ran:
            why = e["error"] or ("no sample validated" if not e["combinations"]
                                 else "no ShRT spec for %s" % ", ".join(e["overloads"]))
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
        p_rate, s_rate = tot["pc"] / tot["ps"], tot["sc"] / tot["ss"]
        print("| %s | **total** | | %d | %.1f | %.0f | %d | %.1f | %.0f | **%.0fx** |" % (
            w, tot["pc"], tot["ps"], p_rate, tot["sc"], tot["ss"], s_rate, s_rate / p_rate))
    print()


def verdicts(pytorch, shrt, w):
    """(overload, rule) pairs one tool flags and the other does not."""
    rows = []
    counts = collections.Counter()
    for e in pytorch:
        for overload in e["overloads"]:
            if e["error"] or overload not in shrt:
                continue
            s = shrt[overload]
            for kind in ("incorrect", "missing"):
                p = {r["rule"] for r in e[kind] if r["overload"] == overload}
                mine = rules_of(s, kind)
                counts[kind + " both"] += len(p & mine)
                for rule in sorted(p - mine):
                    counts[kind + " PyTorch only"] += 1
                    other = ("correct" if rule in rules_of(s, "correct") else
                             "incorrect" if rule in rules_of(s, "incorrect") else
                             "missing" if rule in rules_of(s, "missing") else "not found")
                    rows.append((overload, rule, kind, other))
                for rule in sorted(mine - p):
                    counts[kind + " ShRT only"] += 1
                    rows.append((overload, rule, "-", kind))
    print("W = %s: %s" % (w, ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    print()
    print("| W | overload | rule | PyTorch | ShRT |")
    print("|---|---|---|---|---|")
    for overload, rule, p, s in rows:
        print("| %s | %s | `%s` | %s | %s |" % (w, overload, rule, p, s))
    print()


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    for w in argv[2:]:
        pytorch, shrt = load(argv[1], w)
        speed(pytorch, shrt, w)
    for w in argv[2:]:
        pytorch, shrt = load(argv[1], w)
        verdicts(pytorch, shrt, w)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
