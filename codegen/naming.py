"""The one naming function of ShRT's generated tests.

Every spec file is named `<target_name(op)>.textproto` and yields the Bazel
test target `<target_name(op)>`; the Starlark macro (op_test.bzl) reads the
name from the file, and gen_op_test.py checks that it matches the spec's op.
"""


def target_name(overload: str) -> str:
    """Returns the test target name of an overload.

    aten::mul.Tensor -> aten_mul_Tensor; aten::relu and aten::relu.default ->
    aten_relu; shrt_example::scaled_add -> shrt_example_scaled_add.
    """
    if overload.endswith(".default"):
        overload = overload[: -len(".default")]
    return overload.replace("::", "_").replace(".", "_")
