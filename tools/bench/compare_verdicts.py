"""Compares two `shrt validate --all --format=json` reports verdict by verdict.

Usage: compare_verdicts.py BEFORE.json AFTER.json

For every overload in either report, compares each rule's verdict
(correct, incorrect, missing, unverified; shrt/report/report.proto) and the error.
A *change* is a rule whose verdict differs, a rule judged only in the first
report, an overload in the first report only, or a different error; a rule
judged only in the second report (e.g. an overload that now runs more
samples) is *newly judged*, and an overload only in the second report is
*new* (more coverage). Prints one line per change or newly judged rule and a
summary; exits 1 if anything changed, else 0. Times and evidence texts are
not compared.
"""
import json
import sys

_VERDICTS = ("correct", "incorrect", "missing", "unverified")


def _rule(entry):
    if isinstance(entry, str):
        return entry
    return entry["rule"]


def verdicts(path):
    """{overload: ({rule: verdict}, error)} of one report."""
    with open(path) as f:
        report = json.load(f)
    out = {}
    for op in report["ops"]:
        rules = {_rule(e): k for k in _VERDICTS for e in op[k]}
        out[op["op"]] = (rules, op["error"])
    return out


def compare(before, after):
    """(changes, newly judged), as lines of text."""
    changes, newly = [], []
    for op in sorted(before.keys() | after.keys()):
        if op not in after:
            changes.append(f"{op}: only in the first report")
            continue
        if op not in before:
            newly.append(f"{op}: new overload, {len(after[op][0])} rules judged")
            continue
        (b, b_error), (a, a_error) = before[op], after[op]
        for rule in sorted(b.keys() | a.keys()):
            if rule not in a:
                changes.append(f"{op}: '{rule}' was {b[rule]}, now not judged")
            elif rule not in b:
                newly.append(f"{op}: '{rule}' newly judged {a[rule]}")
            elif a[rule] != b[rule]:
                changes.append(f"{op}: '{rule}' was {b[rule]}, now {a[rule]}")
        if b_error != a_error:
            changes.append(f"{op}: error {b_error!r} -> {a_error!r}")
    return changes, newly


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    before, after = verdicts(argv[0]), verdicts(argv[1])
    changes, newly = compare(before, after)
    for line in changes + newly:
        print(line)
    same = len(before.keys() & after.keys())
    by_verdict = {}
    for line in newly:
        if "newly judged" in line:
            v = line.rsplit(" ", 1)[1]
            by_verdict[v] = by_verdict.get(v, 0) + 1
    print(f"{len(before)} and {len(after)} overloads, {same} in both, "
          f"{len(after.keys() - before.keys())} new; {len(changes)} changes; "
          f"{sum(by_verdict.values())} rules of common overloads newly judged {by_verdict or ''}")
    return 1 if changes else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
