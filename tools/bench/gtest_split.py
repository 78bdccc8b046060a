"""Where the generated tests' gtest time goes: 1-D samples against the mesh check.

Usage: gtest_split.py TESTLOGS_DIR   (e.g. bazel-testlogs after `bazel test //shrt/...`)

Reads the test.xml of every generated test (TESTLOGS_DIR/op_specs/aten_*/,
written by gtest; shrt/op_test/op_test.h names the cases) and sums, per target, the
validation seconds of its sample cases (the 1-D checks: every case that is not
`mesh_*`, `xfails`, `missing_rules` or `known_crashes`) and of its `mesh_*`
cases. A case's validation seconds are its test.xml property
`validation_seconds`: the wall time of the validations it reports, in the
worker that ran them. Its gtest time is not that: one worker runs every
validation of a test binary, so the case that asks first waits for all of
them. A test.xml written before the property existed has only gtest
times, and those are used. Prints the totals, the number of targets whose mesh check took
longer than their 1-D checks (issue 28's bound: the mesh check may cost no
more than the 1-D checks of its test), by how much together, and the ten
largest excesses. Cached results count with the times of the run that made
them.

Where the test.xml has them (op_test.cc ValidationCost), it also reads each
case's operator_calls and operator_seconds: the operator calls the
validations made and their wall time. For the targets over the bound it
prints how many more calls the mesh check made than the 1-D checks, and
how many of them spent longer in the mesh check's operator calls alone than
in their whole 1-D checks: no mesh engine that makes those calls can meet
the bound there. Over all targets, it names those whose mesh check's calls,
each at the 1-D checks' own seconds per call, would outlast the whole 1-D
checks: the same question without the two sides' differing call sizes and
timing noise (the first count varies between runs).
"""
import glob
import os
import sys
import xml.etree.ElementTree as ET

_BOOKKEEPING = {"xfails", "missing_rules", "known_crashes", "spec"}


def prop(case, name, default):
    """A testcase element's property `name` as a float, or `default`."""
    for p in case.iter("property"):
        if p.get("name") == name:
            return float(p.get("value"))
    return default


def seconds(case):
    """A testcase element's validation seconds (see above)."""
    return prop(case, "validation_seconds", float(case.get("time", "0")))


def cost_split(xml_path):
    """((seconds, operator calls, operator seconds) of the 1-D checks, the
    same of the mesh check) of one generated test's test.xml; calls and
    their seconds are 0 where the test.xml has none."""
    one_d, mesh = [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]
    for case in ET.parse(xml_path).getroot().iter("testcase"):
        name = case.get("name")
        if name in _BOOKKEEPING:
            continue
        side = mesh if name.startswith("mesh_") else one_d
        for k, value in enumerate((seconds(case), prop(case, "operator_calls", 0.0),
                                   prop(case, "operator_seconds", 0.0))):
            side[k] += value
    return one_d, mesh


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    paths = sorted(glob.glob(os.path.join(argv[1], "op_specs", "aten_*", "test.xml")))
    if not paths:
        sys.exit(f"no op_specs/aten_*/test.xml under {argv[1]}")
    costs = {os.path.basename(os.path.dirname(p)): cost_split(p) for p in paths}
    one_d = sum(d[0] for d, _ in costs.values())
    mesh = sum(m[0] for _, m in costs.values())
    over = sorted(((m[0] - d[0], t) for t, (d, m) in costs.items() if m[0] > d[0]), reverse=True)
    print(f"{len(costs)} generated tests: 1-D samples {one_d:.1f} s, mesh checks {mesh:.1f} s")
    print(f"mesh check longer than the 1-D checks in {len(over)} targets, "
          f"by {sum(o[0] for o in over):.1f} s together")
    for excess, target in over[:10]:
        print(f"  {target}: +{excess:.3f} s")
    over_costs = [costs[t] for _, t in over if costs[t][0][1] > 0]
    if over_costs:
        ratios = sorted(m[1] / d[1] for d, m in over_costs)
        floor_over = sum(1 for d, m in over_costs if m[2] > d[0])
        print(f"of those, with operator calls recorded ({len(over_costs)}): the mesh check made "
              f"{ratios[len(ratios) // 2]:.2f}x the 1-D checks' calls (median; "
              f"{ratios[0]:.2f}x to {ratios[-1]:.2f}x); in {floor_over} its calls alone took "
              f"longer than the whole 1-D checks")
    # The mesh check's calls at the 1-D checks' seconds per call.
    bound = sorted(((m[1] * d[2] / d[1] / d[0], t) for t, (d, m) in costs.items()
                    if d[1] > 0 and d[0] > 0 and m[1] * d[2] / d[1] > d[0]), reverse=True)
    print(f"in {len(bound)} targets the mesh check's calls, at the 1-D checks' own seconds per "
          f"call, would outlast the whole 1-D checks:")
    for ratio, target in bound:
        d, m = costs[target]
        print(f"  {target}: {ratio:.2f}x ({m[1]:.0f} mesh calls, {d[1]:.0f} 1-D calls, "
              f"1-D checks {d[0]:.3f} s)")


if __name__ == "__main__":
    main(sys.argv)
