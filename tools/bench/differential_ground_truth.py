"""The Python ground truth of one expanded sample, for
tools/bench/differential.py (DESIGN.md section 3; shrt/engine/ground_truth.cc):
each case's full inputs from the export, every input placement tuple not
yet dead run once per rank (its own Partial draws, more redraws for tiny
Partial inputs, the negated P(max)/P(min) variant, per-placement calls for
a local_shape_arg), each output judged by differential_output_check.py,
and the sample's valid rules.
"""

import itertools

import torch

from differential_export import DTYPES, call, with_layout
from differential_output_check import REFINEMENTS, OutputJudge, Variant, least_precise
from reference_distribute import chunk_of, distribute, finite_max_abs
from reference_generators import mix_seed
from reference_ground_truth import SampleTruth, informative
from reference_output_check import PRECISIONS
from reference_placements import (as_float64, candidate_placements, is_all_replicate,
                                  is_degenerate, is_extreme, is_inexact, rule_text)

MIN_PARTIAL_DRAWS = 12  # shrt/engine/cases.h kMinPartialDraws
REDRAWS = 3
# Salt of the Python side's Partial draws: independent of the C++'s seeds.
DRAW_SALT = 0x5EED_D1FF


# ---------------------------------------------------------------------------
# Ground truth of one expanded sample.

class SampleError(Exception):
    pass


def call_inputs(ex, sample, ts):
    """ground_truth.cc CallInputs: fresh copies for an overload that writes its inputs."""
    if not ex.mutates:
        return ts
    out = []
    for t, inp in zip(ts, sample["inputs"]):
        out.append(t.clone() if inp["layout"] == "contiguous" else with_layout(t, inp["layout"]))
    return out


def input_candidates(inp):
    dtype = DTYPES[inp["dtype"]]
    cands = candidate_placements(len(inp["shape"]), dtype)
    if inp["index_only"]:  # ground_truth.cc IndexOnly: an index part is not an index
        cands = [p for p in cands if p[0] != "P"]
    return cands


def in_place_change(ins, outs, aliases):
    for k, i in enumerate(aliases):
        if k < len(outs) and i >= 0 and outs[k] != ins[i]:
            return True
    return False


def evaluate_sample(ex, sample, w, redraws=REDRAWS):
    """The valid rules of one expanded sample at world size w (a set of rule
    texts), or None when the variant rejects the full inputs (the C++ then
    reports no truth for the sample)."""
    inputs = sample["inputs"]
    layouts = [i["layout"] for i in inputs]
    in_cands = [input_candidates(i) for i in inputs]
    truth = None
    for case in sample["cases"]:
        full = ex.full_inputs(sample, case)
        try:
            expected = call(ex, sample, call_inputs(ex, sample, full))
        except Exception as e:  # noqa: BLE001
            if case["special"]:
                continue  # special values outside the operator's domain
            if ex.is_variant:
                return None
            raise SampleError("the operator rejects the full inputs (generator %s): %s"
                              % ("/".join(case["generators"]), str(e).split("\n")[0]))
        if truth is None:
            truth = SampleTruth(in_cands,
                                [candidate_placements(t.dim(), t.dtype) for t in expected])
        elif len(expected) != len(truth.out_cands):
            raise SampleError("the number of outputs differs between generators")
        comp = least_precise([t.dtype for t in full] + [t.dtype for t in expected])
        tols = []
        for t in expected:
            if ex.tolerance is not None:
                tols.append((ex.tolerance["rtol"], ex.tolerance["atol"]))
            elif is_inexact(t.dtype):
                tols.append(PRECISIONS.get(comp if REFINEMENTS["a"] else t.dtype, (0.0, 0.0)))
            else:
                tols.append((0.0, 0.0))
        # A case of special values checks R and S outputs for their shapes
        # only and is never informative (shrt/engine/full_case.h).
        is_informative = informative(expected) and not case["special"]
        base = Variant(ex, sample, full, expected)
        negated = {}
        cache = {}
        for t, placements in enumerate(truth.in_tuples):
            if truth.dead(t):
                continue
            run_tuple(ex, sample, truth, t, placements, full, base, negated, cache, w,
                      redraws, case["seed"], layouts, comp, tols, case["special"])
            if is_informative:
                truth.informative[t] += 1
    if truth is None:
        raise SampleError("the sample produced no case")
    valid = set()
    out_tuples = list(itertools.product(*[list(enumerate(c)) for c in truth.out_cands]))
    for t, ins in enumerate(truth.in_tuples):
        if truth.informative[t] == 0:
            continue
        fails = truth.failure[t]
        for o in out_tuples:
            if any(fails[k][c] is not None for k, (c, _) in enumerate(o)):
                continue
            outs = [p for _, p in o]
            if is_degenerate(ins, outs) or is_all_replicate(ins, outs):
                continue
            if in_place_change(ins, outs, ex.aliases):
                continue
            valid.add(rule_text(ins, outs))
    return valid


def make_locals(x, p, w, layout, seed):
    """Rank locals of full input x (in its layout) under p; the largest
    finite |part| of a Partial placement."""
    if p[0] == "R":
        return [x] * w, 0.0
    if p[0] == "S":
        d, n = p[1], x.shape[p[1]]
        out = []
        for r in range(w):
            b, e = chunk_of(n, w, r)
            out.append(with_layout(x.narrow(d, b, e - b).clone(memory_format=torch.contiguous_format),
                                   layout))
        return out, 0.0
    parts, stacked = distribute(x.contiguous(), p, w, seed)
    scale = finite_max_abs(as_float64(stacked)) if x.numel() else 0.0
    return [with_layout(t, layout) for t in parts], scale


