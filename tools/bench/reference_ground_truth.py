"""The ground truth of the eager-PyTorch reference (tools/bench/reference.py):
for one sample, each generator's full inputs and full output, every input
placement tuple not yet dead run once per rank (Partial redraws, the
negated P(max)/P(min) variant), every output placement not yet refuted
checked, and the valid rules judged (`validate`). The reference.py
docstring lists this work step by step, as the C++ does it.
"""

import itertools
import math

import torch

from reference_distribute import distribute
import reference_generators
from reference_generators import DEFAULT_RECIPE, generate, mix_seed
from reference_output_check import PRECISIONS, OutputChecker
from reference_placements import (candidate_placements, is_all_replicate, is_degenerate,
                                  is_extreme, is_inexact, real_view, rule_text)

aten = torch.ops.aten


# ---------------------------------------------------------------------------
# Ground truth (shrt/engine/ground_truth.cc).

def call(op, inputs):
    out = op(*inputs)
    if isinstance(out, torch.Tensor):
        return [out]
    return [t for t in out]


def informative(outputs):
    """True when every output has an element that is finite and nonzero
    (shrt/engine/full_case.h Informative): an output of 0, inf and nan only
    lets R -> P(sum) hold, as x + x = x for each of them."""
    for t in outputs:
        if not bool((torch.isfinite(t) & t.ne(0)).any()):
            return False
    return True


class SampleTruth:
    """Which (input tuple, output, placement) some case refuted, and how many
    informative cases each input tuple had."""

    def __init__(self, in_cands, out_cands):
        self.in_cands = in_cands
        self.out_cands = out_cands
        self.in_tuples = list(itertools.product(*in_cands))
        # Candidate index of each slot, per tuple (the key of the locals cache).
        self.in_indices = list(itertools.product(*[range(len(c)) for c in in_cands]))
        self.out_tuples = math.prod(len(c) for c in out_cands)
        # failure[t][k][c]: evidence or None.
        self.failure = [[[None] * len(c) for c in out_cands] for _ in self.in_tuples]
        self.informative = [0] * len(self.in_tuples)

    def dead(self, t):
        return any(all(f is not None for f in per_out) for per_out in self.failure[t])

    def fail(self, t, k, c, evidence):
        if self.failure[t][k][c] is None:
            self.failure[t][k][c] = evidence

    def fail_all(self, t, evidence):
        for k, per_out in enumerate(self.failure[t]):
            for c in range(len(per_out)):
                if per_out[c] is None:
                    per_out[c] = evidence


class Sample:
    def __init__(self, name, op, shapes, dtypes=None, args=()):
        self.name = name
        self.op = op
        self.shapes = shapes
        self.dtypes = dtypes or [torch.float32] * len(shapes)
        self.args = tuple(args)  # non-tensor arguments after the tensors

    def call(self, tensors):
        return call(self.op, list(tensors) + list(self.args))


def run_tuple(sample, truth, t, placements, full, expected, label, case_seed, negated, cache, w,
              redraws):
    partial_any = any(p[0] == "P" for p in placements)
    mask = tuple(is_extreme(p) and x.dtype not in (torch.bool, torch.uint8)
                 for p, x in zip(placements, full))
    any_negated = any(mask)
    n_redraws = redraws if partial_any else 1
    variants = n_redraws + (1 if any_negated else 0)
    n_out = len(truth.out_cands)
    for v in range(variants):
        neg = v >= n_redraws
        variant = ("redraw %d" % (0 if neg else v)) if partial_any else ""
        inputs, want = full, expected
        if neg:
            variant = "negated inputs, " + variant
            negated_inputs = [aten.neg.default(x) if m else x for x, m in zip(full, mask)]
            if mask not in negated:
                try:
                    negated[mask] = sample.call(negated_inputs)
                except Exception:  # an op that rejects negated values: skip
                    negated[mask] = None
            if negated[mask] is None:
                continue
            inputs, want = negated_inputs, negated[mask]
        locals_ = [[None] * len(placements) for _ in range(w)]
        input_scale = 0.0
        for i, p in enumerate(placements):
            # Parts depend on (case, input, candidate, redraw), never on the
            # rest of the tuple, so they are built once per case and shared
            # (shrt/engine/ground_truth.cc LocalsCache); the ops here write no input.
            c = truth.in_indices[t][i]
            redraw = 0 if neg or p[0] != "P" else v  # R and S locals are never drawn
            key = (i, c, redraw, neg and mask[i])
            if key not in cache and p[0] == "R":  # read only: no copies (ground_truth.cc)
                cache[key] = ([inputs[i]] * w, 0.0)
            if key not in cache:
                parts, stacked = distribute(inputs[i], p, w, mix_seed(case_seed, c, redraw, i))
                scale = 0.0
                if p[0] == "P" and inputs[i].numel() > 0 and is_inexact(inputs[i].dtype):
                    scale = float(real_view(stacked).abs().max())  # over real views
                cache[key] = (parts, scale)
            parts, scale = cache[key]
            input_scale = max(input_scale, scale)
            for r in range(w):
                locals_[r][i] = parts[r]
        outs = [[None] * w for _ in range(n_out)]
        for r in range(w):
            try:
                got = sample.call(locals_[r])
            except Exception as e:  # refutes the tuple for every output placement
                truth.fail_all(t, (label, variant, -1, r, str(e).split("\n", 1)[0]))
                return
            if len(got) != n_out:
                truth.fail_all(t, (label, variant, -1, r, "returned %d outputs" % len(got)))
                return
            for k in range(n_out):
                outs[k][r] = got[k]
        for k in range(n_out):
            checker = OutputChecker(want[k], outs[k], PRECISIONS.get(want[k].dtype, (0.0, 0.0)),
                                    input_scale)
            for c, p in enumerate(truth.out_cands[k]):
                if truth.failure[t][k][c] is not None:
                    continue
                bad = checker.check(p)
                if bad is not None:
                    truth.fail(t, k, c, (label, variant, k, bad[0], bad[1]))


def judge(truth):
    """Rules that were never refuted, had an informative case, and are neither
    degenerate nor all-Replicate (the C++ `valid` set)."""
    valid = []
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
            valid.append(rule_text(ins, outs))
    return valid


def validate(sample, w, seed=0, sample_name="", redraws=3, recipe=DEFAULT_RECIPE):
    """Returns (combination checks, valid rules) for one sample, named sample_name
    (its cases' seeds derive from the name, as the C++'s do). One case per
    generator: the C++'s later rounds for tiny samples (full_case.h
    kMinCaseElements) are not mirrored, the fixed workload having none."""
    in_cands = [candidate_placements(len(s), dt) for s, dt in zip(sample.shapes, sample.dtypes)]
    truth = None
    checks = 0
    for g, (gname, fn) in enumerate(recipe):
        case_seed = reference_generators.case_seed(seed, sample_name, g)
        full = [generate(fn, s, dt, i, case_seed)
                for i, (s, dt) in enumerate(zip(sample.shapes, sample.dtypes))]
        expected = sample.call(full)
        if truth is None:
            truth = SampleTruth(in_cands, [candidate_placements(t.dim(), t.dtype) for t in expected])
        is_informative = informative(expected)
        negated = {}
        cache = {}
        for t, placements in enumerate(truth.in_tuples):
            if truth.dead(t):
                continue
            run_tuple(sample, truth, t, placements, full, expected, gname, case_seed, negated,
                      cache, w, redraws)
            checks += truth.out_tuples
            if is_informative:
                truth.informative[t] += 1
    return checks, judge(truth)
