"""CPU time of short child processes, alternated (startup_ab.sh, startup_floor.sh).

A cold `bazel test` on two busy cores pays each test process's CPU time,
not its wall time: CPU time here is the user + system time of the child
(getrusage(RUSAGE_CHILDREN)), in milliseconds.
"""
import os
import resource
import statistics
import subprocess

# gtest's flag for a filter that matches no test: the process starts
# (loads libtorch and its static initialisers, the embedded spec, registers
# the gtests) and exits, running nothing.
START_UP_ONLY = ["--gtest_filter=-*"]


def binary_path(tree, target):
    """The path of the binary that `bazel build` makes for `target` (a label
    of this workspace, e.g. "//op_specs:aten_abs") in the checkout `tree`:
    TREE/bazel-bin/op_specs/aten_abs."""
    package, _, name = target.removeprefix("//").partition(":")
    return os.path.join(tree, "bazel-bin", package, name)


def cpu_ms(argv):
    """User + system CPU milliseconds of one run of `argv` (stdout, stderr dropped).

    Raises subprocess.CalledProcessError when it exits non-zero.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return 1000 * (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)


def alternate(commands, rounds):
    """Runs every command of `commands` (a list of argvs) once per round, in turn,
    `rounds` times, so that a change in the machine's speed hits all alike;
    returns each command's list of CPU milliseconds, in the order given."""
    times = [[] for _ in commands]
    for _ in range(rounds):
        for i, argv in enumerate(commands):
            times[i].append(cpu_ms(argv))
    return times


def mean_median(ms):
    """'mean / median' of a list of milliseconds, one decimal each."""
    return f"{statistics.mean(ms):.1f} / {statistics.median(ms):.1f}"