def run_tuple(ex, sample, truth, t, placements, full, base, negated, cache, w, redraws, case_seed,
              layouts, comp, tols, special):
    partial_any = any(p[0] == "P" for p in placements)
    mask = tuple(is_extreme(p) and x.dtype not in (torch.bool, torch.uint8)
                 for p, x in zip(placements, full))
    # shrt/engine/cases.h PartialVariants: tiny Partial inputs get at least
    # MIN_PARTIAL_DRAWS element draws in all.
    most = max([max(x.numel(), 1) for p, x in zip(placements, full) if p[0] == "P"], default=1)
    n_redraws = redraws if not partial_any else (
        max(redraws, -(-MIN_PARTIAL_DRAWS // most)) if most < MIN_PARTIAL_DRAWS else redraws)
    variants = n_redraws + (1 if any(mask) else 0)
    n_out = len(truth.out_cands)
    for v in range(variants):
        neg = v >= n_redraws
        variant = base
        if neg:
            if mask not in negated:
                ins = [with_layout(torch.neg(x), lay) if m else x
                       for x, m, lay in zip(full, mask, layouts)]
                try:
                    negated[mask] = Variant(ex, sample, ins,
                                            call(ex, sample, call_inputs(ex, sample, ins)))
                except Exception:  # noqa: BLE001  (rejects negated values: no such variant)
                    negated[mask] = None
            variant = negated[mask]
            if variant is None:
                continue
        locals_ = [[None] * len(placements) for _ in range(w)]
        input_scale = 0.0
        full_input_scale = 0.0
        for i, p in enumerate(placements):
            c = truth.in_indices[t][i]
            if p[0] == "P":
                full_input_scale = max(full_input_scale, finite_max_abs(variant.inputs[i]))
            redraw = (redraws if neg else v) if p[0] == "P" else 0
            key = (i, c, redraw, neg and mask[i])
            if key not in cache:
                seed = mix_seed(DRAW_SALT, case_seed, i, c, redraw)
                cache[key] = make_locals(variant.inputs[i], p, w, layouts[i], seed)
            parts, scale = cache[key]
            input_scale = max(input_scale, scale)
            for r in range(w):
                x = parts[r]
                if ex.mutates:
                    x = (x.clone(memory_format=torch.contiguous_format)
                         if layouts[i] == "contiguous" else with_layout(x, layouts[i]))
                locals_[r][i] = x
        want = variant.outputs
        if ex.local_shape_arg >= 0:
            run_local_shape(ex, sample, truth, t, locals_, want, variant, w, comp, tols,
                            input_scale, full_input_scale, special)
            continue
        outs = [[None] * w for _ in range(n_out)]
        for r in range(w):
            try:
                got = call(ex, sample, locals_[r])
            except Exception as e:  # noqa: BLE001  refutes the tuple for every output placement
                truth.fail_all(t, ("raised", r, str(e).split("\n", 1)[0]))
                return
            if len(got) != n_out:
                truth.fail_all(t, ("outputs", r))
                return
            for k, i in enumerate(ex.aliases):
                if i >= 0 and got[k]._cdata != locals_[r][i]._cdata:
                    truth.fail_all(t, ("not in place", r))
                    return
            for k in range(n_out):
                outs[k][r] = got[k]
        for k in range(n_out):
            judge = OutputJudge(k, want[k], outs[k], variant, tols[k], comp, input_scale,
                                full_input_scale, special)
            for c, p in enumerate(truth.out_cands[k]):
                if truth.failure[t][k][c] is not None:
                    continue
                bad = judge.check(p)
                if bad is not None:
                    truth.fail(t, k, c, bad)


def run_local_shape(ex, sample, truth, t, locals_, want, variant, w, comp, tols, input_scale,
                    full_input_scale, special):
    """ground_truth.cc RunLocalShapeCalls: each output placement gets its own W
    calls, each rank with the shape of its part of the full output."""
    full_out = want[0]
    for c, p in enumerate(truth.out_cands[0]):
        if truth.failure[t][0][c] is not None:
            continue
        outs = []
        for r in range(w):
            shape = list(full_out.shape)
            if p[0] == "S":
                b, e = chunk_of(shape[p[1]], w, r)
                shape[p[1]] = e - b
            try:
                got = call(ex, sample, locals_[r], local_shape=shape)
            except Exception as e:  # noqa: BLE001
                truth.fail(t, 0, c, ("raised", r, str(e).split("\n", 1)[0]))
                outs = None
                break
            if len(got) != 1:
                truth.fail(t, 0, c, ("outputs", r))
                outs = None
                break
            outs.append(got[0])
        if outs is None:
            continue
        bad = OutputJudge(0, full_out, outs, variant, tols[0], comp, input_scale,
                          full_input_scale, special).check(p)
        if bad is not None:
            truth.fail(t, 0, c, bad)


def evaluate(ex, w):
    """{sample name: set of valid rules, or None (rejected by the variant)}."""
    out = {}
    for sample in ex.m["samples"]:
        out[sample["name"]] = evaluate_sample(ex, sample, w)
    return out
