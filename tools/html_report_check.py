#!/usr/bin/env python3
"""Checks a rendered HTML report against the JSON report of the same run.

Usage: html_report_check.py DOM.html REPORT.json

DOM.html is the page after its script ran (chromium --dump-dom of the file
`shrt validate --html` wrote); REPORT.json is what --format=json printed.
Checks that the page shows the same overloads, the same counts per verdict
(per overload, in the overload table and in each overload's section, and
the totals), every rule in its overload's placement matrix with its
verdict, each incorrect rule's cell marked incorrect with its evidence
present, each overload's repro command, and nothing loaded from outside.
Prints every mismatch and exits 1 if there is any, else prints a summary
and exits 0. Standard library only.
"""

import collections
import html.parser
import json
import sys

VERDICTS = ("correct", "incorrect", "missing", "unverified")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class Element:
    def __init__(self, tag, attrs, parent):
        self.tag = tag
        self.attrs = dict(attrs)
        self.parent = parent
        self.parts = []

    def inside(self, other):
        e = self.parent
        while e is not None and e is not other:
            e = e.parent
        return e is other

    def text(self):
        return " ".join("".join(self.parts).split())

    def classes(self):
        return (self.attrs.get("class") or "").split()


class Dom(html.parser.HTMLParser):
    """Every element, in document order, with the text it contains."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements = []
        self.stack = []

    def handle_starttag(self, tag, attrs):
        e = Element(tag, attrs, self.stack[-1] if self.stack else None)
        self.elements.append(e)
        if tag not in VOID:
            self.stack.append(e)

    def handle_startendtag(self, tag, attrs):
        self.elements.append(Element(tag, attrs, self.stack[-1] if self.stack else None))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        for e in self.stack:
            e.parts.append(data)

    def find(self, tag=None, cls=None, **attrs):
        out = []
        for e in self.elements:
            if tag and e.tag != tag:
                continue
            if cls and cls not in e.classes():
                continue
            if all(e.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items()):
                out.append(e)
        return out


def rule_text(value):
    return value if isinstance(value, str) else value.get("rule", "")


def norm(text):
    return " ".join(text.split())


def check(dom, report):
    errors = []

    def expect(cond, message):
        if not cond:
            errors.append(message)

    body = dom.find("body")
    expect(body and body[0].attrs.get("data-rendered") == "true",
           "the page's script did not finish (body data-rendered is not 'true')")
    for e in dom.find(id="render-error"):
        expect(not e.text(), "render error shown: " + e.text())
    for e in dom.elements:
        for attr in ("src", "href"):
            value = e.attrs.get(attr) or ""
            expect(not value or value.startswith("#"),
                   "%s %s=%r loads something from outside" % (e.tag, attr, value))
        expect(e.tag != "link", "a <link> element")

    ops = report["ops"]
    names = [op["op"] for op in ops]

    # Totals.
    totals = {k: sum(len(op[k]) for op in ops) for k in VERDICTS}
    totals["overloads"] = len(ops)
    totals["combination_checks"] = sum(op["combination_checks"] for op in ops)
    for key, want in totals.items():
        shown = [e.text() for e in dom.find("dd", data_total=key)]
        expect(shown == [str(want)], "total %s: page shows %s, JSON has %d" % (key, shown, want))
    totals["matrices"] = 0  # drawn on the page
    if report.get("mesh"):
        expect(dom.find("dd", data_mesh=report["mesh"]), "mesh %s not shown" % report["mesh"])
    else:
        expect(dom.find("dd", data_world_size=str(report["world_size"])),
               "world size %d not shown" % report["world_size"])

    # The overload table and the sections: the same overloads.
    rows = dom.find("tr", cls="op-row")
    sections = dom.find("section", cls="op")
    for what, found in (("table rows", rows), ("sections", sections)):
        got = collections.Counter(e.attrs.get("data-op") for e in found)
        expect(got == collections.Counter(names),
               "%s name overloads %s, JSON has %s" % (what, sorted(got), sorted(names)))
    if rows and ops:
        first_bad = next((i for i, r in enumerate(rows) if r.attrs.get("data-verdict") != "incorrect"),
                         len(rows))
        with_incorrect = sum(1 for op in ops if op["incorrect"])
        expect(first_bad == with_incorrect,
               "overloads with incorrect rules are not listed first in the table")

    # Per overload: counts in its row and section, matrix cells, evidence, repro.
    for op in ops:
        name = op["op"]
        row = [r for r in rows if r.attrs.get("data-op") == name]
        section = [s for s in sections if s.attrs.get("data-op") == name]
        section_elements = [e for e in dom.elements if section and e.inside(section[0])]
        for k in VERDICTS:
            want = str(len(op[k]))
            if row:
                cells = [c for c in dom.elements if c.tag == "td" and c.attrs.get("data-count") == k
                         and c.inside(row[0])]
                expect([c.text() for c in cells] == [want],
                       "%s: table %s shows %s, JSON has %s" % (name, k, [c.text() for c in cells], want))
            shown = [e.text() for e in section_elements if e.attrs.get("data-count") == k]
            expect(shown == [want], "%s: section %s shows %s, JSON has %s" % (name, k, shown, want))
        verdict = row[0].attrs.get("data-verdict") if row else None
        expect((verdict == "incorrect") == bool(op["incorrect"]),
               "%s: table verdict %r, JSON has %d incorrect rules" % (name, verdict,
                                                                     len(op["incorrect"])))

        if op.get("repro"):
            shown = [e.text() for e in section_elements if "data-repro" in e.attrs]
            expect(norm(op["repro"]) in shown, "%s: repro command not on the page" % name)
        # A matrix is drawn when its section opens; those with an incorrect
        # rule open at once.
        drawn = any(e.tag == "table" and "matrix" in e.attrs.get("class", "").split()
                    for e in section_elements)
        expect(drawn or not op["incorrect"], "%s: the matrix of an incorrect overload is not drawn"
               % name)
        totals["matrices"] += drawn
        if not drawn:
            continue
        cells = {}
        for td in section_elements:
            if td.tag == "td" and "data-cell" in td.attrs:
                expect(td.attrs.get("data-op") == name, "%s: a cell of %s in its section"
                       % (name, td.attrs.get("data-op")))
                cells[td.attrs.get("data-rule")] = td
        in_cells = collections.Counter()
        for td in cells.values():
            in_cells.update((td.attrs.get("data-verdicts") or "").split())
        for k in VERDICTS:
            expect(in_cells[k] == len(op[k]),
                   "%s: the matrix holds %d %s rules, JSON has %d" % (name, in_cells[k], k, len(op[k])))
            for value in op[k]:
                rule = rule_text(value)
                td = cells.get(rule)
                expect(td is not None and k in (td.attrs.get("data-verdicts") or "").split(),
                       "%s: no %s cell for rule %r" % (name, k, rule))
        for wrong in op["incorrect"]:
            td = cells.get(wrong["rule"])
            expect(td is not None and td.attrs.get("data-cell") == "incorrect",
                   "%s: the cell of incorrect rule %r is not marked incorrect" % (name, wrong["rule"]))
            expect(td is not None and norm(wrong["evidence"]) in norm(td.attrs.get("title", "")),
                   "%s: the cell of %r does not carry its evidence" % (name, wrong["rule"]))
            shown = [e.text() for e in section_elements
                     if "data-evidence" in e.attrs and e.attrs.get("data-rule") == wrong["rule"]]
            expect(norm(wrong["evidence"]) in shown,
                   "%s: evidence of %r not on the page: %r" % (name, wrong["rule"], wrong["evidence"]))
    return errors, totals


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        dom = Dom()
        dom.feed(f.read())
        dom.close()
    with open(argv[2], encoding="utf-8") as f:
        report = json.load(f)
    errors, totals = check(dom, report)
    for e in errors:
        print("MISMATCH: " + e)
    if errors:
        print("FAIL: %d mismatches between the page and the JSON report" % len(errors))
        return 1
    print("OK: %d overloads (%d matrices drawn); correct %d, incorrect %d, missing %d, unverified %d"
          % (totals["overloads"], totals["matrices"], totals["correct"], totals["incorrect"],
             totals["missing"], totals["unverified"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
