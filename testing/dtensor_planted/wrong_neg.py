"""The planted 'repro' of wrong_neg.patch (planted_test.sh): it exits 0, as a
fixed bug's repro does, so that tools/dtensor/verify_fixes.py refuses that
patch on its rules alone (a rule newly incorrect, a correct one lost)."""
